//! An ability score improvement waiting in the character panel: +2 to one score, or +1 to two,
//! chosen by the player and applied by the rules (which refuse a score past 20).

use leptos::prelude::*;

use super::state::use_play;
use crate::api::improve_abilities;
use crate::game::Attribute;

/// The choice of an improvement the level has earned (`due` of them are waiting).
#[component]
pub fn ImprovementChoice(
    /// How many improvements are waiting.
    due: u8,
) -> impl IntoView {
    let state = use_play();
    let first = RwSignal::new(Attribute::Strength.abbreviation().to_owned());
    // Blank: +2 to the first score.
    let second = RwSignal::new(String::new());
    let improve = move |_| {
        let (id, first, second) = (state.id.get_value(), first.get(), second.get());
        state.ask_rules(async move { improve_abilities(id, first, second).await });
    };
    let options = move || {
        Attribute::ALL.map(|a| view! { <option value=a.abbreviation()>{a.name()}</option> })
    };
    view! {
        <div class="improvement" data-testid="improvement">
            <h3>{if due > 1 { format!("{due} ability score improvements") } else { "Ability score improvement".to_owned() }}</h3>
            <p class="meta">"Raise one score by 2, or two scores by 1 each (no score past 20)."</p>
            <label>
                "Raise "
                <select data-testid="improve-first"
                    on:change=move |event| first.set(event_target_value(&event))>
                    {options()}
                </select>
            </label>
            <label>
                " and "
                <select data-testid="improve-second"
                    on:change=move |event| second.set(event_target_value(&event))>
                    <option value="" selected>"nothing else (+2)"</option>
                    {options()}
                </select>
            </label>
            <button data-testid="improve" disabled=move || state.busy.get() on:click=improve>"Improve"</button>
        </div>
    }
}
