//! Which model is the game master, and advice about it (the bundled model is very small).

use leptos::prelude::*;

use crate::api::game_master;

/// The game master's model. `compact` shows only the advice, folded, for the play screen.
#[component]
pub fn GameMasterNote(
    /// Only the advice, folded (the play screen).
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let master = OnceResource::new(game_master());
    view! {
        <Suspense fallback=|| ()>
            {move || {
                master
                    .get()
                    .and_then(Result::ok)
                    .map(|master| {
                        let advice = master.advice.clone();
                        if compact {
                            advice
                                .map(|advice| {
                                    view! {
                                        <details class="game-master compact">
                                            <summary>"About this game master's model"</summary>
                                            <p>{advice}</p>
                                        </details>
                                    }
                                        .into_any()
                                })
                                .unwrap_or_else(|| ().into_any())
                        } else {
                            view! {
                                <aside class="game-master panel">
                                    <p>
                                        "Game master: "
                                        <strong class="model-name">{master.model}</strong>
                                        " — "
                                        {master.source}
                                    </p>
                                    {advice.map(|advice| view! { <p class="advice">{advice}</p> })}
                                </aside>
                            }
                                .into_any()
                        }
                    })
            }}
        </Suspense>
    }
}
