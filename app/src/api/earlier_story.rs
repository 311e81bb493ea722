//! `earlier_story`: an earlier page of the story log, fetched when the player asks for it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::StoryPage;

/// The story entries just before index `before`.
#[server]
pub async fn earlier_story(id: String, before: u32) -> Result<StoryPage, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .story_page(&player, &id, before)
        .await
        .map_err(to_app_error)
}
