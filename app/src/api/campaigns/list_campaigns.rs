//! `list_campaigns`: the player's saved campaigns, a page at a time.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignPage;

/// A page of the player's campaigns, most recently played first (page 0 is the newest).
#[server(output = crate::wire::codec::Wire)]
pub async fn list_campaigns(page: u32) -> Result<CampaignPage, AppError> {
    use crate::api::context::caller;
    let caller = caller().await?;
    let mut listed = caller.game().list(&caller.player, page).await?;
    caller.services.pricing.price_page(&mut listed);
    Ok(listed)
}
