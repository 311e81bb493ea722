//! `list_campaigns`: the player's saved campaigns.

use leptos::prelude::*;

use crate::campaign::view::CampaignSummary;
use crate::errors::AppError;

/// The player's campaigns, most recently played first.
#[server]
pub async fn list_campaigns() -> Result<Vec<CampaignSummary>, AppError> {
    use super::context::{player, services, to_app_error};
    let player = player().await?;
    services()?.game().list(&player).await.map_err(to_app_error)
}
