//! `search_story`: the passages of the story that hold the words the player typed.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::FoundView;

/// The best passages of the campaign's story for `words`.
#[server(output = crate::wire::codec::Wire)]
pub async fn search_story(id: String, words: String) -> Result<Vec<FoundView>, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .game()
        .search_story(&caller.player, &id, &words)
        .await?)
}
