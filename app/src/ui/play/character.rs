//! The character panel: name, level and experience, HP bar and how the character is doing,
//! armour class, attributes, proficiencies and an ability score improvement to spend, abilities,
//! conditions, inventory (use, equip or drop an item), place, time and stakes. Spells, class
//! features and rests are a panel of their own (`powers`).

use leptos::prelude::*;

use super::improvement::ImprovementChoice;
use super::state::use_play;
use crate::api::{drop_item, equip_item, use_item};
use crate::game::Vitality;
use crate::wire::view::{Handling, ItemView, SheetView};

/// The character panel; updates the moment a tool changes the sheet.
#[component]
pub fn CharacterPanel() -> impl IntoView {
    let state = use_play();
    view! {
        <section class="character panel" data-testid="character">
            {move || {
                let sheet = state.sheet.get();
                view! {
                    <h2>{sheet.name.clone()}</h2>
                    <p class="meta">{format!("Level {} {} (hit die {})", sheet.level, sheet.class, sheet.hit_die)}</p>
                    <p class="meta" data-testid="xp">{experience(&sheet)}</p>
                    <div class="hp" aria-label="Hit points">
                        <progress class="hp-bar" max=sheet.max_hp value=sheet.hp></progress>
                        <span class="hp-text" data-testid="hp">{format!("HP {}/{}", sheet.hp, sheet.max_hp)}</span>
                        <span class="ac-text" data-testid="ac">{format!("AC {}", sheet.armor_class)}</span>
                    </div>
                    <p class=if sheet.vitality == Vitality::Up { "vitality" } else { "vitality danger" }
                        data-testid="vitality">{sheet.vitality.label()}</p>
                    {sheet.sanity.map(|sanity| view! { <p class="meta">{format!("Sanity {sanity}/100")}</p> })}
                    <ul class="attributes">
                        {sheet.attributes.iter().map(|attribute| view! {
                            <li>
                                <span class="attr-name">{attribute.name.clone()}</span>
                                <span class="attr-score">{attribute.score}</span>
                                <span class="attr-mod">{format!("{:+}", attribute.modifier)}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                    {proficiency(&sheet).map(|text| view! { <p class="meta proficiency" data-testid="proficiency">{text}</p> })}
                    {(sheet.improvements_due > 0).then(|| view! { <ImprovementChoice due=sheet.improvements_due /> })}
                    <Listed title="Abilities" empty="None"
                        items=sheet.abilities.iter().map(|(name, text)| match text {
                            Some(text) => format!("{name}: {text}"),
                            None => name.clone(),
                        }).collect() />
                    <Listed title="Conditions" empty="None" items=sheet.conditions.clone() />
                    <h3>"Inventory"</h3>
                    <Inventory items=sheet.inventory.clone() fallen=sheet.vitality.is_dead() />
                    <p class="where">{sheet.location.clone()}</p>
                    <p class="meta">{sheet.time.clone()}</p>
                    <p class="meta stakes">{format!("{}: {}", sheet.stakes.name(), sheet.stakes.explain())}</p>
                }
            }}
        </section>
    }
}

/// `Proficiency +2: Perception +3, Stealth +5; saves DEX +5, INT +3`, or nothing for a
/// character made before proficiencies counted.
fn proficiency(sheet: &SheetView) -> Option<String> {
    if sheet.skills.is_empty() && sheet.saves.is_empty() {
        return None;
    }
    Some(format!(
        "Proficiency {:+}: {}; saves {}",
        sheet.proficiency_bonus,
        sheet.skills.join(", "),
        sheet.saves.join(", ")
    ))
}

fn experience(sheet: &SheetView) -> String {
    match sheet.experience {
        (xp, Some(next)) => format!("XP {xp} / {next} for level {}", sheet.level + 1),
        (xp, None) => format!("XP {xp} (the highest level)"),
    }
}

/// A titled list, or a word when it is empty.
#[component]
fn Listed(title: &'static str, empty: &'static str, items: Vec<String>) -> impl IntoView {
    view! {
        <h3>{title}</h3>
        {if items.is_empty() {
            view! { <p class="meta">{empty}</p> }.into_any()
        } else {
            view! { <ul class="conditions">{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul> }
                .into_any()
        }}
    }
}

/// What the character carries. "Use" on a consumable asks the rules to use one (its dice
/// rolled by the server); on gear it puts the move in the text box for the player to send.
/// "Equip"/"Unequip" on a weapon, armour or shield and "Drop" ask the rules too.
#[component]
fn Inventory(items: Vec<ItemView>, fallen: bool) -> impl IntoView {
    if items.is_empty() {
        return view! { <p class="meta">"Empty-handed"</p> }.into_any();
    }
    let state = use_play();
    let disabled = move || fallen || state.busy.get();
    view! {
        <ul class="inventory" data-testid="inventory">
            {items.into_iter().map(|item| {
                let (use_slug, equip_slug, drop_slug) = (item.slug.clone(), item.slug.clone(), item.slug.clone());
                let use_text = format!("I use the {}.", item.name.to_lowercase());
                let handling = item.handling;
                let equipped = handling == Handling::Equipped;
                let use_it = move |_| {
                    if handling == Handling::Consumable {
                        let (id, turn, slug) = (state.id.get_value(), state.turn.get_untracked(), use_slug.clone());
                        state.ask_rules(async move { use_item(id, turn, slug).await });
                    } else {
                        state.text.set(use_text.clone());
                    }
                };
                let equip = move |_| {
                    let (id, slug) = (state.id.get_value(), equip_slug.clone());
                    state.ask_rules(async move { equip_item(id, slug, !equipped).await });
                };
                let drop = move |_| {
                    let (id, slug) = (state.id.get_value(), drop_slug.clone());
                    state.ask_rules(async move { drop_item(id, slug).await });
                };
                let title = match (&item.description, item.kind.is_empty()) {
                    (Some(description), false) => format!("{description} ({})", item.kind),
                    (Some(description), true) => description.clone(),
                    (None, _) => item.kind.clone(),
                };
                view! {
                    <li title=title class:equipped=equipped>
                        {item.name.clone()} <span class="qty">{format!("×{}", item.quantity)}</span>
                        {(!item.kind.is_empty()).then(|| view! { <span class="kind">{item.kind.clone()}</span> })}
                        {equipped.then(|| view! { <span class="equipped-mark" data-testid=format!("equipped-{}", item.slug)>"equipped"</span> })}
                        <span class="item-actions">
                            <button class="link" data-testid=format!("use-{}", item.slug)
                                disabled=disabled on:click=use_it>"Use"</button>
                            {matches!(handling, Handling::Equippable | Handling::Equipped).then(|| view! {
                                <button class="link" data-testid=format!("equip-{}", item.slug)
                                    disabled=disabled on:click=equip>
                                    {if equipped { "Unequip" } else { "Equip" }}
                                </button>
                            })}
                            <button class="link" data-testid=format!("drop-{}", item.slug)
                                disabled=disabled on:click=drop>"Drop"</button>
                        </span>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}
