//! `list_trash`: the player's deleted campaigns that can still be restored.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TrashedCampaign;

/// The player's trash, the most recently deleted first.
#[server]
pub async fn list_trash() -> Result<Vec<TrashedCampaign>, AppError> {
    use super::context::{now, player, services, to_app_error};
    let player = player().await?;
    services()
        .await?
        .game()
        .trash(&player, now())
        .await
        .map_err(to_app_error)
}
