//! `game_master`: which model tells the stories, and advice about it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::GameMasterView;

/// The model this server's game master runs on.
#[server(output = crate::wire::codec::Wire)]
pub async fn game_master() -> Result<GameMasterView, AppError> {
    use crate::api::context::services;
    Ok(services().await?.master.as_ref().clone())
}
