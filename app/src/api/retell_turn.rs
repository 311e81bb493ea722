//! `retell_turn`: the latest turn told again with the same move and dice.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Tells the latest turn again (the same move and dice, a new narration), if the campaign is at
/// `turn`. The answer is the campaign as it now is.
#[server]
pub async fn retell_turn(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use super::context::{admit_turn, campaign_id, client, now, player, services, to_app_error};

    let player = player().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    admit_turn(&services, &player, &client)?;
    let mut rng = services.dice.for_turn(turn);
    services
        .game()
        .retell(&player, &id, turn, now(), &mut rng)
        .await
        .map_err(to_app_error)
}
