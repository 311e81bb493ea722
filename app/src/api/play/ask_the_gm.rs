//! `ask_the_gm`: a question out of character, answered without changing anything.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::AnswerView;

/// The game master's answer to `question` about the campaign; counted in the player's limits
/// on model requests.
#[server(output = crate::wire::codec::Wire)]
pub async fn ask_the_gm(id: String, question: String) -> Result<AnswerView, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client};
    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_turn(&caller.services, &caller.player, &client)?;
    Ok(caller.game().ask(&caller.player, &id, &question).await?)
}
