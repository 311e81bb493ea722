//! `delete_forever`: deletes a campaign in the trash for good.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Deletes one of the player's campaigns for good, its log with it.
#[server]
pub async fn delete_forever(id: String) -> Result<(), AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .delete_forever(&player, &id)
        .await
        .map_err(to_app_error)
}
