//! `restart_campaign`: the same premise and character, from a fresh opening scene.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignSummary;

/// Starts one of the player's campaigns over; answers the new campaign's summary.
#[server(output = crate::wire::codec::Wire)]
pub async fn restart_campaign(id: String) -> Result<CampaignSummary, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client, now};
    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_turn(&caller.services, &caller.player, &client)?;
    let mut rng = caller.services.dice.for_new_campaign();
    Ok(caller
        .game()
        .restart(&caller.player, &id, now(), &mut rng)
        .await?)
}
