//! `use_item`: the player uses a consumable from the character panel; the rules roll its dice
//! and apply it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Uses one of the carried consumable `slug` on the campaign at `turn` (the turn the browser
/// shows; it picks the dice); answers with what the player sees change.
#[server(output = crate::wire::codec::Wire)]
pub async fn use_item(id: String, turn: u32, slug: String) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::Slug;
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let slug =
        Slug::new(&slug).map_err(|error| AppError::from(ServiceError::invalid("item", error)))?;
    let mut rng = caller.services.dice.for_turn(turn);
    Ok(caller
        .game()
        .use_item(&caller.player, &id, &slug, now(), &mut rng)
        .await?)
}
