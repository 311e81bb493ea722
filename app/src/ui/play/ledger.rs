//! The ledger drawer: every change to the character with its cause, and every roll with its
//! dice, loaded each time it is opened.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::load_ledger;
use crate::campaign::view::LedgerRow;

/// The ledger, loaded when opened.
#[component]
pub fn LedgerDrawer() -> impl IntoView {
    let state = use_play();
    let rows = RwSignal::new(None::<Result<Vec<LedgerRow>, String>>);
    let toggle = move |event: leptos::ev::Event| {
        if !event_target::<leptos::web_sys::Element>(&event).has_attribute("open") {
            return;
        }
        spawn_local(async move {
            let loaded = load_ledger(state.id.get_value()).await;
            rows.set(Some(loaded.map_err(|error| error.to_string())));
        });
    };
    view! {
        <details class="ledger panel" on:toggle=toggle data-testid="ledger">
            <summary>"Ledger"</summary>
            {move || match rows.get() {
                None => view! { <p class="status">"Loading…"</p> }.into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
                Some(Ok(rows)) if rows.is_empty() => view! { <p class="meta">"Nothing has changed yet."</p> }.into_any(),
                Some(Ok(rows)) => view! {
                    <table class="ledger-table">
                        <thead><tr><th>"Turn"</th><th>"What"</th><th>"Cause"</th></tr></thead>
                        <tbody>{rows.into_iter().map(row).collect_view()}</tbody>
                    </table>
                }
                .into_any(),
            }}
        </details>
    }
}

fn row(row: LedgerRow) -> impl IntoView {
    let (turn, what, cause) = match row {
        LedgerRow::Change {
            turn,
            what,
            before,
            after,
            cause,
        } => (turn, format!("{what}: {before} → {after}"), cause),
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
            (
                turn,
                format!("{notation} [{dice}] {modifier:+} = {total}{against}{verdict}"),
                reason,
            )
        }
    };
    view! { <tr><td>{turn}</td><td>{what}</td><td class="cause">{cause}</td></tr> }
}
