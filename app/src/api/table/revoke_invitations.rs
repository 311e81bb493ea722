//! `revoke_invitations`: the host takes back every invitation not yet used.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Revokes campaign `id`'s unused invitations (the host only); how many.
#[server(output = crate::wire::codec::Wire)]
pub async fn revoke_invitations(id: String) -> Result<u64, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.services.table().revoke(&caller.player, &id).await?)
}
