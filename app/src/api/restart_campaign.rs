//! `restart_campaign`: the same premise and character, from a fresh opening scene.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignSummary;

/// Starts one of the player's campaigns over; answers the new campaign's summary.
#[server]
pub async fn restart_campaign(id: String) -> Result<CampaignSummary, AppError> {
    use super::context::{admit_turn, campaign_id, client, now, player, services, to_app_error};
    let player = player().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    admit_turn(&services, &player, &client)?;
    let mut rng = services.dice.for_new_campaign();
    services
        .game()
        .restart(&player, &id, now(), &mut rng)
        .await
        .map_err(to_app_error)
}
