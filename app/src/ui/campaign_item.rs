//! One saved campaign on the home page: resume, rename, export (a file, or a storybook to
//! share), and delete (asked twice; it goes to the trash, restorable for 30 days). The rename
//! form's code is fetched the first time it opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;

use super::ask_twice::AskTwice;
use super::files::ExportButton;
use super::spend::spend_text;
use crate::api::{rename_campaign, DeleteCampaign};
use crate::wire::view::{CampaignSummary, MAX_TITLE_CHARS};

/// One saved campaign: resume, rename, export, its storybook, delete.
#[component]
pub fn CampaignItem(
    campaign: CampaignSummary,
    delete: ServerAction<DeleteCampaign>,
) -> impl IntoView {
    let id = campaign.id.to_string();
    let href = format!("/play/{id}");
    let title = RwSignal::new(campaign.title.clone());
    let renaming = RwSignal::new(false);
    let delete_id = id.clone();
    let id_for_book = id.clone();
    view! {
        <li class="campaign" data-testid="campaign">
            <div>
                <A href=href.clone()>{move || title.get()}</A>
                <span class="meta">
                    {format!("turn {}", campaign.turn)}
                    " · last played "
                    {campaign.last_played}
                    <span data-testid="campaign-spend">{format!(" · {}", spend_text(&campaign.spend))}</span>
                </span>
                <Show when=move || renaming.get()>
                    {
                        let id = id.clone();
                        move || Suspend::new(rename_body(id.clone(), title, renaming))
                    }
                </Show>
            </div>
            <div class="campaign-buttons">
                <A href=href attr:class="button">"Resume"</A>
                <button on:click=move |_| renaming.update(|open| *open = !*open)>"Rename"</button>
                <ExportButton id=delete_id.clone() title />
                <a class="button" href=storybook_href(&id_for_book) download="" rel="external">
                    "Storybook"
                </a>
                <AskTwice
                    label="Delete"
                    asking="Really delete? It goes to the trash for 30 days"
                    confirmed=move || {
                        delete.dispatch(DeleteCampaign { id: delete_id.clone() });
                    }
                />
            </div>
        </li>
    }
}

/// The rename form: a chunk of its own in the split build (`lazy_chunks`, app/build.rs; loaded
/// with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn rename_body(id: String, title: RwSignal<String>, renaming: RwSignal<bool>) -> AnyView {
    view! { <RenameForm id title renaming /> }.into_any()
}

/// The new title, saved on Enter or "Save"; a refusal says why and keeps what was typed.
#[component]
fn RenameForm(id: String, title: RwSignal<String>, renaming: RwSignal<bool>) -> impl IntoView {
    let typed = RwSignal::new(title.get_untracked());
    let error = RwSignal::new(None::<String>);
    let save = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let (id, text) = (id.clone(), typed.get_untracked());
        spawn_local(async move {
            match rename_campaign(id, text).await {
                Ok(saved) => {
                    title.set(saved);
                    error.set(None);
                    renaming.set(false);
                }
                Err(failure) => error.set(Some(failure.to_string())),
            }
        });
    };
    view! {
        <form class="rename" on:submit=save>
            <input
                type="text"
                aria-label="New title"
                maxlength=MAX_TITLE_CHARS.to_string()
                prop:value=typed
                on:input=move |event| typed.set(event_target_value(&event))
            />
            <button type="submit">"Save"</button>
            {move || error.get().map(|error| view! { <p class="error" role="alert">{error}</p> })}
        </form>
    }
}

/// Where campaign `id`'s storybook downloads from (one HTML page, see the server's
/// `storybook.rs`).
pub fn storybook_href(id: &str) -> String {
    format!("/api/storybook/{id}")
}
