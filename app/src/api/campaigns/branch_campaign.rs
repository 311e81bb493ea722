//! `branch_campaign`: a new campaign copying one up to a chosen turn.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignSummary;

/// Starts a new campaign that copies the campaign `id` up to turn `turn`.
#[server(output = crate::wire::codec::Wire)]
pub async fn branch_campaign(id: String, turn: u32) -> Result<CampaignSummary, AppError> {
    use crate::api::context::{admit_campaign, caller, campaign_id, client, now};

    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_campaign(&caller.services, &caller.player, &client).await?;
    let mut rng = caller.services.dice.for_new_campaign();
    Ok(caller
        .game()
        .branch(&caller.player, &id, turn, now(), &mut rng)
        .await?)
}
