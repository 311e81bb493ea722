//! The HTML shell rendered by the server and the root component with its routes.

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    ParamSegment, StaticSegment,
};

use super::home::HomePage;
use super::play::PlayPage;

/// The whole HTML document the server renders around [`App`].
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="dark" />
                <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
                <AutoReload options=options.clone() />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The root component: metadata, stylesheet and routes.
///
/// Once the browser has hydrated the page, `<main>` carries `data-hydrated="true"`
/// (end-to-end tests wait for it before they click).
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let hydrated = RwSignal::new(false);
    // Effects run only in the browser, after hydration.
    Effect::new(move |_| hydrated.set(true));

    view! {
        <Stylesheet id="leptos" href="/pkg/dicebound.css" />
        <Title text="Dicebound" />
        <Router>
            <main data-hydrated=move || hydrated.get().then_some("true")>
                <Routes fallback=|| view! { <p class="not-found">"Page not found."</p> }>
                    <Route path=StaticSegment("") view=HomePage />
                    <Route path=(StaticSegment("play"), ParamSegment("id")) view=PlayPage />
                </Routes>
            </main>
        </Router>
    }
}
