//! `delete_forever`: deletes a campaign in the trash for good.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Deletes one of the player's campaigns for good, its log with it.
#[server(output = crate::wire::codec::Wire)]
pub async fn delete_forever(id: String) -> Result<(), AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().delete_forever(&caller.player, &id).await?)
}
