//! Following the campaign live: the play screen subscribes to the campaign's event stream, so
//! that a turn played in another tab or on another device streams in here as it is told. While
//! this tab plays a turn itself, its own answer brings the updates and the stream's are passed
//! over. The browser reconnects by itself, saying the last event it saw.

use leptos::prelude::*;

use super::state::use_play;

/// Subscribes the play screen to its campaign's events while it is open (in the browser only).
#[component]
pub fn LiveFollow() -> impl IntoView {
    let state = use_play();
    Effect::new(move |_| follow(state));
}

#[cfg(target_arch = "wasm32")]
fn follow(state: super::state::PlayState) {
    use futures::StreamExt;
    use leptos::wasm_bindgen::{closure::Closure, JsCast};
    use leptos::web_sys::{EventSource, MessageEvent};

    use crate::wire::view::TurnUpdate;

    const KINDS: [&str; 8] = [
        "narrative",
        "roll",
        "settlement",
        "state",
        "suggestions",
        "done",
        "error",
        "reload",
    ];
    let Ok(source) = EventSource::new(&format!("/api/live/{}", state.id.get_value())) else {
        return;
    };
    // One queue for every kind, so that the events are read in the order they were sent (a
    // turn's failure after its move, never before it).
    let (sender, mut events) = futures::channel::mpsc::unbounded::<(String, Option<String>)>();
    let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let _ = sender.unbounded_send((event.type_(), event.data().as_string()));
    });
    for kind in KINDS {
        let _ = source.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
    }
    let open = StoredValue::new_local(Some((source, listener)));
    on_cleanup(move || {
        if let Some((source, _listener)) = open.try_update_value(Option::take).flatten() {
            source.close();
        }
    });
    leptos::task::spawn_local(async move {
        while let Some((kind, data)) = events.next().await {
            if state.busy.get_untracked() {
                continue;
            }
            // What was saved, when the stream can no longer say: it skipped ahead, or a turn
            // told elsewhere failed (its move and draft were shown, and nothing was saved).
            let note = match kind.as_str() {
                "reload" => Some("This campaign moved on elsewhere."),
                "error" => Some("A move made in another tab could not be told; nothing changed."),
                _ => None,
            };
            if let Some(note) = note {
                super::run_turn::catch_up(state, note).await;
                continue;
            }
            let update =
                data.and_then(|data| crate::ui::resource::decode::<TurnUpdate>(&data).ok());
            // The table as another seat sees it is never this screen's.
            let update = update.filter(|u| !matches!(u, TurnUpdate::RoundWaiting { .. }));
            if let Some(update) = update {
                let told = matches!(update, TurnUpdate::Done { .. });
                state.update(update);
                // A friend's screen takes its own hero's sheet and actions once a round is told.
                if told && !state.is_host() {
                    if let Ok(view) = crate::api::load_campaign(state.id.get_value()).await {
                        state.replace(view);
                    }
                }
            }
        }
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn follow(_state: super::state::PlayState) {}
