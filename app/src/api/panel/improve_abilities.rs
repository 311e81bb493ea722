//! `improve_abilities`: the player spends an ability score improvement from the character panel;
//! the rules check it is due and that no score passes 20.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Raises `first` by 2, or `first` and `second` by 1 each when `second` is given (not blank);
/// answers with what the player sees change.
#[server(output = crate::wire::codec::Wire)]
pub async fn improve_abilities(
    id: String,
    first: String,
    second: String,
) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::improvement::AbilityImprovement;
    use crate::game::Attribute;
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let attribute = |raw: &str| {
        raw.parse::<Attribute>()
            .map_err(|error| AppError::from(ServiceError::invalid("attribute", error)))
    };
    let first = attribute(&first)?;
    let improvement = match second.trim() {
        "" => AbilityImprovement::PlusTwo { attribute: first },
        second => AbilityImprovement::PlusOneEach {
            first,
            second: attribute(second)?,
        },
    };
    Ok(caller
        .game()
        .improve_abilities(&caller.player, &id, improvement, now())
        .await?)
}
