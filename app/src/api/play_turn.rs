//! `play_turn`: phase 1, streamed. The answer is JSON lines of
//! [`TurnUpdate`](crate::campaign::view::TurnUpdate), ending with `done` or `error`.

use leptos::prelude::*;
use leptos::server_fn::codec::{Json, StreamingText, TextStream};

use crate::campaign::view::MoveInput;

/// Plays the player's move on the campaign at `turn` (the turn the browser shows).
#[server(input = Json, output = StreamingText)]
pub async fn play_turn(
    id: String,
    turn: u32,
    input: MoveInput,
) -> Result<TextStream, ServerFnError> {
    use super::context::{campaign_id, now, player, services};
    use crate::campaign::service::MoveRequest;
    use crate::campaign::view::TurnUpdate;
    use futures::StreamExt;
    use rand::SeedableRng;

    let player = player().await?;
    let id = campaign_id(&id)?;
    let services = services()?;
    let (sender, receiver) = futures::channel::mpsc::unbounded::<TurnUpdate>();
    tokio::spawn(async move {
        let mut rng = rand::rngs::StdRng::from_os_rng();
        let mut sink = {
            let sender = sender.clone();
            move |update: TurnUpdate| {
                let _ = sender.unbounded_send(update);
            }
        };
        let result = services
            .game()
            .play(
                &player,
                &id,
                MoveRequest {
                    expected_turn: turn,
                    input: &input,
                },
                now(),
                &mut rng,
                &mut sink,
            )
            .await;
        let last = match result {
            Ok(view) => TurnUpdate::Done {
                view: Box::new(view),
            },
            Err(error) => {
                tracing::warn!(%error, "a turn failed");
                TurnUpdate::Error {
                    message: error.to_string(),
                }
            }
        };
        let _ = sender.unbounded_send(last);
    });
    Ok(TextStream::new(receiver.map(|update| {
        serde_json::to_string(&update)
            .map(|mut line| {
                line.push('\n');
                line
            })
            .map_err(|error| ServerFnError::new(error.to_string()))
    })))
}
