//! `equip_item`: the player equips or puts away a weapon, armour or shield from the character
//! panel; the rules apply it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Equips (`equip`) or puts away the carried item `slug`; answers with what the player sees
/// change.
#[server]
pub async fn equip_item(
    id: String,
    slug: String,
    equip: bool,
) -> Result<Vec<TurnUpdate>, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};
    use crate::game::Slug;
    use crate::service::ServiceError;

    let player = player().await?;
    let id = campaign_id(&id)?;
    let slug =
        Slug::new(&slug).map_err(|error| to_app_error(ServiceError::invalid("item", error)))?;
    services()
        .await?
        .game()
        .equip_item(&player, &id, &slug, equip, now())
        .await
        .map_err(to_app_error)
}
