//! Pictures of the story, when the server has an image model (else nothing of it shows): a side
//! panel with the character's portrait, "Picture this" (the latest scene drawn) and "Draw a
//! portrait"; a picture drawn joins the story. A failure is shown and changes nothing. Its body
//! is fetched the first time the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::draw_picture;
use crate::campaign::picture::PictureKind;
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::{StoryEntry, TurnUpdate};

/// The panel, for the host of a campaign on a server that draws pictures.
#[component]
pub fn PicturesPanel() -> impl IntoView {
    let state = use_play();
    // A memo: a portrait drawn changes the pictures, and must not build the panel again (closed).
    let shown = Memo::new(move |_| state.pictures.with(|pictures| pictures.on) && state.is_host());
    move || {
        shown.get().then(|| {
            view! { <LazyPanel class="pictures panel" testid="pictures" summary="Pictures" body=pictures_body /> }
        })
    }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn pictures_body() -> AnyView {
    view! { <PicturesBody /> }.into_any()
}

/// The portrait and the buttons that draw.
#[component]
fn PicturesBody() -> impl IntoView {
    let state = use_play();
    let drawing = RwSignal::new(None::<PictureKind>);
    let failed = RwSignal::new(None::<String>);
    let draw = move |kind: PictureKind| {
        if drawing.get_untracked().is_some() {
            return;
        }
        drawing.set(Some(kind));
        failed.set(None);
        spawn_local(async move {
            match draw_picture(state.id.get_value(), kind).await {
                Ok(updates) => {
                    for update in updates {
                        if let TurnUpdate::Entry {
                            entry:
                                StoryEntry::Picture {
                                    id,
                                    shows: PictureKind::Portrait,
                                },
                            ..
                        } = &update
                        {
                            state
                                .pictures
                                .update(|pictures| pictures.portrait = Some(id.clone()));
                        }
                        state.update(update);
                    }
                }
                Err(error) => failed.set(Some(error.to_string())),
            }
            drawing.set(None);
        });
    };
    let portrait = move || {
        state.pictures.with(|pictures| pictures.portrait.clone()).map(|id| {
            let src = id.url(&state.id.get_value());
            view! { <img class="portrait" data-testid="portrait" src=src alt="Your character's portrait" /> }
        })
    };
    let label = move |kind: PictureKind, idle: &'static str| {
        move || {
            if drawing.get() == Some(kind) {
                "Drawing…"
            } else {
                idle
            }
        }
    };
    view! {
        {portrait}
        <div class="row">
            <button type="button" data-testid="picture-this" disabled=move || drawing.get().is_some()
                on:click=move |_| draw(PictureKind::Scene)>
                {label(PictureKind::Scene, "Picture this")}
            </button>
            <button type="button" data-testid="draw-portrait" disabled=move || drawing.get().is_some()
                on:click=move |_| draw(PictureKind::Portrait)>
                {label(PictureKind::Portrait, "Draw a portrait")}
            </button>
        </div>
        <p class="meta">"The image model draws the latest scene or your character, within the table's lines and veils."</p>
        {move || failed.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
    }
}
