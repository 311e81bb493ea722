//! `load_campaign`: what the play screen opens with — the latest page of the story, the sheet
//! and the actions (generated first if missing).

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Loads one of the player's campaigns.
#[server]
pub async fn load_campaign(id: String) -> Result<CampaignView, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .load(&player, &id, now())
        .await
        .map_err(to_app_error)
}
