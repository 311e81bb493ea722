//! `set_approval`: the player turns approval mode on or off in play.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Turns approval mode on or off from the game master's next change; answers with the mode now.
#[server]
pub async fn set_approval(id: String, on: bool) -> Result<bool, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};

    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .set_approval(&player, &id, on, now())
        .await
        .map_err(to_app_error)
}
