//! `redeem_recovery_code`: this browser becomes the player whose recovery code it was given.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Makes this browser the player of the recovery `code` (its own campaigns come along).
#[server]
pub async fn redeem_recovery_code(code: String) -> Result<(), AppError> {
    use super::context::{client, player, services, switch_player, to_app_error};
    let newcomer = player().await?;
    let client = client().await?;
    let services = services().await?;
    let player = services
        .game()
        .redeem_recovery_code(&newcomer, &client, &services.limits, &code)
        .await
        .map_err(to_app_error)?;
    switch_player(&player);
    Ok(())
}
