//! Pages whose code the browser fetches on first use (the settings page, the join page): the
//! server sends a line that says the page is loading, and the browser renders the page once its
//! chunk has arrived (the release build splits the wasm: `cargo leptos build --split`; without
//! it, `lazy_chunks` unset in app/build.rs, the code comes with the rest).
//!
//! They are not `leptos_router` lazy routes: a lazy route is hydrated by Leptos's async
//! hydration path, and the browser's build leaves that path out (`vendor/README.md`), so every
//! page hydrates with the one synchronous path.

use std::future::Future;

use leptos::either::Either;
use leptos::prelude::*;

/// A page rendered in the browser only, from `body` (a `#[lazy]` function's view) once the
/// page has hydrated.
#[component]
pub fn ClientPage<F, Fut>(
    /// The page: code fetched on the first call.
    body: F,
) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = AnyView> + Send + 'static,
{
    let mounted = RwSignal::new(false);
    // Effects run only in the browser, after hydration.
    Effect::new(move |_| mounted.set(true));
    move || {
        if mounted.get() {
            Either::Left(Suspend::new(body()))
        } else {
            Either::Right(view! { <p class="loading meta">"Loading…"</p> })
        }
    }
}
