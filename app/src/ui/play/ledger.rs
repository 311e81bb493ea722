//! The ledger drawer: every change to the character with its cause, and every roll with its
//! dice; its latest page loaded each time it is opened, earlier pages on demand. Its body is code
//! the browser fetches the first time the drawer opens (the release build splits the wasm:
//! `cargo leptos build --split`).

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::load_ledger;
use crate::wire::view::{LedgerPage, LedgerRow};

/// One line of the table: the turn, what happened, why.
#[derive(Clone)]
struct Line {
    turn: u32,
    what: String,
    cause: String,
}

/// The ledger drawer: its body mounted (and its latest page loaded) while it is open.
#[component]
pub fn LedgerDrawer() -> impl IntoView {
    let open = RwSignal::new(false);
    let toggle = move |event: leptos::ev::Event| {
        open.set(event_target::<leptos::web_sys::Element>(&event).has_attribute("open"));
    };
    view! {
        <details class="ledger panel" on:toggle=toggle data-testid="ledger">
            <summary>"Ledger"</summary>
            {move || open.get().then(|| Suspend::new(ledger_body()))}
        </details>
    }
}

/// The drawer's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn ledger_body() -> AnyView {
    view! { <LedgerBody /> }.into_any()
}

/// The ledger's lines, the latest page loaded when mounted.
#[component]
fn LedgerBody() -> impl IntoView {
    let state = use_play();
    let lines = RwSignal::new(None::<Vec<Line>>);
    let start = RwSignal::new(0_u32);
    let loading = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let load = move |before: Option<u32>| {
        loading.set(true);
        spawn_local(async move {
            match load_ledger(state.id.get_value(), before).await {
                // An earlier page joins the lines shown only if they still start where it ends.
                Ok(page) if before.is_none_or(|before| before == start.get_untracked()) => {
                    start.set(page.start);
                    let earlier = lines_of(page);
                    match before {
                        None => lines.set(Some(earlier)),
                        Some(_) => lines.update(|shown| {
                            shown.get_or_insert_default().splice(0..0, earlier);
                        }),
                    }
                    failed.set(None);
                }
                Ok(_) => {}
                Err(error) => failed.set(Some(error.to_string())),
            }
            loading.set(false);
        });
    };
    load(None);
    view! {
            {move || failed.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
            {move || match lines.get() {
                None => failed.get().is_none().then(|| view! { <p class="status">"Loading…"</p> }).into_any(),
                Some(lines) if lines.is_empty() => view! { <p class="meta">"Nothing has changed yet."</p> }.into_any(),
                Some(lines) => view! {
                    {(start.get() > 0).then(|| view! {
                        <button class="earlier" disabled=move || loading.get() on:click=move |_| load(Some(start.get_untracked()))>
                            {move || if loading.get() { "Loading earlier changes…" } else { "Earlier changes" }}
                        </button>
                    })}
                    <table class="ledger-table">
                        <thead><tr><th>"Turn"</th><th>"What"</th><th>"Cause"</th></tr></thead>
                        <tbody>{lines.into_iter().map(line_view).collect_view()}</tbody>
                    </table>
                }
                .into_any(),
            }}
    }
}

/// A page's rows as lines, each change with its cause.
fn lines_of(page: LedgerPage) -> Vec<Line> {
    page.rows
        .into_iter()
        .map(|row| line(row, &page.causes))
        .collect()
}

fn line(row: LedgerRow, causes: &[String]) -> Line {
    match row {
        LedgerRow::Change {
            turn,
            what,
            before,
            after,
            cause,
        } => Line {
            turn,
            what: format!("{what}: {before} → {after}"),
            cause: causes.get(cause as usize).cloned().unwrap_or_default(),
        },
        LedgerRow::Roll {
            turn,
            reason,
            notation,
            dice,
            modifier,
            total,
            dc,
            verdict,
        } => {
            let against = dc.map(|dc| format!(" vs {dc}")).unwrap_or_default();
            let verdict = verdict.map(|v| format!(": {v}")).unwrap_or_default();
            Line {
                turn,
                what: format!("{notation} [{dice}] {modifier:+} = {total}{against}{verdict}"),
                cause: reason,
            }
        }
    }
}

fn line_view(line: Line) -> impl IntoView {
    view! { <tr><td>{line.turn}</td><td>{line.what}</td><td class="cause">{line.cause}</td></tr> }
}
