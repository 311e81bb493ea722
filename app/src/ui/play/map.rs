//! Where you are: the map the server drew (`wire::present::map`) of the places the game master
//! recorded, the character's own place marked, and a button to travel to each other place.
//! A travel button plays the typed move `Travel to {name}`, as the move box would. A side panel
//! whose code is fetched the first time it opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::run_turn::play;
use super::state::use_play;
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::MoveInput;

/// The move a travel button plays.
pub fn travel_move(name: &str) -> String {
    format!("Travel to {name}")
}

/// The map's panel.
#[component]
pub fn MapPanel() -> impl IntoView {
    view! { <LazyPanel class="map panel" testid="map" summary="Where you are" body=map_body /> }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn map_body() -> AnyView {
    view! { <MapBody /> }.into_any()
}

/// The map as drawn on the server, and the travel buttons.
#[component]
fn MapBody() -> impl IntoView {
    let state = use_play();
    view! {
        <div class="map-body">
            {move || {
                let map = state.map.get();
                if map.places.is_empty() {
                    return view! { <p class="meta">"No places recorded yet."</p> }.into_any();
                }
                let elsewhere: Vec<String> = map
                    .places
                    .into_iter()
                    .filter(|place| !place.here)
                    .map(|place| place.name)
                    .collect();
                view! {
                    // Made and escaped on the server from the campaign's map.
                    <div class="map-view" inner_html=map.svg></div>
                    <div class="travel">
                        {elsewhere
                            .into_iter()
                            .map(|name| {
                                let text = travel_move(&name);
                                let label = text.clone();
                                view! {
                                    <button
                                        class="travel-to"
                                        data-testid="travel"
                                        disabled=move || {
                                            state.busy.get()
                                                || state.waiting()
                                                || state.sheet.with(|sheet| sheet.vitality.is_dead())
                                        }
                                        on:click=move |_| {
                                            play(state, MoveInput::Text { text: text.clone() })
                                        }
                                    >
                                        {label}
                                    </button>
                                }
                            })
                            .collect_view()}
                    </div>
                }
                .into_any()
            }}
        </div>
    }
}
