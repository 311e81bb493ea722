//! The encounter tracker, shown only while a fight is under way: the round, then everyone in
//! initiative order — whose turn it is, armour class, hit points as a bar and as numbers, and
//! conditions (a foe at 0 HP is `down`, one that ran `fled`). Its code is fetched when the
//! first fight starts.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::state::use_play;
use crate::ui::lazy_when::LazyWhen;
use crate::wire::view::{EncounterView, FighterView};

/// The tracker; it appears when a fight starts and goes when it ends.
#[component]
pub fn EncounterTracker() -> impl IntoView {
    let state = use_play();
    let fighting = Signal::derive(move || state.encounter.with(Option::is_some));
    view! { <LazyWhen when=fighting body=tracker_body /> }
}

/// The tracker's code: a chunk of its own in the split build (`lazy_chunks`, app/build.rs;
/// loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn tracker_body() -> AnyView {
    view! { <CurrentFight /> }.into_any()
}

/// The tracker of the fight under way, if one is.
#[component]
fn CurrentFight() -> impl IntoView {
    let state = use_play();
    move || {
        state
            .encounter
            .get()
            .map(|encounter| view! { <Tracker encounter /> })
    }
}

/// The round and the initiative order of `encounter`.
#[component]
fn Tracker(encounter: EncounterView) -> impl IntoView {
    let turn = encounter.turn;
    view! {
        <section class="encounter panel" data-testid="encounter" aria-labelledby="encounter-title">
            <div class="encounter-head">
                <h2 id="encounter-title">
                    "Fight " <span class="round" data-testid="round">{format!("Round {}", encounter.round)}</span>
                </h2>
                <span class="order-note">"in initiative order"</span>
            </div>
            <ol class="fighters" aria-label="Initiative order">
                {encounter
                    .order
                    .into_iter()
                    .enumerate()
                    .map(|(index, fighter)| view! { <Fighter fighter acting=index == turn /> })
                    .collect_view()}
            </ol>
        </section>
    }
}

/// One fighter's row: initiative, name (and whose turn it is), conditions, armour class and
/// hit points.
#[component]
fn Fighter(fighter: FighterView, acting: bool) -> impl IntoView {
    let out = fighter
        .conditions
        .iter()
        .any(|condition| condition == "down" || condition == "fled");
    let whose = if fighter.hero { "your turn" } else { "acting" };
    view! {
        <li class="fighter" class:hero=fighter.hero class:acting=acting class:out=out
            data-testid="fighter" aria-current=acting.then_some("true")>
            <span class="initiative" title="Initiative" data-testid="initiative">{fighter.initiative}</span>
            <span class="fighter-who">
                <span class="fighter-name" data-testid="fighter-name">{fighter.name.clone()}</span>
                {acting.then(|| view! { <span class="turn-mark" data-testid="turn-mark">{whose}</span> })}
                {fighter.conditions.into_iter().map(|condition| {
                    view! { <span class="tag" data-testid="tag">{condition}</span> }
                }).collect_view()}
            </span>
            <span class="fighter-ac" data-testid="fighter-ac">{format!("AC {}", fighter.armor_class)}</span>
            <HitPoints name=fighter.name hp=fighter.hp />
        </li>
    }
}

/// Half of `top`, as the meter's `low` attribute writes it (`3.5`, `4`), without formatting a
/// float in the browser.
fn half(top: u16) -> String {
    if top.is_multiple_of(2) {
        (top / 2).to_string()
    } else {
        format!("{}.5", top / 2)
    }
}

/// A fighter's hit points: a meter (no inline style, which the page's content security policy
/// forbids; under half is its low part, shown red) and "cur/max HP".
#[component]
fn HitPoints(name: String, hp: (u16, u16)) -> impl IntoView {
    let (current, max) = hp;
    let top = max.max(1);
    view! {
        <span class="fighter-hp">
            <meter class="fighter-hp-bar" min="0" max=top value=current low=half(top)
                high=top optimum=top aria-label=format!("{name}: hit points")
                aria-valuetext=format!("{current} of {max}") data-testid="fighter-hp-bar"></meter>
            <span class="fighter-hp-text" data-testid="fighter-hp">{format!("{current}/{max} HP")}</span>
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::half;

    #[test]
    fn the_meters_low_part_is_half_its_top() {
        assert_eq!(half(9), "4.5");
        assert_eq!(half(8), "4");
        assert_eq!(half(1), "0.5");
    }
}
