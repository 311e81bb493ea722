//! The table's agreement in play: the game master's style, the lines and the veils, changed in
//! the side panel and followed from the next request on. A side panel whose code is fetched the
//! first time it opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::set_agreement;
use crate::ui::agreement::{AgreementDraft, AgreementFields};
use crate::ui::lazy_panel::LazyPanel;

/// The agreement's panel.
#[component]
pub fn AgreementPanel() -> impl IntoView {
    view! {
        <LazyPanel class="agreement-panel panel" testid="agreement-panel" summary="Tone and lines"
            body=agreement_body />
    }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn agreement_body() -> AnyView {
    view! { <AgreementForm /> }.into_any()
}

/// The fields as saved, Save, and what the server said.
#[component]
fn AgreementForm() -> impl IntoView {
    let state = use_play();
    let draft = AgreementDraft::new(&state.agreement.get_untracked());
    let outcome = RwSignal::new(None::<Result<(), String>>);
    let saving = RwSignal::new(false);
    let save = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        if saving.get_untracked() {
            return;
        }
        saving.set(true);
        spawn_local(async move {
            let saved = set_agreement(state.id.get_value(), draft.form()).await;
            outcome.set(Some(match saved {
                Ok(agreement) => {
                    draft.reset(&agreement);
                    state.agreement.set(agreement);
                    Ok(())
                }
                Err(error) => Err(error.to_string()),
            }));
            saving.set(false);
        });
    };
    view! {
            <form on:submit=save>
                <AgreementFields draft />
                <button type="submit" disabled=move || saving.get()>
                    {move || if saving.get() { "Saving…" } else { "Save" }}
                </button>
            </form>
            {move || match outcome.get() {
                None => ().into_any(),
                Some(Ok(())) => view! {
                    <p class="status" data-testid="agreement-saved">"Saved: the game master follows it from the next move."</p>
                }.into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
            }}
    }
}
