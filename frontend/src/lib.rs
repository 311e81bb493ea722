//! The browser entry point: hydrates the page the server rendered (`hydrate`, built by
//! cargo-leptos), or renders the whole app in an empty page (`csr`, built by Trunk).
#![recursion_limit = "512"]

/// Called by the generated JS glue once the wasm has loaded.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // One synchronous hydration path: the pages fetched on first use render in the browser
    // (app/src/ui/lazy_page.rs), and the async path is left out of the build (vendor/README.md).
    leptos::mount::hydrate_body(app::App);
}

/// Runs as soon as the wasm has loaded, in the client-side-rendered build.
#[cfg(feature = "csr")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
