//! `list_trash`: the player's deleted campaigns that can still be restored.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TrashedCampaign;

/// The player's trash, the most recently deleted first.
#[server(output = crate::wire::codec::Wire)]
pub async fn list_trash() -> Result<Vec<TrashedCampaign>, AppError> {
    use crate::api::context::{caller, now};
    let caller = caller().await?;
    Ok(caller.game().trash(&caller.player, now()).await?)
}
