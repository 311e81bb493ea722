//! `ask_the_gm`: a question out of character, answered without changing anything.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::AnswerView;

/// The game master's answer to `question` about the campaign; counted in the player's limits
/// on model requests.
#[server]
pub async fn ask_the_gm(id: String, question: String) -> Result<AnswerView, AppError> {
    use super::context::{admit_turn, campaign_id, client, player, services, to_app_error};
    let player = player().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let services = services().await?;
    admit_turn(&services, &player, &client)?;
    services
        .game()
        .ask(&player, &id, &question)
        .await
        .map_err(to_app_error)
}
