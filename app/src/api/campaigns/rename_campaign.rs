//! `rename_campaign`: the player gives a campaign a title of their own.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Renames one of the player's campaigns; answers with the title as saved.
#[server(output = crate::wire::codec::Wire)]
pub async fn rename_campaign(id: String, title: String) -> Result<String, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller.game().rename(&caller.player, &id, &title).await?)
}
