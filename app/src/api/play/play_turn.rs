//! `play_turn`: phase 1, streamed. The answer is JSON lines of
//! [`TurnUpdate`](crate::wire::view::TurnUpdate): only what changed (new story entries, the
//! sheet, streamed text), ending with `done` or `error`.

use leptos::prelude::*;
use leptos::server_fn::codec::{Json, StreamingText, TextStream};

use crate::wire::errors::AppError;
use crate::wire::view::MoveInput;

/// Plays the player's move on the campaign at `turn` (the turn the browser shows).
#[server(input = Json, output = StreamingText)]
pub async fn play_turn(
    id: String,
    turn: u32,
    input: MoveInput,
) -> Result<TextStream<AppError>, AppError> {
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
            .submit(
                &caller.player,
                &id,
                turn,
                &input,
                now(),
                &mut rng,
                &mut |u| updates.send(u),
            )
            .await;
        round_end(result)
    }))
}
