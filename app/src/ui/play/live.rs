//! Following the campaign live: the play screen subscribes to the campaign's event stream, so
//! that a turn played in another tab or on another device streams in here as it is told. While
//! this tab plays a turn itself, its own answer brings the updates and the stream's are passed
//! over. The browser reconnects by itself, saying the last event it saw. The stream is
//! `gloo-net`'s `EventSource`, one subscription per kind of event: its code is a chunk of its own
//! in the split build, fetched once the page has hydrated (so the home page never loads it).

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;

use super::state::{use_play, PlayState};

/// Subscribes the play screen to its campaign's events while it is open (in the browser only).
#[component]
pub fn LiveFollow() -> impl IntoView {
    let state = use_play();
    Effect::new(move |_| {
        // The page may be left before the follower's code arrives: it then never starts.
        let left = Arc::new(AtomicBool::new(false));
        on_cleanup({
            let left = Arc::clone(&left);
            move || left.store(true, Ordering::Relaxed)
        });
        let owner = Owner::current();
        leptos::task::spawn_local(async move {
            let start = follower().await;
            if let Some(owner) = owner.filter(|_| !left.load(Ordering::Relaxed)) {
                owner.with(|| start(state));
            }
        });
    });
}

/// The follower: a chunk of its own in the split build (`lazy_chunks`, app/build.rs).
#[cfg_attr(lazy_chunks, lazy)]
async fn follower() -> fn(PlayState) {
    follow as fn(PlayState)
}

/// The kinds of event the stream sends (`server/src/live.rs`).
#[cfg(target_arch = "wasm32")]
const KINDS: [&str; 8] = [
    "narrative",
    "roll",
    "settlement",
    "state",
    "suggestions",
    "done",
    "failure",
    "reload",
];

/// One event read off the stream: its number (the last one seen, for an event without one), its
/// kind and its data.
#[cfg(target_arch = "wasm32")]
type Received = (u64, String, Option<String>);

#[cfg(target_arch = "wasm32")]
fn follow(state: PlayState) {
    use futures::StreamExt;
    use gloo_net::eventsource::futures::EventSource;

    let Ok(mut source) = EventSource::new(&format!("/api/live/{}", state.id.get_value())) else {
        return;
    };
    let kinds = KINDS.iter().filter_map(|kind| source.subscribe(*kind).ok());
    // Ends when the stream is closed for good (the page left, or the server refused it).
    let mut events = futures::stream::select_all(kinds)
        .take_while(|event| std::future::ready(event.is_ok()))
        .filter_map(|event| {
            std::future::ready(event.ok().map(|(kind, message)| {
                let number = message.last_event_id().trim().parse().unwrap_or(0);
                (number, kind, message.data().as_string())
            }))
        })
        .boxed_local();
    // Dropping the source closes it.
    let open = StoredValue::new_local(Some(source));
    on_cleanup(move || {
        open.try_update_value(Option::take);
    });
    leptos::task::spawn_local(async move {
        while let Some(first) = events.next().await {
            for (_, kind, data) in in_send_order(first, &mut events) {
                if !state.busy.get_untracked() {
                    take(state, &kind, data).await;
                }
            }
        }
    });
}

/// `first` and every event already received after it, in the order they were sent. Each kind
/// comes through a queue of its own, and the queues are read in turn: events received while the
/// last ones were being taken may come out of them in any order. They are put back in the order
/// of their numbers (an event without one, `reload`, keeps the number of the one before it, so
/// it stays first).
#[cfg(target_arch = "wasm32")]
fn in_send_order(
    first: Received,
    events: &mut (impl futures::Stream<Item = Received> + Unpin),
) -> Vec<Received> {
    use futures::{FutureExt, StreamExt};

    let mut batch = vec![first];
    while let Some(Some(event)) = events.next().now_or_never() {
        batch.push(event);
    }
    batch.sort_by_key(|(number, _, _)| *number);
    batch
}

/// Takes one event: an update shown as it streams, or the campaign loaded again when the
/// stream can no longer say what was saved.
#[cfg(target_arch = "wasm32")]
async fn take(state: PlayState, kind: &str, data: Option<String>) {
    use crate::wire::view::TurnUpdate;

    // What was saved, when the stream can no longer say: it skipped ahead, or a turn told
    // elsewhere failed (its move and draft were shown, and nothing was saved).
    let note = match kind {
        "reload" => Some("This campaign moved on elsewhere."),
        "failure" => Some("A move made in another tab could not be told; nothing changed."),
        _ => None,
    };
    if let Some(note) = note {
        super::run_turn::catch_up(state, note).await;
        return;
    }
    let update = data.and_then(|data| crate::wire::codec::decode::<TurnUpdate>(&data).ok());
    // The table as another seat sees it is never this screen's.
    let Some(update) = update.filter(|u| !matches!(u, TurnUpdate::RoundWaiting { .. })) else {
        return;
    };
    let told = matches!(update, TurnUpdate::Done { .. });
    state.update(update);
    // A friend's screen takes its own hero's sheet and actions once a round is told.
    if told && !state.is_host() {
        if let Ok(view) = crate::api::load_campaign(state.id.get_value()).await {
            state.replace(view);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn follow(_state: PlayState) {}
