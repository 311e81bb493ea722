//! `revoke_recovery_code`: the player's recovery code stops working.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Revokes the player's recovery code.
#[server]
pub async fn revoke_recovery_code() -> Result<(), AppError> {
    use super::context::{player, services, to_app_error};
    let player = player().await?;
    services()
        .await?
        .game()
        .revoke_recovery_code(&player)
        .await
        .map_err(to_app_error)
}
