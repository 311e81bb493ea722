//! `retell_turn`: the latest turn told again with the same move and dice.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Tells the latest turn again (the same move and dice, a new narration), if the campaign is at
/// `turn`. The answer is the campaign as it now is.
#[server(output = crate::wire::codec::Wire)]
pub async fn retell_turn(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client, now};

    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_turn(&caller.services, &caller.player, &client)?;
    let mut rng = caller.services.dice.for_turn(turn);
    Ok(caller
        .game()
        .retell(&caller.player, &id, turn, now(), &mut rng)
        .await?)
}
