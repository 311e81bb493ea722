//! What every server function needs: the game's services (provided by the server through
//! Leptos context), the player making the request and the address it comes from, the clock, and the one place where a
//! service error becomes the browser's [`AppError`] (logged with a request id).

use std::sync::Arc;

use leptos::prelude::*;
use rand::Rng;

use crate::service::live::LiveTurns;
use crate::service::{ClientAddress, Game, GameServices, ServiceError};
use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;
use crate::wire::{CampaignId, PlayerId};

/// The services, or an error if the server forgot to provide them; their phases' spans belong to
/// this request's (which the server's request layer puts beside it).
pub async fn services() -> Result<GameServices, AppError> {
    let mut services = use_context::<GameServices>()
        .ok_or_else(|| AppError::Transport {
            message: "The game is not available on this server.".to_owned(),
        })?
        .refreshed();
    if let Ok(axum::Extension(span)) =
        leptos_axum::extract::<axum::Extension<tracing::Span>>().await
    {
        services.span = span;
    }
    Ok(services)
}

/// The player making the request (set by the server's identity middleware).
pub async fn player() -> Result<PlayerId, AppError> {
    leptos_axum::extract::<axum::Extension<PlayerId>>()
        .await
        .map(|axum::Extension(player)| player)
        .map_err(|_| AppError::Transport {
            message: "Your browser did not send its player cookie; reload the page.".to_owned(),
        })
}

/// The address the request comes from, as the rate limits count it (set by the server's
/// client-address middleware).
pub async fn client() -> Result<ClientAddress, AppError> {
    leptos_axum::extract::<axum::Extension<ClientAddress>>()
        .await
        .map(|axum::Extension(client)| client)
        .map_err(|_| AppError::Transport {
            message: "The server could not tell where your request came from.".to_owned(),
        })
}

/// The answer header through which a server function tells the server's identity layer that
/// this browser is now another player (a recovery code was redeemed): the layer signs that
/// player's cookie and takes the header off.
pub const PLAYER_SWITCH_HEADER: &str = "x-dicebound-switch-player";

/// Makes the browser of this request `player` from its next request on (see
/// [`PLAYER_SWITCH_HEADER`]).
pub fn switch_player(player: &PlayerId) {
    use axum::http::{HeaderName, HeaderValue};
    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    if let Ok(value) = HeaderValue::from_str(player.as_str()) {
        response.insert_header(HeaderName::from_static(PLAYER_SWITCH_HEADER), value);
    }
}

/// Now, in seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}

/// Counts a request that calls the model against the player's and their address's allowance,
/// or refuses it.
pub fn admit_turn(
    services: &GameServices,
    player: &PlayerId,
    client: &ClientAddress,
) -> Result<(), AppError> {
    services.limits.turn(player, client).map_err(AppError::from)
}

/// Refuses a request that brings a player to a campaign (a seat taken) when the player or
/// their address does so too fast.
pub fn admit_campaign_rate(
    services: &GameServices,
    player: &PlayerId,
    client: &ClientAddress,
) -> Result<(), AppError> {
    services
        .limits
        .new_campaign(player, client)
        .map_err(AppError::from)
}

/// Refuses a new campaign if the player keeps as many as allowed, or the player or their
/// address starts them too fast.
pub async fn admit_campaign(
    services: &GameServices,
    player: &PlayerId,
    client: &ClientAddress,
) -> Result<(), AppError> {
    services
        .game()
        .room_for_a_campaign(player, &services.limits)
        .await?;
    services
        .limits
        .new_campaign(player, client)
        .map_err(AppError::from)
}

/// A streamed answer (JSON lines of [`TurnUpdate`]): `work` runs on a task of its own (it goes
/// on if the browser leaves), sending its updates to the sink it is given; the update it ends
/// with is the last line. Each update of a campaign's turn (`live`) is published to its
/// followers too.
pub fn streamed<W, F>(
    live: Option<(Arc<LiveTurns>, CampaignId)>,
    work: W,
) -> leptos::server_fn::codec::TextStream<AppError>
where
    W: FnOnce(UpdateSender) -> F + Send + 'static,
    F: std::future::Future<Output = TurnUpdate> + Send + 'static,
{
    use futures::StreamExt;
    let (sender, receiver) = futures::channel::mpsc::unbounded::<TurnUpdate>();
    let updates = UpdateSender {
        browser: sender,
        live,
    };
    let last_sink = updates.clone();
    tokio::spawn(async move {
        let last = work(updates).await;
        last_sink.send(last);
    });
    leptos::server_fn::codec::TextStream::new(receiver.map(|update| {
        let mut line = serde_json::to_string(&update).map_err(|_| AppError::Transport {
            message: "The server could not write its answer.".to_owned(),
        })?;
        line.push('\n');
        Ok(line)
    }))
}

/// Where a streamed answer's task sends its updates: the browser that asked, and the
/// campaign's followers.
#[derive(Clone)]
pub struct UpdateSender {
    browser: futures::channel::mpsc::UnboundedSender<TurnUpdate>,
    live: Option<(Arc<LiveTurns>, CampaignId)>,
}

impl UpdateSender {
    /// Sends `update` (dropped if the browser has left) and publishes it to the followers (but
    /// the table as the mover's seat sees it, which is theirs alone: the others hear who moved
    /// from the table's own update).
    pub fn send(&self, update: TurnUpdate) {
        let own = matches!(update, TurnUpdate::RoundWaiting { .. });
        if let (Some((live, id)), false) = (&self.live, own) {
            live.publish(id, &update);
        }
        let _ = self.browser.unbounded_send(update);
    }
}

/// Parses a campaign id from the browser; a malformed one is simply not found.
pub fn campaign_id(id: &str) -> Result<CampaignId, AppError> {
    id.parse().map_err(|_| AppError::NotFound)
}

