//! `branch_campaign`: a new campaign copying one up to a chosen turn.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignSummary;

/// Starts a new campaign that copies the campaign `id` up to turn `turn`.
#[server]
pub async fn branch_campaign(id: String, turn: u32) -> Result<CampaignSummary, AppError> {
    use super::context::{
        admit_campaign, campaign_id, client, now, player, services, to_app_error,
    };

    let player = player().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    admit_campaign(&services, &player, &client).await?;
    let mut rng = services.dice.for_new_campaign();
    services
        .game()
        .branch(&player, &id, turn, now(), &mut rng)
        .await
        .map_err(to_app_error)
}
