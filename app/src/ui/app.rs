//! The HTML shell rendered by the server and the root component with its routes.

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    ParamSegment, StaticSegment,
};

use super::home::HomePage;
use super::join::JoinRoute;
use super::play::PlayPage;
use super::settings::SettingsRoute;

/// Registers `public/sw.js` once the page has loaded, where the browser has service workers (a
/// refusal, such as a browser that blocks them, changes nothing).
const REGISTER_SERVICE_WORKER: &str = "if(\"serviceWorker\"in navigator)addEventListener(\"load\",function(){navigator.serviceWorker.register(\"/sw.js\").catch(function(){})})";

/// The whole HTML document the server renders around [`App`].
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="dark" />
                <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
                // Installable: the web app manifest, and the service worker that keeps the hashed
                // assets (public/sw.js), registered once the page has loaded.
                <link rel="manifest" href="/manifest.webmanifest" />
                <meta name="theme-color" content="#15110d" />
                <script nonce=leptos::nonce::use_nonce() inner_html=REGISTER_SERVICE_WORKER></script>
                <AutoReload options=options.clone() />
                // The built file names carry their content's hash in a release build.
                <HashedStylesheet options=options.clone() id="leptos" />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// Whether the page's route is hydrated: `<main data-hydrated="true">` once it is (end-to-end
/// tests wait for it before they click).
#[derive(Clone, Copy)]
struct Hydrated(RwSignal<bool>);

/// Marks the page hydrated once the calling page's view is. Each page calls it, since a page
/// whose code is fetched on first use renders after the shell (effects run only in the browser, after the
/// hydration of the view that made them).
pub fn mark_hydrated() {
    if let Some(Hydrated(hydrated)) = use_context() {
        Effect::new(move |_| hydrated.set(true));
    }
}

/// The root component: metadata and routes.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let hydrated = RwSignal::new(false);
    provide_context(Hydrated(hydrated));

    view! {
        <Title text="Dicebound" />
        <Router>
            <main data-hydrated=move || hydrated.get().then_some("true")>
                <Routes fallback=|| {
                    mark_hydrated();
                    view! { <p class="not-found">"Page not found."</p> }
                }>
                    <Route path=StaticSegment("") view=HomePage />
                    <Route path=(StaticSegment("play"), ParamSegment("id")) view=PlayPage />
                    <Route path=StaticSegment("settings") view=SettingsRoute />
                    <Route path=(StaticSegment("join"), ParamSegment("code")) view=JoinRoute />
                </Routes>
            </main>
        </Router>
    }
}

/// Sends a Content-Security-Policy with the page: scripts only from this site or carrying this
/// response's nonce (the hydration script), wasm allowed to compile, nothing from elsewhere.
#[cfg(feature = "ssr")]
fn set_content_security_policy() {
    use axum::http::{header::CONTENT_SECURITY_POLICY, HeaderValue};

    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    let nonce = leptos::nonce::use_nonce()
        .map(|nonce| format!(" 'nonce-{nonce}'"))
        .unwrap_or_default();
    // `cargo leptos watch` reloads the page over a websocket.
    let reload = if std::env::var_os("LEPTOS_WATCH").is_some() {
        " ws:"
    } else {
        ""
    };
    let policy = format!(
        "default-src 'self'; script-src 'self'{nonce} 'wasm-unsafe-eval'; style-src 'self'; \
         img-src 'self' data:; connect-src 'self'{reload}; object-src 'none'; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'self'"
    );
    if let Ok(value) = HeaderValue::from_str(&policy) {
        response.insert_header(CONTENT_SECURITY_POLICY, value);
    }
}
