//! `gm_context`: what the game master sees, loaded when the drawer opens.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::GmContextView;

/// The model's working context of one of the player's campaigns.
#[server(output = crate::wire::codec::Wire)]
pub async fn gm_context(id: String) -> Result<GmContextView, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let mut context = caller.game().gm_context(&caller.player, &id).await?;
    caller.services.pricing.price_context(&mut context);
    Ok(context)
}
