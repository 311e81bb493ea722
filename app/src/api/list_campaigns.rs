//! `list_campaigns`: the player's saved campaigns, a page at a time.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignPage;

/// A page of the player's campaigns, most recently played first (page 0 is the newest).
#[server]
pub async fn list_campaigns(page: u32) -> Result<CampaignPage, AppError> {
    use super::context::{player, services, to_app_error};
    let player = player().await?;
    let services = services().await?;
    let mut listed = services
        .game()
        .list(&player, page)
        .await
        .map_err(to_app_error)?;
    services.pricing.price_page(&mut listed);
    Ok(listed)
}
