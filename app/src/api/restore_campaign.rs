//! `restore_campaign`: brings a campaign back from the trash.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Restores one of the player's deleted campaigns into play.
#[server]
pub async fn restore_campaign(id: String) -> Result<(), AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .restore(&player, &id, now())
        .await
        .map_err(to_app_error)
}
