//! `load_ledger`: a page of a campaign's state changes with their causes, and its rolls.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::LedgerPage;

/// The page of the ledger of one of the player's campaigns that ends before row `before` (the
/// latest page without it).
#[server]
pub async fn load_ledger(id: String, before: Option<u32>) -> Result<LedgerPage, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .ledger(&player, &id, before)
        .await
        .map_err(to_app_error)
}
