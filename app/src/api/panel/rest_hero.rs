//! `rest_hero`: the player calls a short or a long rest from the character panel; the rules
//! say what it restores and move the clock.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Rests: `long` for a long rest (at most once a day), else a short one.
#[server(output = crate::wire::codec::Wire)]
pub async fn rest_hero(id: String, long: bool) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::RestKind;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let kind = if long {
        RestKind::Long
    } else {
        RestKind::Short
    };
    Ok(caller.game().rest(&caller.player, &id, kind, now()).await?)
}
