//! Searching the story: the player types words and gets the passages of the whole story that
//! hold them (scenes, their own moves, the game master's asides), the best first, each with its
//! turn. Its body is fetched the first time the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::drawer::found_line;
use super::state::use_play;
use crate::api::search_story;
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::FoundView;

/// The panel: the story's search box and what it found.
#[component]
pub fn StorySearch() -> impl IntoView {
    view! {
        <LazyPanel class="story-search panel" testid="story-search" summary="Search the story" body=search_body />
    }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn search_body() -> AnyView {
    view! { <SearchBody /> }.into_any()
}

/// The story's search box and what it found.
#[component]
fn SearchBody() -> impl IntoView {
    let state = use_play();
    let words = RwSignal::new(String::new());
    let found = RwSignal::new(None::<Result<Vec<FoundView>, String>>);
    let searching = RwSignal::new(false);
    let search = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        if searching.get_untracked() {
            return;
        }
        searching.set(true);
        spawn_local(async move {
            let result = search_story(state.id.get_value(), words.get_untracked()).await;
            found.set(Some(result.map_err(|error| error.to_string())));
            searching.set(false);
        });
    };
    view! {
            <form on:submit=search>
                <input type="search" aria-label="Words to find" maxlength="200" placeholder="a name, a place, a thing" bind:value=words />
                <button type="submit" disabled=move || searching.get()>
                    {move || if searching.get() { "Searching…" } else { "Search" }}
                </button>
            </form>
            {move || match found.get() {
                None => ().into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
                Some(Ok(passages)) if passages.is_empty() => {
                    view! { <p class="meta" data-testid="story-found">"Nothing in the story holds those words."</p> }.into_any()
                }
                Some(Ok(passages)) => view! {
                    <ol class="story-found" data-testid="story-found">
                        {passages.into_iter().map(|passage| view! { <li>{found_line(passage)}</li> }).collect_view()}
                    </ol>
                }
                .into_any(),
            }}
    }
}
