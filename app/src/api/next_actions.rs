//! `next_actions`: phase 2, the actions for the scene just narrated.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::ActionsView;

/// Generates (if needed) and returns the actions of the campaign's current scene; then, beside
/// the game, folds old turns into the summary if they no longer fit the model's window.
#[server]
pub async fn next_actions(id: String) -> Result<ActionsView, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    let actions = services
        .game()
        .ensure_actions(&player, &id, now())
        .await
        .map_err(to_app_error)?;
    services.live.publish(
        &id,
        &crate::wire::view::TurnUpdate::Actions {
            actions: actions.actions.clone(),
        },
    );
    tokio::spawn(async move {
        if let Err(error) = services.game().summarize(&player, &id, now()).await {
            tracing::warn!(%error, "the summary could not be written; it is tried after the next turn");
        }
    });
    Ok(actions)
}
