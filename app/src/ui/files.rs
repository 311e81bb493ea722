//! Campaigns as files on the home page: export one (a JSON download) and import one (checked by
//! the server against the rules before it becomes a campaign of yours). The code that reads or
//! writes a file is fetched the first time it is needed.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use wasm_bindgen::JsCast;

use crate::api::import_campaign::MAX_IMPORT_BYTES;
use crate::api::{export_campaign, import_campaign};
use crate::ui::file_size::{file_bytes, mebibytes, whole_mebibytes};
use crate::wire::view::CampaignSummary;

/// "Export": downloads the campaign as `<title>.dicebound.json`.
#[component]
pub fn ExportButton(
    /// The campaign's id.
    id: String,
    /// Its title as it stands (the file's name).
    title: RwSignal<String>,
) -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    let export = move |_| {
        let (id, title) = (id.clone(), title.get_untracked());
        spawn_local(async move {
            failed.set(export_file(id, title).await.err());
        });
    };
    view! {
        <button on:click=export>"Export"</button>
        {move || failed.get().map(|message| view! { <span class="error" role="alert">{message}</span> })}
    }
}

/// "Import a campaign": a file picker; the imported campaign opens at once.
#[component]
pub fn ImportForm() -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let navigate = use_navigate();
    let picked = move |event: leptos::ev::Event| {
        let Some(file) = picked_file(&event) else {
            return;
        };
        if let Some(message) = too_large(file.size()) {
            failed.set(Some(message));
            return;
        }
        let navigate = navigate.clone();
        busy.set(true);
        spawn_local(async move {
            let result = import_file(file).await;
            busy.set(false);
            match result {
                Ok(created) => navigate(&format!("/play/{}", created.id), Default::default()),
                Err(message) => failed.set(Some(message)),
            }
        });
    };
    view! {
        <div class="import">
            <label>
                "Import a campaign file "
                <input type="file" accept=".json,application/json" disabled=move || busy.get() on:change=picked />
            </label>
            {move || failed.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
        </div>
    }
}

/// Downloads campaign `id` as a file named after its `title`; why not, for the player. A chunk
/// of its own in the split build (`lazy_chunks`, app/build.rs; loaded with the rest without
/// `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn export_file(id: String, title: String) -> Result<(), String> {
    let json = export_campaign(id)
        .await
        .map_err(|error| error.to_string())?;
    download(&format!("{}.dicebound.json", file_stem(&title)), &json);
    Ok(())
}

/// The campaign imported from `file`; why not, for the player. A chunk of its own in the split
/// build (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn import_file(file: web_sys::File) -> Result<CampaignSummary, String> {
    match read_text(file).await {
        Some(text) => import_campaign(text)
            .await
            .map_err(|error| error.to_string()),
        None => Err("The file could not be read.".to_owned()),
    }
}

/// What the player reads about a file of `bytes` this server would not import.
fn too_large(bytes: f64) -> Option<String> {
    (bytes > MAX_IMPORT_BYTES as f64).then(|| {
        format!(
            "This file is {} MiB; a campaign file may have at most {} MiB.",
            mebibytes(file_bytes(bytes)),
            whole_mebibytes(MAX_IMPORT_BYTES)
        )
    })
}

/// A file name made of the title's letters and digits.
fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    stem.trim_matches('-').to_owned()
}

/// Saves `text` as a download called `name`.
fn download(name: &str, text: &str) {
    let url = format!(
        "data:application/json;charset=utf-8,{}",
        String::from(web_sys::js_sys::encode_uri_component(text))
    );
    let link = document()
        .create_element("a")
        .ok()
        .and_then(|element| element.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    if let Some(link) = link {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
}

/// The file a file input was given.
pub fn picked_file(event: &leptos::ev::Event) -> Option<web_sys::File> {
    let input: web_sys::HtmlInputElement = event_target(event);
    input.files().and_then(|files| files.get(0))
}

async fn read_text(file: web_sys::File) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|text| text.as_string())
}
