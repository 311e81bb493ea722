//! Where you are: the places the game master recorded, the character's own place marked, each
//! with where it leads.

use leptos::prelude::*;

use super::state::use_play;

/// The map as a short list.
#[component]
pub fn MapPanel() -> impl IntoView {
    let state = use_play();
    view! {
        <section class="map panel" data-testid="map">
            <h2>"Where you are"</h2>
            {move || {
                let places = state.map.get();
                let here = state.sheet.with(|sheet| sheet.location.to_lowercase());
                if places.is_empty() {
                    return view! { <p class="meta">"No places recorded yet."</p> }.into_any();
                }
                view! {
                    <ul class="places">
                        {places.into_iter().map(|place| {
                            let is_here = place.name.as_str().to_lowercase() == here;
                            let exits: Vec<&str> = place.exits.iter().map(|e| e.as_str()).collect();
                            let class = match (is_here, place.visited) {
                                (true, _) => "place here",
                                (false, true) => "place",
                                (false, false) => "place unvisited",
                            };
                            view! {
                                <li class=class>
                                    <strong>{place.name.as_str().to_owned()}</strong>
                                    {is_here.then(|| view! { <span class="you">" (you are here)"</span> })}
                                    {(!exits.is_empty()).then(|| view! {
                                        <span class="exits">{format!(" → {}", exits.join(", "))}</span>
                                    })}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }
                .into_any()
            }}
        </section>
    }
}
