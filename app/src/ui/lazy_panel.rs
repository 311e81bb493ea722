//! A side panel whose body is code the browser fetches the first time the player opens it (the
//! release build splits the wasm: `cargo leptos build --split`). The body stays mounted once
//! opened, so nothing typed in it is lost when the panel is closed.

use std::future::Future;

use leptos::prelude::*;

/// A `<details>` panel: its summary at once, its body (a `#[lazy]` function's view) from the
/// first opening on.
#[component]
pub fn LazyPanel<F, Fut>(
    /// The panel's classes.
    class: &'static str,
    /// Its `data-testid`.
    testid: &'static str,
    /// What its summary says.
    summary: &'static str,
    /// The body: code fetched on the first call.
    body: F,
) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = AnyView> + Send + 'static,
{
    let opened = RwSignal::new(false);
    let toggle = move |event: leptos::ev::Event| {
        if event_target::<leptos::web_sys::Element>(&event).has_attribute("open") {
            opened.set(true);
        }
    };
    view! {
        <details class=class data-testid=testid on:toggle=toggle>
            <summary>{summary}</summary>
            {move || opened.get().then(|| Suspend::new(body()))}
        </details>
    }
}
