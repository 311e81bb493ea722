//! Which model is the game master, and advice about it (the bundled model is very small).

use leptos::prelude::*;

use super::resource::WireJson;
use crate::api::game_master;
use crate::wire::errors::AppError;
use crate::wire::view::GameMasterView;

/// The server's answer to which model is the game master, loaded once.
pub type GameMasterResource = OnceResource<Result<GameMasterView, AppError>, WireJson>;

/// Starts loading which model is the game master.
pub fn load_game_master() -> GameMasterResource {
    OnceResource::new_with_options(game_master(), false)
}

/// The game master's model. `compact` shows only the advice, folded, for the play screen.
#[component]
pub fn GameMasterNote(
    /// Only the advice, folded (the play screen).
    #[prop(optional)]
    compact: bool,
    /// The answer, when a page loads it outside a part that may be rendered again (a note
    /// made inside one would read its own answer after it was thrown away).
    #[prop(optional)]
    master: Option<GameMasterResource>,
) -> impl IntoView {
    let master = master.unwrap_or_else(load_game_master);
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
                                    <p><a href="/settings">"Change the game master's model"</a></p>
                                </aside>
                            }
                                .into_any()
                        }
                    })
            }}
        </Suspense>
    }
}
