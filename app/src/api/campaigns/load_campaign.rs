//! `load_campaign`: what the play screen opens with — the latest page of the story, the sheet
//! and the actions (generated first if missing).

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Loads one of the player's campaigns.
#[server(output = crate::wire::codec::Wire)]
pub async fn load_campaign(id: String) -> Result<CampaignView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let mut view = caller
        .services
        .table()
        .load(&caller.player, &id, now())
        .await?;
    view.pictures.on = caller.services.operator.pictures.painter().is_some();
    Ok(view)
}
