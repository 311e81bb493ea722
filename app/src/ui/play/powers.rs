//! The hero's powers in the character panel: the casting figures, slot pips by level, the
//! spells known with a cast button each (greyed, with the rules' reason, when it cannot be
//! cast), the spell held, class features with their use pips, and the rest buttons (a short
//! rest, then a hit die at a time; a long rest). Every button asks the rules; nothing is decided
//! here. A side panel of its own, whose code is fetched the first time it opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::state::use_play;
use crate::api::{cast_spell, rest_hero, spend_hit_die, use_feature};
use crate::ui::lazy_panel::LazyPanel;
use crate::wire::view::{FeatureView, PowersView, SpellView};

/// `●●○`: `left` filled pips of `total`.
fn pips(left: u8, total: u8) -> String {
    (0..total)
        .map(|i| if i < left { '●' } else { '○' })
        .collect()
}

/// `1st`, `2nd`, `3rd`, `4th`…
fn ordinal(level: u8) -> String {
    match level {
        1 => "1st".to_owned(),
        2 => "2nd".to_owned(),
        3 => "3rd".to_owned(),
        n => format!("{n}th"),
    }
}

/// The powers' panel, for a sheet whose powers count.
#[component]
pub fn PowersPanel() -> impl IntoView {
    let state = use_play();
    view! {
        <Show when=move || state.sheet.with(|sheet| sheet.powers.is_some())>
            <LazyPanel class="powers-panel panel" testid="powers-panel" summary="Spells, features and rests" body=powers_body />
        </Show>
    }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn powers_body() -> AnyView {
    view! { <PowersNow /> }.into_any()
}

/// The powers as the sheet has them now; updates the moment a tool changes the sheet.
#[component]
fn PowersNow() -> impl IntoView {
    let state = use_play();
    move || {
        state.sheet.with(|sheet| {
            let fallen = sheet.vitality.is_dead();
            sheet
                .powers
                .clone()
                .map(|powers| view! { <Powers powers fallen /> })
        })
    }
}

/// The powers section.
#[component]
fn Powers(powers: PowersView, fallen: bool) -> impl IntoView {
    let state = use_play();
    let in_fight = move || state.encounter.get().is_some();
    let disabled = move || fallen || state.busy.get();
    let short = move |_| {
        let id = state.id.get_value();
        state.ask_rules(async move { rest_hero(id, false).await });
    };
    let long = move |_| {
        let id = state.id.get_value();
        state.ask_rules(async move { rest_hero(id, true).await });
    };
    let hit_die = move |_| {
        let (id, turn) = (state.id.get_value(), state.turn.get_untracked());
        state.ask_rules(async move { spend_hit_die(id, turn).await });
    };
    let resting = powers.resting && powers.hit_dice_left > 0;
    view! {
        <div class="powers" data-testid="powers">
            {powers.casting.clone().map(|casting| view! {
                <h3>"Spells"</h3>
                <p class="meta" data-testid="casting">{casting}</p>
                <ul class="slots" data-testid="slots">
                    {powers.slots.iter().map(|&(level, total, left)| view! {
                        <li data-testid=format!("slots-{level}") title=format!("{left} of {total} left")>
                            {format!("{} ", ordinal(level))}<span class="pips">{pips(left, total)}</span>
                        </li>
                    }).collect_view()}
                </ul>
            })}
            {powers.concentration.clone().map(|spell| view! {
                <p class="tag concentration" data-testid="concentration">{format!("Concentrating: {spell}")}</p>
            })}
            <ul class="spells" data-testid="spells">
                {powers.spells.into_iter().map(|spell| view! { <SpellLine spell disabled=Signal::derive(disabled) /> }).collect_view()}
            </ul>
            <h3>"Class features"</h3>
            <ul class="features" data-testid="features">
                {powers.features.into_iter().map(|feature| view! { <FeatureLine feature disabled=Signal::derive(disabled) /> }).collect_view()}
            </ul>
            <h3>"Rest"</h3>
            <p class="rest-buttons">
                <button class="link" data-testid="short-rest" disabled=move || disabled() || in_fight() on:click=short>"Short rest"</button>
                <button class="link" data-testid="long-rest" disabled=move || disabled() || in_fight() on:click=long>"Long rest"</button>
                {resting.then(|| view! {
                    <button class="link" data-testid="spend-hit-die" disabled=disabled on:click=hit_die>
                        {format!("Spend a hit die ({} left)", powers.hit_dice_left)}
                    </button>
                })}
            </p>
        </div>
    }
}

/// A known spell and its cast button.
#[component]
fn SpellLine(spell: SpellView, disabled: Signal<bool>) -> impl IntoView {
    let state = use_play();
    let slug = spell.slug.clone();
    let cast = move |_| {
        let (id, turn, slug) = (
            state.id.get_value(),
            state.turn.get_untracked(),
            slug.clone(),
        );
        state.ask_rules(async move { cast_spell(id, turn, slug, None).await });
    };
    let refused = spell.refused.is_some();
    let level = if spell.level == 0 {
        "cantrip".to_owned()
    } else {
        ordinal(spell.level)
    };
    let title = spell
        .refused
        .clone()
        .unwrap_or_else(|| spell.summary.clone());
    view! {
        <li title=spell.summary.clone()>
            {spell.name.clone()} <span class="kind">{level}</span>
            {spell.concentration.then(|| view! { <span class="kind">"concentration"</span> })}
            <button class="link" data-testid=format!("cast-{}", spell.slug) title=title
                disabled=move || disabled.get() || refused on:click=cast>"Cast"</button>
        </li>
    }
}

/// A class feature, its use pips, and a button when the panel can use it.
#[component]
fn FeatureLine(feature: FeatureView, disabled: Signal<bool>) -> impl IntoView {
    let state = use_play();
    let key = feature.key.clone();
    let use_it = move |_| {
        let (id, turn, key) = (
            state.id.get_value(),
            state.turn.get_untracked(),
            key.clone(),
        );
        state.ask_rules(async move { use_feature(id, turn, key).await });
    };
    view! {
        <li title=feature.summary.clone() data-testid=format!("feature-{}", feature.key)>
            {feature.name.clone()}
            {feature.uses.map(|(left, total)| view! { <span class="pips">{format!(" {}", pips(left, total))}</span> })}
            {feature.usable.then(|| view! {
                <button class="link" data-testid=format!("use-{}", feature.key)
                    disabled=disabled on:click=use_it>"Use"</button>
            })}
        </li>
    }
}
