//! The story so far: the chapters reached, the clocks of the threats the story revealed, the
//! people met and how they feel, and the switch that opens the game master's notes (the hidden
//! plan, a spoiler only when the player asks). Its body is fetched the first time the panel
//! opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::show_notes;
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::{ClockView, PersonView, SpineView};

/// The panel.
#[component]
pub fn StorySoFar() -> impl IntoView {
    view! { <LazyPanel class="spine panel" testid="story-so-far" summary="The story so far" body=spine_body /> }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn spine_body() -> AnyView {
    view! { <SpineBody /> }.into_any()
}

/// Chapters, clocks, people and the notes switch.
#[component]
fn SpineBody() -> impl IntoView {
    let state = use_play();
    let failure = RwSignal::new(None::<String>);
    let toggle = move |event: leptos::ev::Event| {
        let on = event_target_checked(&event);
        spawn_local(async move {
            match show_notes(state.id.get_value(), on).await {
                Ok(spine) => {
                    failure.set(None);
                    state.spine.set(spine);
                }
                Err(error) => failure.set(Some(error.to_string())),
            }
        });
    };
    view! {
        {move || {
            let SpineView { chapters, clocks, people, notes_shown, notes } = state.spine.get();
            view! {
                {chapters_view(chapters)}
                {clocks_view(clocks)}
                {people_view(people)}
                <label class="notes-switch">
                    <input type="checkbox" data-testid="show-notes" prop:checked=notes_shown on:change=toggle />
                    " Show the game master's notes (spoilers)"
                </label>
                {(!notes.is_empty()).then(|| view! {
                    <ul class="gm-notes" data-testid="gm-notes">
                        {notes.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                    </ul>
                })}
            }
        }}
        {move || failure.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
    }
}

fn chapters_view(chapters: Vec<String>) -> AnyView {
    if chapters.is_empty() {
        return view! { <p class="meta">"The story has not found its shape yet."</p> }.into_any();
    }
    view! {
        <ol class="chapters" data-testid="chapters">
            {chapters.into_iter().map(|title| view! { <li>{title}</li> }).collect_view()}
        </ol>
    }
    .into_any()
}

fn clocks_view(clocks: Vec<ClockView>) -> impl IntoView {
    (!clocks.is_empty()).then(|| {
        view! {
            <h3>"Threats"</h3>
            <ul class="clocks">
                {clocks.into_iter().map(clock_view).collect_view()}
            </ul>
        }
    })
}

fn clock_view(clock: ClockView) -> impl IntoView {
    let label = format!("{}: {} of {}", clock.name, clock.filled, clock.segments);
    view! {
        <li class="clock" data-testid="clock">
            <span>{label.clone()}</span>
            <meter min="0" max=clock.segments.to_string() value=clock.filled.to_string() aria-label=label></meter>
            {clock.full.map(|full| view! { <span class="meta">{format!(" Full: {full}.")}</span> })}
        </li>
    }
}

fn people_view(people: Vec<PersonView>) -> impl IntoView {
    (!people.is_empty()).then(|| {
        view! {
            <h3>"People"</h3>
            <ul class="people">
                {people.into_iter().map(|person| view! {
                    <li data-testid="person">
                        <strong>{person.name}</strong>{format!(" — {}", person.attitude)}
                        {(!person.knows.is_empty()).then(|| view! {
                            <span class="meta">{format!(" (remembers: {})", person.knows.join("; "))}</span>
                        })}
                    </li>
                }).collect_view()}
            </ul>
        }
    })
}
