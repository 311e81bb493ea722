//! `delete_campaign`: moves a campaign to the trash.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Moves one of the player's campaigns to the trash (restorable for 30 days).
#[server(output = crate::wire::codec::Wire)]
pub async fn delete_campaign(id: String) -> Result<(), AppError> {
    use crate::api::context::{caller, campaign_id, now};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().delete(&caller.player, &id, now()).await?)
}
