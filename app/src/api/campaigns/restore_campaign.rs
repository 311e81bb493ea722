//! `restore_campaign`: brings a campaign back from the trash.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Restores one of the player's deleted campaigns into play.
#[server(output = crate::wire::codec::Wire)]
pub async fn restore_campaign(id: String) -> Result<(), AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().restore(&caller.player, &id, now()).await?)
}
