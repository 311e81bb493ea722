//! The table's agreement as a player writes it: the game master's style, the lines (never in the
//! story) and the veils (off-screen only), one a line of their box. Used on the new-adventure
//! form (a panel whose code is fetched the first time it opens) and in play.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::lazy_panel::LazyPanel;

use crate::game::agreement::{Boundary, Style, TableAgreement, MAX_BOUNDARIES, MAX_BOUNDARY_CHARS};
use crate::wire::view::AgreementForm;

/// The agreement's fields as the player edits them.
#[derive(Clone, Copy)]
pub struct AgreementDraft {
    style: RwSignal<Style>,
    lines: RwSignal<String>,
    veils: RwSignal<String>,
}

impl AgreementDraft {
    /// A draft holding `agreement`.
    pub fn new(agreement: &TableAgreement) -> Self {
        let text = |list: &[Boundary]| {
            list.iter()
                .map(Boundary::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        };
        Self {
            style: RwSignal::new(agreement.style()),
            lines: RwSignal::new(text(agreement.lines())),
            veils: RwSignal::new(text(agreement.veils())),
        }
    }

    /// Shows `agreement` (as saved).
    pub fn reset(&self, agreement: &TableAgreement) {
        let fresh = Self::new(agreement);
        self.style.set(fresh.style.get_untracked());
        self.lines.set(fresh.lines.get_untracked());
        self.veils.set(fresh.veils.get_untracked());
    }

    /// The form the server takes: one line or veil a line of text.
    pub fn form(&self) -> AgreementForm {
        let list = |text: String| text.lines().map(str::to_owned).collect();
        AgreementForm {
            style: self.style.get_untracked(),
            lines: list(self.lines.get_untracked()),
            veils: list(self.veils.get_untracked()),
        }
    }
}

/// "Tone and lines" on the new-adventure form: the fields of `draft`, fetched on first opening.
#[component]
pub fn AgreementChoice(
    /// The fields being edited.
    draft: AgreementDraft,
) -> impl IntoView {
    let body = move || agreement_body(draft);
    view! {
        <LazyPanel class="agreement-choice" testid="agreement-choice" summary="Tone and lines" body />
    }
}

/// The choice's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn agreement_body(draft: AgreementDraft) -> AnyView {
    view! { <AgreementFields draft /> }.into_any()
}

/// The style choice and the two boxes.
#[component]
pub fn AgreementFields(
    /// The fields being edited.
    draft: AgreementDraft,
) -> impl IntoView {
    let limit = (MAX_BOUNDARIES * (MAX_BOUNDARY_CHARS + 1)).to_string();
    let hint = format!(
        "One a line, at most {MAX_BOUNDARIES}, each up to {MAX_BOUNDARY_CHARS} characters."
    );
    view! {
        <div class="agreement" data-testid="agreement">
            <label>
                "The game master's style"
                <select aria-label="The game master's style"
                    on:change=move |event| {
                        if let Some(style) = Style::from_name(&event_target_value(&event)) {
                            draft.style.set(style);
                        }
                    }
                    prop:value=move || draft.style.get().name()>
                    {Style::ALL.into_iter().map(|style| view! {
                        <option value=style.name()>{style.guidance()}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>
                "Lines: never in the story"
                <textarea aria-label="Lines" maxlength=limit.clone() placeholder="spiders" bind:value=draft.lines></textarea>
            </label>
            <label>
                "Veils: may happen, but off-screen"
                <textarea aria-label="Veils" maxlength=limit placeholder="torture" bind:value=draft.veils></textarea>
            </label>
            <p class="meta">{hint}</p>
        </div>
    }
}