/// Who is asking and the game's services: what every server function about a player's
/// campaigns starts with.
pub struct Caller {
    /// The player making the request.
    pub player: PlayerId,
    /// The game's services, their phases' spans this request's.
    pub services: GameServices,
}

impl Caller {
    /// The game, for this request.
    pub fn game(&self) -> Game<'_> {
        self.services.game()
    }

    /// The campaign's owner, by whom it is stored, if the caller sits at its table (the host,
    /// or a friend at a seat); not found for anyone else.
    pub async fn host_of(&self, id: &CampaignId) -> Result<PlayerId, AppError> {
        Ok(self.services.table().place(&self.player, id).await?.owner)
    }
}

/// The player making the request and the services (see [`player`] and [`services`]).
pub async fn caller() -> Result<Caller, AppError> {
    Ok(Caller {
        player: player().await?,
        services: services().await?,
    })
}

/// A service error as the browser's error. Failures of the model or the database are logged
/// in full under a fresh request id, which the player's message shows; their details never
/// reach the browser.
impl From<ServiceError> for AppError {
    fn from(error: ServiceError) -> Self {
        service_error(error)
    }
}

/// The browser's error for `error` (see the `From` above).
fn service_error(error: ServiceError) -> AppError {
    match error {
        ServiceError::NotFound => AppError::NotFound,
        ServiceError::Stale { current } => AppError::Stale { current },
        ServiceError::Invalid { field, reason } => AppError::invalid(field, reason),
        ServiceError::Busy => AppError::Busy,
        ServiceError::Ended => AppError::invalid(
            "move",
            "this story has ended: your character has fallen. Start it over, or branch a new \
             campaign from an earlier scene",
        ),
        ServiceError::RateLimited { retry_after } => AppError::Limited {
            retry_after_secs: retry_after.as_secs().max(1),
        },
        ServiceError::TooManyCampaigns { limit } => AppError::invalid(
            "campaigns",
            format!(
                "you have {limit} campaigns, the most this server keeps for one player; \
                 delete one to start another"
            ),
        ),
        ServiceError::Deadline { after } => {
            tracing::warn!(seconds = after.as_secs(), "a phase passed its deadline");
            AppError::TooSlow {
                seconds: after.as_secs(),
            }
        }
        ServiceError::Gm(error) => {
            let request_id = request_id();
            tracing::warn!(%request_id, error = %error, "the game master failed");
            AppError::GameMasterUnavailable {
                retryable: error.is_retryable(),
                request_id,
            }
        }
        ServiceError::NotAllowed(why) => AppError::NotAllowed {
            reason: why.to_string(),
        },
        error @ (ServiceError::Store(_) | ServiceError::Corrupt(_)) => {
            let request_id = request_id();
            tracing::error!(%request_id, error = %error, "campaign storage failed");
            AppError::StorageUnavailable { request_id }
        }
    }
}

/// A short random id tying a player's error message to the server's log line.
fn request_id() -> String {
    format!("{:08x}", rand::rng().random::<u32>())
}

/// The last update of a round's move: the turn saved with its tokens once narrated, the table
/// while it waits for the other seats, or why it failed.
pub fn round_end(result: Result<crate::wire::view::RoundState, ServiceError>) -> TurnUpdate {
    use crate::wire::view::RoundState;
    match result {
        Ok(RoundState::Narrated { turn, tokens }) => TurnUpdate::Done { turn, tokens },
        Ok(RoundState::Waiting { table }) => TurnUpdate::RoundWaiting { table },
        Err(error) => TurnUpdate::Error {
            error: AppError::from(error),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::ProjectionError;
    use crate::campaign::store::StoreError;
    use crate::gm::{LlmError, TurnError};
    use std::time::Duration;

    /// What the player must never read: database internals, file paths, a provider's words.
    const INTERNALS: [&str; 6] = [
        "/var/lib",
        "game.db",
        "sqlite",
        "SQLITE_BUSY",
        "upstream shard",
        "10.0.0.7",
    ];

    fn failures() -> Vec<ServiceError> {
        let disk = std::io::Error::other("/var/lib/dicebound/game.db: sqlite SQLITE_BUSY");
        let provider = "upstream shard 7 at 10.0.0.7 failed: /var/lib/model";
        vec![
            ServiceError::Store(StoreError::database(disk)),
            ServiceError::Corrupt(ProjectionError::NotStarted),
            ServiceError::Gm(TurnError::Llm(LlmError::Server {
                status: 503,
                message: provider.into(),
            })),
            ServiceError::Gm(TurnError::Llm(LlmError::BadRequest {
                status: 400,
                message: provider.into(),
            })),
            ServiceError::Gm(TurnError::Llm(LlmError::InvalidResponse(provider.into()))),
            ServiceError::Gm(TurnError::Llm(LlmError::Connect(provider.into()))),
            ServiceError::Gm(TurnError::Llm(LlmError::Cut)),
            ServiceError::Gm(TurnError::EmptyNarrative),
            ServiceError::Deadline {
                after: Duration::from_secs(180),
            },
            ServiceError::RateLimited {
                retry_after: Duration::from_millis(2500),
            },
            ServiceError::TooManyCampaigns { limit: 200 },
            ServiceError::Busy,
            ServiceError::NotFound,
            ServiceError::Stale { current: 4 },
        ]
    }

    #[test]
    fn no_player_facing_error_text_carries_internals() {
        for failure in failures() {
            let shown = AppError::from(failure).to_string();
            assert!(!shown.trim().is_empty());
            for internal in INTERNALS {
                assert!(!shown.contains(internal), "{internal:?} shown: {shown}");
            }
        }
    }
}
