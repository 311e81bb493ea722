//! `delete_campaign`: moves a campaign to the trash.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Moves one of the player's campaigns to the trash (restorable for 30 days).
#[server]
pub async fn delete_campaign(id: String) -> Result<(), AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .delete(&player, &id, now())
        .await
        .map_err(to_app_error)
}
