//! `load_table`: the table as the caller's seat sees it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TableView;

/// Who sits at campaign `id`'s table and who has moved this round.
#[server(output = crate::wire::codec::Wire)]
pub async fn load_table(id: String) -> Result<TableView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .services
        .table()
        .view(&caller.player, &id, now())
        .await?)
}
