//! `load_ledger`: a page of a campaign's state changes with their causes, and its rolls.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::LedgerPage;

/// The page of the ledger of one of the player's campaigns that ends before row `before` (the
/// latest page without it).
#[server(output = crate::wire::codec::Wire)]
pub async fn load_ledger(id: String, before: Option<u32>) -> Result<LedgerPage, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().ledger(&caller.player, &id, before).await?)
}
