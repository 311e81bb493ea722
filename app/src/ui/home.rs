//! The home page: the title and the "New adventure" button.

use leptos::prelude::*;

use crate::api::NewAdventure;

/// The home page. "New adventure" asks the server for a premise and shows it.
#[component]
pub fn HomePage() -> impl IntoView {
    let start = ServerAction::<NewAdventure>::new();
    let pending = start.pending();

    view! {
        <section class="home">
            <h1 class="title">"Dicebound"</h1>
            <p class="tagline">"A solo tabletop adventure. The story is told by an AI; the dice are real."</p>
            <button
                class="primary"
                on:click=move |_| {
                    start.dispatch(NewAdventure {});
                }
                disabled=pending
            >
                "New adventure"
            </button>
            <div class="answer" aria-live="polite">
                {move || match start.value().get() {
                    None if pending.get() => view! { <p class="status">"Rolling the dice…"</p> }.into_any(),
                    None => ().into_any(),
                    Some(Ok(hook)) => {
                        view! { <p class="premise" data-testid="premise">{hook.premise}</p> }.into_any()
                    }
                    Some(Err(error)) => {
                        view! {
                            <p class="error" role="alert">
                                "The server could not start an adventure: " {error.to_string()}
                            </p>
                        }
                            .into_any()
                    }
                }}
            </div>
        </section>
    }
}
