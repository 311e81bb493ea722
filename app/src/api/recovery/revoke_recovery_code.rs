//! `revoke_recovery_code`: the player's recovery code stops working.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Revokes the player's recovery code.
#[server(output = crate::wire::codec::Wire)]
pub async fn revoke_recovery_code() -> Result<(), AppError> {
    use crate::api::context::caller;
    let caller = caller().await?;
    Ok(caller.game().revoke_recovery_code(&caller.player).await?)
}
