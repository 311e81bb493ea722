//! `go_on`: the round is narrated with the moves in, without the seats still missing; streamed
//! like a move.

use leptos::prelude::*;
use leptos::server_fn::codec::{StreamingText, TextStream};

use crate::wire::errors::AppError;

/// Narrates campaign `id`'s round answering `turn` now: the host at any time, anyone once the
/// round has waited its time.
#[server(output = StreamingText)]
pub async fn go_on(id: String, turn: u32) -> Result<TextStream<AppError>, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client, now, round_end, streamed};
    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    admit_turn(&caller.services, &caller.player, &client)?;
    let live = Some((caller.services.live.clone(), id.clone()));
    Ok(streamed(live, move |updates| async move {
        let mut rng = caller.services.dice.for_turn(turn);
        let result = caller
            .services
            .table()
            .go_on(&caller.player, &id, turn, now(), &mut rng, &mut |u| {
                updates.send(u)
            })
            .await;
        round_end(result)
    }))
}
