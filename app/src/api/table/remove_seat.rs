//! `remove_seat`: the host removes a friend from the table; their hero leaves the story.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TableView;

/// Removes the friend at `seat` of campaign `id` (the host only); the table afterwards.
#[server(output = crate::wire::codec::Wire)]
pub async fn remove_seat(id: String, seat: u8) -> Result<TableView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::party::Seat;
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let seat = Seat::new(seat).map_err(|error| AppError::invalid("seat", error.to_string()))?;
    Ok(caller
        .services
        .table()
        .remove(&caller.player, &id, seat, now())
        .await?)
}
