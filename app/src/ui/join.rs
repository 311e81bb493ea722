//! The page a friend's invitation link opens (`/join/CODE`): they make their hero with the same
//! creation fields as a new adventure and take a seat at the host's table, then play it. A
//! route whose code the browser fetches on first use.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};

use crate::api::JoinTable;
use crate::ui::creation::{CharacterFields, CreationForm};
use crate::ui::lazy_page::ClientPage;

/// The join page, its code fetched on the first visit.
#[component]
pub fn JoinRoute() -> impl IntoView {
    view! { <ClientPage body=join_body /> }
}

/// The page's code: a chunk of its own in the split build (`lazy_chunks`, app/build.rs).
#[cfg_attr(lazy_chunks, lazy)]
async fn join_body() -> AnyView {
    view! { <JoinPage /> }.into_any()
}

/// The friend's hero, and the seat taken.
#[component]
fn JoinPage() -> impl IntoView {
    crate::ui::app::mark_hydrated();
    let params = use_params_map();
    let form = CreationForm::default();
    let join = ServerAction::<JoinTable>::new();
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(id)) = join.value().get() {
            navigate(&format!("/play/{id}"), Default::default());
        }
    });
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let code = params.read_untracked().get("code").unwrap_or_default();
        join.dispatch(JoinTable {
            code,
            character: form.draft(),
        });
    };
    view! {
        <section class="home join">
            <h1 class="title">"Join a table"</h1>
            <p class="tagline">"A friend invited you to their adventure. Make your hero and take a seat."</p>
            <form class="panel" data-testid="join-form" on:submit=submit>
                <CharacterFields form />
                <button type="submit" data-testid="join" disabled=move || join.pending().get()>
                    "Take a seat"
                </button>
                {move || join.value().get().and_then(Result::err).map(|error| view! {
                    <p class="error" role="alert">{error.to_string()}</p>
                })}
            </form>
        </section>
    }
}
