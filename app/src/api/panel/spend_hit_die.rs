//! `spend_hit_die`: at the end of a short rest the player spends one hit die; the server rolls
//! it (plus CON) and heals.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Spends one hit die on the campaign at `turn` (the turn the browser shows; it picks the die).
#[server(output = crate::wire::codec::Wire)]
pub async fn spend_hit_die(id: String, turn: u32) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let mut rng = caller.services.dice.for_turn(turn);
    Ok(caller
        .game()
        .spend_hit_die(&caller.player, &id, now(), &mut rng)
        .await?)
}
