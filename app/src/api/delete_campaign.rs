//! `delete_campaign`: removes a campaign and its log.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Deletes one of the player's campaigns.
#[server]
pub async fn delete_campaign(id: String) -> Result<(), AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .delete(&player, &id)
        .await
        .map_err(to_app_error)
}
