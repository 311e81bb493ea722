//! `spend_hit_die`: at the end of a short rest the player spends one hit die; the server rolls
//! it (plus CON) and heals.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Spends one hit die on the campaign at `turn` (the turn the browser shows; it picks the die).
#[server]
pub async fn spend_hit_die(id: String, turn: u32) -> Result<Vec<TurnUpdate>, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};

    let player = player().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    let mut rng = services.dice.for_turn(turn);
    services
        .game()
        .spend_hit_die(&player, &id, now(), &mut rng)
        .await
        .map_err(to_app_error)
}
