//! `next_actions`: phase 2, the actions for the scene just narrated.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::ActionsView;

/// Generates (if needed) and returns the actions of the campaign's current scene; then, beside
/// the game, folds old turns into the summary if they no longer fit the model's window.
#[server(output = crate::wire::codec::Wire)]
pub async fn next_actions(id: String) -> Result<ActionsView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let host = caller.host_of(&id).await?;
    // The followers get the actions as the host's hero sees them (a friend's screen works out
    // its own when the round is told); the caller gets their own.
    let for_host = caller.game().ensure_actions(&host, &id, now()).await?;
    caller.services.live.publish(
        &id,
        &crate::wire::view::TurnUpdate::Actions {
            actions: for_host.actions.clone(),
        },
    );
    let actions = if host == caller.player {
        for_host
    } else {
        caller
            .services
            .table()
            .actions(&caller.player, &id, now())
            .await?
    };
    tokio::spawn(async move {
        if let Err(error) = caller.game().summarize(&host, &id, now()).await {
            tracing::warn!(%error, "the summary could not be written; it is tried after the next turn");
        }
    });
    Ok(actions)
}
