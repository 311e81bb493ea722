//! `rename_campaign`: the player gives a campaign a title of their own.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Renames one of the player's campaigns; answers with the title as saved.
#[server]
pub async fn rename_campaign(id: String, title: String) -> Result<String, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .rename(&player, &id, &title)
        .await
        .map_err(to_app_error)
}
