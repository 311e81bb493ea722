//! `earlier_story`: an earlier page of the story log, fetched when the player asks for it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::StoryPage;

/// The story entries just before index `before`.
#[server(output = crate::wire::codec::Wire)]
pub async fn earlier_story(id: String, before: u32) -> Result<StoryPage, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let host = caller.host_of(&id).await?;
    Ok(caller.game().story_page(&host, &id, before).await?)
}
