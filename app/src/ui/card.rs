//! A character card or a lorebook brought to a new adventure: the file read by the server, its
//! premise put in the premise box and its companion and lore shown, to be written into the new
//! campaign's journal. The reading's code is fetched the first time a file is chosen.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use base64::Engine;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::files::picked_file;
use crate::api::read_card;
use crate::ui::file_size::{file_bytes, mebibytes, whole_mebibytes};
use crate::wire::view::{CardView, MAX_CARD_BYTES};

/// The file input and what the file brings.
#[component]
pub fn CardPicker(
    /// What the read file brings (none until one is read).
    brought: RwSignal<Option<CardView>>,
    /// Called with the card's premise, when it has one.
    on_premise: Callback<String>,
) -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    let reading = RwSignal::new(false);
    let picked = move |event: leptos::ev::Event| {
        let Some(file) = picked_file(&event) else {
            return;
        };
        if file.size() > MAX_CARD_BYTES as f64 {
            failed.set(Some(format!(
                "This file is {} MB; a card or lorebook may have at most {} MB.",
                mebibytes(file_bytes(file.size())),
                whole_mebibytes(MAX_CARD_BYTES)
            )));
            return;
        }
        reading.set(true);
        failed.set(None);
        spawn_local(async move {
            let result = read_card_file(file).await;
            reading.set(false);
            match result {
                Ok(card) => {
                    if !card.premise.is_empty() {
                        on_premise.run(card.premise.clone());
                    }
                    brought.set(Some(card));
                }
                Err(message) => failed.set(Some(message)),
            }
        });
    };
    view! {
        <div class="card-picker">
            <label>
                "Bring a character card or a lorebook (JSON or PNG) "
                <input type="file" accept=".json,.png,application/json,image/png"
                    disabled=move || reading.get() on:change=picked data-testid="card-file" />
            </label>
            {move || failed.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
            {move || brought.get().map(|card| view! { <Brought card /> })}
        </div>
    }
}

/// What a read card brings.
#[component]
fn Brought(card: CardView) -> impl IntoView {
    let lore = card.entries.len() - usize::from(card.name.is_some());
    let left_out = if card.left_out > 0 {
        format!(
            " ({} more left out: the journal has no room)",
            card.left_out
        )
    } else {
        String::new()
    };
    view! {
        <p class="status" data-testid="card-brought">
            {card.name.map(|name| format!("Companion: {name}. "))}
            {match lore {
                1 => format!("1 lore entry goes into the journal{left_out}."),
                _ => format!("{lore} lore entries go into the journal{left_out}."),
            }}
        </p>
    }
}

/// What the server read in `file`, or why it could not: a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn read_card_file(file: web_sys::File) -> Result<CardView, String> {
    match read_bytes(file).await {
        Some(bytes) => read_card(base64::engine::general_purpose::STANDARD.encode(bytes))
            .await
            .map_err(|error| error.to_string()),
        None => Err("The file could not be read.".to_owned()),
    }
}

/// The file's bytes.
async fn read_bytes(file: web_sys::File) -> Option<Vec<u8>> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .ok()?;
    Some(web_sys::js_sys::Uint8Array::new(&buffer).to_vec())
}
