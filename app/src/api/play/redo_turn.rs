//! `redo_turn`: the player puts the latest undone turn back.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Redoes the latest undone turn, if the campaign is at `turn`. The answer is the campaign as
/// it now is.
#[server(output = crate::wire::codec::Wire)]
pub async fn redo_turn(id: String, turn: u32) -> Result<CampaignView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().redo(&caller.player, &id, turn, now()).await?)
}
