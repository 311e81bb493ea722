//! `load_ledger`: every state change of a campaign with its cause, and every roll.

use leptos::prelude::*;

use crate::campaign::view::LedgerRow;
use crate::errors::AppError;

/// The ledger of one of the player's campaigns, oldest first.
#[server]
pub async fn load_ledger(id: String) -> Result<Vec<LedgerRow>, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()?
        .game()
        .ledger(&player, &id)
        .await
        .map_err(to_app_error)
}
