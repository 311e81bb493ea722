//! `has_recovery_code`: whether the player has a recovery code, and since when.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::RecoveryStatus;

/// Whether the player has a recovery code.
#[server]
pub async fn has_recovery_code() -> Result<RecoveryStatus, AppError> {
    use super::context::{player, services, to_app_error};
    let player = player().await?;
    services()
        .await?
        .game()
        .recovery_status(&player)
        .await
        .map_err(to_app_error)
}
