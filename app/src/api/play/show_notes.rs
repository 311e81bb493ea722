//! `show_notes`: the player opens or closes the game master's notes (the hidden plan).

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::SpineView;

/// Shows or hides the story's hidden plan in the story so far; answers with what it shows.
#[server(output = crate::wire::codec::Wire)]
pub async fn show_notes(id: String, on: bool) -> Result<SpineView, AppError> {
    use crate::api::context::{caller, campaign_id, now};

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .game()
        .show_notes(&caller.player, &id, on, now())
        .await?)
}
