//! `undo_turn`: the player takes the latest turn back.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Undoes the campaign's latest turn, if the campaign is at `turn`. The answer is the campaign
/// as it now is.
#[server(output = crate::wire::codec::Wire)]
pub async fn undo_turn(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().undo(&caller.player, &id, turn, now()).await?)
}
