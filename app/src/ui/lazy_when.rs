//! A part of a page that only some visits need (the changes waiting in approval mode, the
//! encounter tracker during a fight, the read-aloud speaker once its switch is on): the browser fetches its code the first time it is needed,
//! and renders it from then on (the release build splits the wasm: `cargo leptos build
//! --split`).
//!
//! The server does not render it: hydration cannot wait for a chunk (`lazy_page.rs`), so a part
//! needed on arrival appears a moment after the page has hydrated.

use std::future::Future;

use leptos::prelude::*;

/// The part `body` (a `#[lazy]` function's view), rendered in the browser once `when` has held;
/// it stays mounted after, and shows or hides its own content.
#[component]
pub fn LazyWhen<F, Fut>(
    /// Whether the part is needed now.
    when: Signal<bool>,
    /// The part: code fetched on the first call.
    body: F,
) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = AnyView> + Send + 'static,
{
    let needed = RwSignal::new(false);
    // Effects run only in the browser, after hydration. Set once: setting it again would render
    // the part anew and lose what it holds.
    Effect::new(move |_| {
        if when.get() && !needed.get_untracked() {
            needed.set(true);
        }
    });
    move || needed.get().then(|| Suspend::new(body()))
}
