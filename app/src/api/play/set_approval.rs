//! `set_approval`: the player turns approval mode on or off in play.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Turns approval mode on or off from the game master's next change; answers with the mode now.
#[server(output = crate::wire::codec::Wire)]
pub async fn set_approval(id: String, on: bool) -> Result<bool, AppError> {
    use crate::api::context::{caller, campaign_id, now};

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .game()
        .set_approval(&caller.player, &id, on, now())
        .await?)
}
