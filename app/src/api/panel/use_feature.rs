//! `use_feature`: the player uses a class feature from the character panel (Second Wind,
//! Arcane Recovery; in a fight, any that acts there); the rules count its uses and roll its dice.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Uses the class feature `feature` (its key, `secondWind`) on the campaign at `turn`.
#[server(output = crate::wire::codec::Wire)]
pub async fn use_feature(
    id: String,
    turn: u32,
    feature: String,
) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::features::Feature;
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let feature: Feature = serde_json::from_value(serde_json::Value::String(feature))
        .map_err(|_| AppError::from(ServiceError::invalid("feature", "no such class feature")))?;
    let mut rng = caller.services.dice.for_turn(turn);
    Ok(caller
        .game()
        .use_feature(&caller.player, &id, feature, now(), &mut rng)
        .await?)
}
