//! `cast_spell`: the player casts a known spell from the character panel; the rules spend its
//! slot and roll its dice (in a fight, it is the player's turn).

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Casts the known spell `spell` (its slug) with a slot of level `slot` (the lowest left when
/// none) on the campaign at `turn` (the turn the browser shows; it picks the dice).
#[server(output = crate::wire::codec::Wire)]
pub async fn cast_spell(
    id: String,
    turn: u32,
    spell: String,
    slot: Option<u8>,
) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::spells::SpellLevel;
    use crate::game::Slug;
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let invalid = |error| AppError::from(ServiceError::invalid("spell", error));
    let spell = Slug::new(&spell).map_err(|e| invalid(e.to_string()))?;
    let slot = slot
        .map(SpellLevel::new)
        .transpose()
        .map_err(|e| invalid(e.to_string()))?;
    let mut rng = caller.services.dice.for_turn(turn);
    Ok(caller
        .game()
        .cast_spell(&caller.player, &id, &spell, slot, now(), &mut rng)
        .await?)
}
