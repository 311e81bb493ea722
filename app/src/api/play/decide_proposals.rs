//! `decide_proposals`: the player accepts or refuses changes the game master proposed
//! (approval mode), one or all at once.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::{ProposalDecision, TurnUpdate};

/// Applies the player's decisions in order, all or nothing; answers with what the play screen
/// shows change (the sheet, the journal, the map, the proposals still waiting, the story's new
/// entries). (JSON in: a list of decisions.)
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn decide_proposals(
    id: String,
    decisions: Vec<ProposalDecision>,
) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{caller, campaign_id, now};

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .game()
        .decide_proposals(&caller.player, &id, &decisions, now())
        .await?)
}
