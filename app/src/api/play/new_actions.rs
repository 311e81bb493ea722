//! `new_actions`: new actions for the latest scene.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Offers new actions for the latest scene, if the campaign is at `turn`. The answer is the
/// campaign as it now is.
#[server(output = crate::wire::codec::Wire)]
pub async fn new_actions(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client, now};
    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_turn(&caller.services, &caller.player, &client)?;
    Ok(caller
        .game()
        .reoffer_actions(&caller.player, &id, turn, now())
        .await?)
}
