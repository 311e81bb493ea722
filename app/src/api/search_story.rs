//! `search_story`: the passages of the story that hold the words the player typed.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::FoundView;

/// The best passages of the campaign's story for `words`.
#[server]
pub async fn search_story(id: String, words: String) -> Result<Vec<FoundView>, AppError> {
    use super::context::{campaign_id, player, services, to_app_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .search_story(&player, &id, &words)
        .await
        .map_err(to_app_error)
}
