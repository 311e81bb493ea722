//! The event stream a second screen follows a campaign by: `GET /api/live/{id}`
//! (`text/event-stream`). Only the campaign's table may subscribe (its host and the friends
//! seated at it); each event is one update the
//! playing tab gets (the same typed JSON), named by its kind (`narrative`, `roll`,
//! `settlement`, `state`, `suggestions`, `done`, `failure`) and numbered, so that a browser that
//! reconnects with `Last-Event-ID` gets what it missed. When what it missed is no longer kept,
//! it gets a `reload` event and loads the campaign again. On PostgreSQL the numbers are the
//! database's, alike on every instance, and the turns played through any of them are followed
//! ([`crate::live_relay`]).

use std::convert::Infallible;

use app::service::live::{LiveEvent, Subscription};
use app::service::{GameServices, ServiceError};
use app::wire::{CampaignId, PlayerId};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use futures::stream::{self, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

/// The route, over the game's services.
pub fn routes<S: Clone + Send + Sync + 'static>(services: GameServices) -> Router<S> {
    Router::new()
        .route("/api/live/{id}", get(follow))
        .with_state(services)
}

/// Subscribes a player at the campaign's table to its updates.
async fn follow(
    State(services): State<GameServices>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Ok(id) = id.parse::<CampaignId>() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match services.table().place(&player, &id).await {
        Ok(_) => {}
        Err(ServiceError::NotFound) => return StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::error!(%error, "a campaign to follow could not be read");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    }
    let after = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    let subscription = services.live.subscribe(&id, after);
    Sse::new(events(subscription))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The missed updates (or a `reload`), then the live ones; a subscriber too slow to keep up
/// is told to reload.
fn events(subscription: Subscription) -> impl Stream<Item = Result<Event, Infallible>> {
    let Subscription {
        missed,
        gap,
        receiver,
    } = subscription;
    let first = gap.then(reload).into_iter().chain(missed.iter().map(event));
    let live = stream::unfold(receiver, |mut receiver| async move {
        match receiver.recv().await {
            Ok(live) => Some((event(&live), receiver)),
            Err(RecvError::Lagged(_)) => Some((reload(), receiver)),
            Err(RecvError::Closed) => None,
        }
    });
    stream::iter(first.collect::<Vec<_>>()).chain(live).map(Ok)
}

/// An update as an event of its kind.
fn event(live: &LiveEvent) -> Event {
    let data = serde_json::to_string(&live.update).unwrap_or_else(|_| "null".to_owned());
    Event::default()
        .id(live.id.to_string())
        .event(live.update.live_kind())
        .data(data)
}

/// Tells the subscriber to load the campaign again.
fn reload() -> Event {
    Event::default().event("reload").data("{}")
}
