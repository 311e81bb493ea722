//! The trash on the home page: deleted campaigns with the days left to restore each, "Restore"
//! and "Delete forever" (asked twice). Its body is fetched (and the trash listed) the first time
//! the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::ask_twice::AskTwice;
use super::lazy_panel::LazyPanel;
use crate::api::{list_trash, DeleteCampaign, DeleteForever, RestoreCampaign};
use crate::ui::resource::wire_resource;
use crate::wire::view::TrashedCampaign;

/// The trash panel.
#[component]
pub fn Trash(
    delete: ServerAction<DeleteCampaign>,
    restore: ServerAction<RestoreCampaign>,
    forever: ServerAction<DeleteForever>,
) -> impl IntoView {
    let body = move || trash_body(delete, restore, forever);
    view! { <LazyPanel class="trash" testid="trash" summary="Trash" body /> }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn trash_body(
    delete: ServerAction<DeleteCampaign>,
    restore: ServerAction<RestoreCampaign>,
    forever: ServerAction<DeleteForever>,
) -> AnyView {
    view! { <TrashBody delete restore forever /> }.into_any()
}

/// The player's trash, loaded again whenever a campaign is deleted, restored or deleted for good.
#[component]
fn TrashBody(
    delete: ServerAction<DeleteCampaign>,
    restore: ServerAction<RestoreCampaign>,
    forever: ServerAction<DeleteForever>,
) -> impl IntoView {
    let trashed = wire_resource(
        move || {
            (
                delete.version().get(),
                restore.version().get(),
                forever.version().get(),
            )
        },
        |_| list_trash(),
    );
    let failed = move || {
        let restored = restore.value().get().and_then(Result::err);
        let deleted = forever.value().get().and_then(Result::err);
        restored
            .or(deleted)
            .map(|error| view! { <p class="error" role="alert">{error.to_string()}</p> })
    };
    view! {
            <p class="meta">"Deleted campaigns can be restored for 30 days; then they are deleted for good."</p>
            {failed}
            <Suspense fallback=|| view! { <p class="status">"Loading…"</p> }>
                {move || {
                    trashed
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any(),
                            Ok(list) if list.is_empty() => view! { <p class="status">"The trash is empty."</p> }.into_any(),
                            Ok(list) => view! {
                                <ul class="campaign-list">
                                    {list
                                        .into_iter()
                                        .map(|trashed| view! { <TrashedItem trashed restore forever /> })
                                        .collect_view()}
                                </ul>
                            }
                            .into_any(),
                        })
                }}
            </Suspense>
    }
}

/// One deleted campaign: when, the days left, Restore, Delete forever.
#[component]
fn TrashedItem(
    trashed: TrashedCampaign,
    restore: ServerAction<RestoreCampaign>,
    forever: ServerAction<DeleteForever>,
) -> impl IntoView {
    let id = trashed.campaign.id.to_string();
    let forever_id = id.clone();
    let days = match trashed.days_left {
        0 => "its last day".to_owned(),
        1 => "1 day left".to_owned(),
        days => format!("{days} days left"),
    };
    view! {
        <li class="campaign trashed" data-testid="trashed">
            <div>
                <span>{trashed.campaign.title}</span>
                <span class="meta">{format!("deleted {} · {days}", trashed.deleted)}</span>
            </div>
            <div class="campaign-buttons">
                <button on:click=move |_| {
                    restore.dispatch(RestoreCampaign { id: id.clone() });
                }>"Restore"</button>
                <AskTwice
                    label="Delete forever"
                    asking="Really delete forever? It cannot be undone"
                    confirmed=move || {
                        forever.dispatch(DeleteForever { id: forever_id.clone() });
                    }
                />
            </div>
        </li>
    }
}
