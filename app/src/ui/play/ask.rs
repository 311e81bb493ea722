//! Asking the game master out of character: a question box in the side panel and the answer in
//! an out-of-character box; the story, the turn and the sheet stay as they were. Its body is
//! fetched the first time the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::ask_the_gm;
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::{AnswerView, MAX_QUESTION_CHARS};

/// The panel: the question box and the latest answer.
#[component]
pub fn AskTheGm() -> impl IntoView {
    view! { <LazyPanel class="ask-gm panel" testid="ask-gm" summary="Ask the GM" body=ask_body /> }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn ask_body() -> AnyView {
    view! { <AskBody /> }.into_any()
}

/// The question box and the latest answer.
#[component]
fn AskBody() -> impl IntoView {
    let state = use_play();
    let question = RwSignal::new(String::new());
    let answered = RwSignal::new(None::<Result<AnswerView, String>>);
    let asking = RwSignal::new(false);
    let ask = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        if asking.get_untracked() {
            return;
        }
        asking.set(true);
        spawn_local(async move {
            let result = ask_the_gm(state.id.get_value(), question.get_untracked()).await;
            if result.is_ok() {
                question.set(String::new());
            }
            answered.set(Some(result.map_err(|error| error.to_string())));
            asking.set(false);
        });
    };
    view! {
            <p class="meta">"A question outside the story: it changes nothing, rolls nothing and takes no turn."</p>
            <form on:submit=ask>
                <textarea aria-label="Your question" maxlength=MAX_QUESTION_CHARS.to_string() placeholder="Can I reach the ledge from here?" bind:value=question></textarea>
                <button type="submit" disabled=move || asking.get()>
                    {move || if asking.get() { "Asking…" } else { "Ask" }}
                </button>
            </form>
            {move || match answered.get() {
                None => ().into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
                Some(Ok(answer)) => view! {
                    <div class="ooc" data-testid="gm-answer">
                        <p class="meta">{format!("You asked (turn {}): {}", answer.turn, answer.question)}</p>
                        <p>{answer.answer}</p>
                    </div>
                }
                .into_any(),
            }}
    }
}
