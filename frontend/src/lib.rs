//! The browser entry point: hydrates the page the server rendered (`hydrate`, built by
//! cargo-leptos), or renders the whole app in an empty page (`csr`, built by Trunk).
#![recursion_limit = "512"]

/// Called by the generated JS glue once the wasm has loaded.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Lazy routes (the settings page) hydrate once their code has arrived.
    leptos::mount::hydrate_lazy(app::App);
}

/// Runs as soon as the wasm has loaded, in the client-side-rendered build.
#[cfg(feature = "csr")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
