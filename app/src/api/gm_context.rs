//! `gm_context`: what the game master sees, loaded when the drawer opens.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::GmContextView;

/// The model's working context of one of the player's campaigns.
#[server]
pub async fn gm_context(id: String) -> Result<GmContextView, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    let mut context = services
        .game()
        .gm_context(&player, &id)
        .await
        .map_err(to_app_error)?;
    services.pricing.price_context(&mut context);
    Ok(context)
}
