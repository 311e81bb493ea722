//! `new_recovery_code`: the player makes a recovery code (the old one stops working).

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Makes the player a new recovery code; answers with it, the only time it is shown.
#[server(output = crate::wire::codec::Wire)]
pub async fn new_recovery_code() -> Result<String, AppError> {
    use crate::api::context::{caller, now};
    use rand::SeedableRng;
    let caller = caller().await?;
    // Always the system's randomness (never the seeded dice of a test scenario).
    let mut rng = rand::rngs::StdRng::from_os_rng();
    Ok(caller
        .game()
        .new_recovery_code(&caller.player, now(), &mut rng)
        .await?)
}
