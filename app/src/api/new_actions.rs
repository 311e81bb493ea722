//! `new_actions`: new actions for the latest scene.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Offers new actions for the latest scene, if the campaign is at `turn`. The answer is the
/// campaign as it now is.
#[server]
pub async fn new_actions(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use super::context::{admit_turn, campaign_id, client, now, player, services, to_app_error};
    let player = player().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    admit_turn(&services, &player, &client)?;
    services
        .game()
        .reoffer_actions(&player, &id, turn, now())
        .await
        .map_err(to_app_error)
}
