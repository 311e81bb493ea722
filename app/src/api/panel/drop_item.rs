//! `drop_item`: the player drops an item from the character panel; the rules apply it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Drops every one of the carried item `slug`; answers with what the player sees change.
#[server(output = crate::wire::codec::Wire)]
pub async fn drop_item(id: String, slug: String) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::Slug;
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let slug =
        Slug::new(&slug).map_err(|error| AppError::from(ServiceError::invalid("item", error)))?;
    Ok(caller
        .game()
        .drop_item(&caller.player, &id, &slug, now())
        .await?)
}
