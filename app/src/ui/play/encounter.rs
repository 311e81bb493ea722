//! The encounter tracker, shown only while a fight is under way: the round, then everyone in
//! initiative order — whose turn it is, armour class, hit points as a bar and as numbers, and
//! conditions (a foe at 0 HP is `down`, one that ran `fled`).

use leptos::prelude::*;

use super::state::use_play;
use crate::campaign::view::{EncounterView, FighterView};

/// The tracker; it appears when a fight starts and goes when it ends.
#[component]
pub fn EncounterTracker() -> impl IntoView {
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
            <h2 id="encounter-title">
                "Fight " <span class="round" data-testid="round">{format!("Round {}", encounter.round)}</span>
            </h2>
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

/// A fighter's hit points: a bar (a meter to assistive technology) and "cur/max HP".
#[component]
fn HitPoints(name: String, hp: (u16, u16)) -> impl IntoView {
    let (current, max) = hp;
    let percent = filled(current, max);
    let class = match percent {
        0 => "fighter-hp-fill empty",
        1..=50 => "fighter-hp-fill bloodied",
        _ => "fighter-hp-fill",
    };
    view! {
        <span class="fighter-hp">
            <span class="fighter-hp-bar" role="meter" aria-label=format!("{name}: hit points")
                aria-valuemin="0" aria-valuemax=max aria-valuenow=current
                aria-valuetext=format!("{current} of {max}") data-testid="fighter-hp-bar">
                <span class=class style=format!("width: {percent}%")></span>
            </span>
            <span class="fighter-hp-text" data-testid="fighter-hp">{format!("{current}/{max} HP")}</span>
        </span>
    }
}

/// How full the bar is, in whole per cent (a fighter still standing shows at least a sliver).
fn filled(current: u16, max: u16) -> u32 {
    if max == 0 || current == 0 {
        return 0;
    }
    (u32::from(current.min(max)) * 100 / u32::from(max)).max(1)
}

#[cfg(test)]
mod tests {
    use super::filled;

    #[test]
    fn the_bar_fills_by_the_share_of_hit_points_left() {
        assert_eq!(filled(9, 9), 100);
        assert_eq!(filled(4, 9), 44);
        assert_eq!(filled(0, 7), 0);
        assert_eq!(filled(1, 300), 1);
        assert_eq!(filled(12, 9), 100);
        assert_eq!(filled(0, 0), 0);
    }
}
