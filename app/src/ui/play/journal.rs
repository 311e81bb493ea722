//! The journal panel: what the game master keeps (people, places, threads, promises, notable
//! items). The player can pin an entry (the game master always sees it), rewrite or delete it.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::edit_journal;
use crate::game::{JournalEntry, JournalKind};
use crate::wire::view::{JournalEdit, TurnUpdate};

/// The journal, grouped by kind; updates as the game master writes it.
#[component]
pub fn JournalPanel() -> impl IntoView {
    let state = use_play();
    let error = RwSignal::new(None::<String>);
    let send = move |edit: JournalEdit| {
        spawn_local(async move {
            match edit_journal(state.id.get_value(), edit).await {
                Ok(TurnUpdate::Journal { entries }) => {
                    error.set(None);
                    state.journal.set(entries);
                }
                Ok(_) => {}
                Err(failure) => error.set(Some(failure.to_string())),
            }
        });
    };
    view! {
        <section class="journal panel" data-testid="journal">
            <h2>"Journal"</h2>
            {move || error.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
            {move || {
                let entries = state.journal.get();
                if entries.is_empty() {
                    return view! {
                        <p class="meta">"Nothing yet. The game master notes people, places and promises here."</p>
                    }
                        .into_any();
                }
                JournalKind::ALL
                    .into_iter()
                    .filter_map(|kind| {
                        let group: Vec<JournalEntry> =
                            entries.iter().filter(|entry| entry.kind == kind).cloned().collect();
                        (!group.is_empty())
                            .then(|| {
                                view! {
                                    <h3>{kind.heading()}</h3>
                                    <ul class="journal-entries">
                                        {group.into_iter().map(|entry| view! { <JournalItem entry send error /> }).collect_view()}
                                    </ul>
                                }
                            })
                    })
                    .collect_view()
                    .into_any()
            }}
        </section>
    }
}

/// One entry with its pin, edit and delete controls. It shows the entry as saved: a rewrite
/// keeps its form open ("Saving…") until the server's journal replaces the list, and stays
/// open with what was typed if the server refuses it.
#[component]
fn JournalItem(
    entry: JournalEntry,
    send: impl Fn(JournalEdit) + Copy + Send + Sync + 'static,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let editing = RwSignal::new(false);
    let saving = RwSignal::new(false);
    Effect::new(move |_| {
        if error.get().is_some() {
            saving.set(false);
        }
    });
    let name = RwSignal::new(entry.name.as_str().to_owned());
    let note = RwSignal::new(entry.note.as_str().to_owned());
    let (saved_name, saved_note) = (
        entry.name.as_str().to_owned(),
        entry.note.as_str().to_owned(),
    );
    let (id, pinned, by_rules) = (entry.id, entry.pinned, entry.by_rules);
    let class = format!(
        "journal-entry{}{}",
        if entry.open { "" } else { " closed" },
        if pinned { " pinned" } else { "" }
    );
    view! {
        <li class=class>
            <Show
                when=move || editing.get()
                fallback=move || {
                    view! {
                        <strong>{saved_name.clone()}</strong>
                        ": "
                        <span>{saved_note.clone()}</span>
                        {by_rules.then(|| view! { <span class="by-rules meta" title="The rules noted this name because the scenes keep naming it; edit it to make it yours.">" (noted by the rules)"</span> })}
                        <span class="journal-tools">
                            <button class="link" on:click=move |_| send(JournalEdit::Pin { id, pinned: !pinned })>
                                {if pinned { "Unpin" } else { "Pin" }}
                            </button>
                            <button class="link" on:click=move |_| editing.set(true)>"Edit"</button>
                            <button class="link" on:click=move |_| send(JournalEdit::Delete { id })>"Delete"</button>
                        </span>
                    }
                }
            >
                <input aria-label="Name" maxlength="60" bind:value=name />
                <textarea aria-label="Note" maxlength="300" bind:value=note></textarea>
                <button disabled=saving on:click=move |_| {
                    saving.set(true);
                    error.set(None);
                    send(JournalEdit::Rewrite { id, name: name.get_untracked(), note: note.get_untracked() });
                }>{move || if saving.get() { "Saving…" } else { "Save" }}</button>
            </Show>
        </li>
    }
}
