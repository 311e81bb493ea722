//! `set_round_wait`: the host sets how long a round waits for every seat.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TableView;

/// Sets campaign `id`'s round wait to `secs` seconds (the host only); the table afterwards.
#[server(output = crate::wire::codec::Wire)]
pub async fn set_round_wait(id: String, secs: u32) -> Result<TableView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .services
        .table()
        .set_wait(&caller.player, &id, secs, now())
        .await?)
}
