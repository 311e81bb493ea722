//! Reading a streamed answer of the server (JSON lines of
//! [`TurnUpdate`](crate::wire::view::TurnUpdate)): a turn being played, a campaign being
//! started.

use futures::StreamExt;
use leptos::server_fn::codec::TextStream;

use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Passes each update of `stream` to `apply` until it returns `true` (the stream's last
/// update); the server's error if it sends one, or a transport error if the stream ends first.
pub async fn read_updates(
    stream: TextStream<AppError>,
    mut apply: impl FnMut(TurnUpdate) -> bool,
) -> Result<(), AppError> {
    let mut stream = stream.into_inner();
    let mut buffer = String::new();
    while let Some(chunk) = stream.next().await {
        buffer.push_str(&chunk?);
        while let Some(newline) = buffer.find('\n') {
            let line: String = buffer.drain(..=newline).collect();
            let update: TurnUpdate =
                crate::wire::codec::decode(line.trim()).map_err(|_| AppError::Transport {
                    message: "The server sent an answer this page cannot read.".to_owned(),
                })?;
            if let TurnUpdate::Error { error } = update {
                return Err(error);
            }
            if apply(update) {
                return Ok(());
            }
        }
    }
    Err(AppError::Transport {
        message: "The connection closed before the game master finished. Nothing was lost: try \
                  again."
            .to_owned(),
    })
}
