//! `redeem_recovery_code`: this browser becomes the player whose recovery code it was given.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Makes this browser the player of the recovery `code` (its own campaigns come along).
#[server(output = crate::wire::codec::Wire)]
pub async fn redeem_recovery_code(code: String) -> Result<(), AppError> {
    use crate::api::context::{client, player, services, switch_player};
    let newcomer = player().await?;
    let client = client().await?;
    let services = services().await?;
    let player = services
        .game()
        .redeem_recovery_code(&newcomer, &client, &services.limits, &code)
        .await?;
    switch_player(&player);
    Ok(())
}
