//! `has_recovery_code`: whether the player has a recovery code, and since when.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::RecoveryStatus;

/// Whether the player has a recovery code.
#[server(output = crate::wire::codec::Wire)]
pub async fn has_recovery_code() -> Result<RecoveryStatus, AppError> {
    use crate::api::context::caller;
    let caller = caller().await?;
    Ok(caller.game().recovery_status(&caller.player).await?)
}
