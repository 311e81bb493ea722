//! The spells and class features a fight offers as moves, the rules' own like its attacks: each
//! says what it spends and the chance it lands (`Cast Fire Bolt at Goblin 1 (cantrip; 60% to
//! hit)`, `Cast Sleep on Goblin 1 and Goblin 2 (1st-level slot, 1 left)`), and only what the hero
//! can use now is offered.

use crate::game::combat::{is_undead, Encounter, Foe};
use crate::game::dice::{Chance, DiceExpr, DifficultyClass};
use crate::game::features::Feature;
use crate::game::fight::FightMove;
use crate::game::spells::{CastingTime, Delivery, Spell, SpellEffect, SpellLevel};
use crate::game::CharacterSheet;

/// The most spells a fight offers at once (the rest from the character panel).
const SPELL_CHOICES: usize = 2;

/// The spells the hero can cast now that do something in a fight, as moves: the first known with
/// a slot left (the lowest slot), then the first cantrip; healing only when hurt.
pub fn spell_moves(sheet: &CharacterSheet, encounter: &Encounter) -> Vec<(String, FightMove)> {
    let hurt = sheet.hit_points().current() < sheet.hit_points().max();
    let spells: Vec<(&'static Spell, SpellLevel)> = sheet
        .known_spells()
        .into_iter()
        .filter(|spell| match spell.effect {
            SpellEffect::Utility | SpellEffect::ArmorBonus { .. } => false,
            SpellEffect::Healing { .. } => hurt,
            _ => !matches!(spell.casting_time, CastingTime::Minutes(_)),
        })
        .filter_map(|spell| sheet.castable(&spell.name, None).ok())
        .collect();
    // The first spell with a slot, then the first cantrip: the big gun and the one always at hand.
    let (cantrips, leveled): (Vec<_>, Vec<_>) = spells
        .into_iter()
        .partition(|(spell, _)| spell.level.is_cantrip());
    let (mut leveled, mut cantrips) = (leveled.into_iter(), cantrips.into_iter());
    let chosen = leveled.next().into_iter().chain(cantrips.next());
    chosen
        .chain(leveled)
        .chain(cantrips)
        .take(SPELL_CHOICES)
        .map(|(spell, slot)| {
            let targets = targets_of(spell, encounter);
            let text = cast_text(sheet, spell, slot, &targets);
            let targets = targets.iter().map(|foe| foe.label().to_string()).collect();
            (
                text,
                FightMove::Cast {
                    spell: spell.slug(),
                    targets,
                    slot: None,
                },
            )
        })
        .collect()
}

/// The foes a spell would reach: the first standing, as many as it reaches (none for a spell
/// on the caster).
fn targets_of<'e>(spell: &Spell, encounter: &'e Encounter) -> Vec<&'e Foe> {
    match spell.effect {
        SpellEffect::Healing { .. } | SpellEffect::ArmorBonus { .. } | SpellEffect::Utility => {
            Vec::new()
        }
        SpellEffect::Rider { .. } if spell.targets > 1 => Vec::new(),
        _ => encounter
            .standing()
            .take(usize::from(spell.targets.max(1)))
            .collect(),
    }
}

/// `Cast Magic Missile at Goblin 1 (1st-level slot, 2 left; sure to hit)`.
fn cast_text(sheet: &CharacterSheet, spell: &Spell, slot: SpellLevel, targets: &[&Foe]) -> String {
    let names: Vec<&str> = targets.iter().map(|foe| foe.label().as_str()).collect();
    let aim = match names.as_slice() {
        [] => String::new(),
        [one] => format!(" at {one}"),
        [rest @ .., last] => format!(" at {} and {last}", rest.join(", ")),
    };
    let spent = if slot.is_cantrip() {
        "cantrip".to_owned()
    } else {
        let left = sheet.spell_slots()[usize::from(slot.value()) - 1].1;
        format!("{} slot, {left} left", slot.ordinal())
    };
    let odds = odds(sheet, spell, targets.first().copied());
    let then = if spell.casting_time == CastingTime::BonusAction {
        ", then strike"
    } else {
        ""
    };
    format!("Cast {}{aim}{then} ({spent}{odds})", spell.name)
}

/// `; 60% to hit`, `; Goblin 1 fails its save on 45%`, `; sure to land`, or nothing.
fn odds(sheet: &CharacterSheet, spell: &Spell, foe: Option<&Foe>) -> String {
    let Some(foe) = foe else {
        return String::new();
    };
    match spell.delivery {
        Delivery::Attack => {
            let chance = Chance::to_hit(
                foe.edge_against_it(),
                i32::from(sheet.spell_attack_bonus().unwrap_or(0)),
                foe.creature().armor_class().value(),
            );
            format!("; {}% to hit", chance.percent())
        }
        Delivery::Save { ability, .. } => {
            let dc = i64::from(sheet.spell_save_dc().unwrap_or(8));
            let modifier = i32::from(foe.creature().abilities().get(ability));
            let saves = DifficultyClass::new(dc)
                .ok()
                .and_then(|dc| Chance::to_meet(&DiceExpr::d20(), modifier, dc))
                .map_or(0.0, Chance::probability);
            format!(
                "; {} fails its {ability} save on {}%",
                foe.label(),
                percent(1.0 - saves)
            )
        }
        Delivery::Automatic => "; sure to land".to_owned(),
    }
}

/// A probability in whole percent.
fn percent(probability: f64) -> u8 {
    (probability * 100.0).round().clamp(0.0, 100.0) as u8
}

/// The class features the hero can use now that act in a fight, as moves (at most one).
pub fn feature_moves(sheet: &CharacterSheet, encounter: &Encounter) -> Vec<(String, FightMove)> {
    let Some(foe) = encounter.standing().next() else {
        return Vec::new();
    };
    let hurt = sheet.hit_points().current() <= sheet.hit_points().max() / 2;
    let undead = encounter
        .standing()
        .any(|f| is_undead(f.creature().name().as_str()));
    let label = foe.label().to_string();
    let mut moves = Vec::new();
    for (feature, _) in sheet.features() {
        if sheet.usable(feature).is_err() {
            continue;
        }
        let text = match feature {
            Feature::SecondWind if hurt => format!("Catch your Second Wind, then strike {label}"),
            Feature::ActionSurge => format!("Action Surge: strike {label} twice"),
            Feature::CunningAction => format!(
                "Hide (Cunning Action), then strike {label} with advantage if unseen{}",
                if sneaks(sheet) { " (Sneak Attack)" } else { "" }
            ),
            Feature::ChannelDivinity if undead => "Turn Undead: the undead flee or resist".into(),
            _ => continue,
        };
        let target = (feature != Feature::ChannelDivinity).then(|| label.clone());
        moves.push((text, FightMove::Feature { feature, target }));
    }
    moves.truncate(1);
    moves
}

/// Whether the hero has Sneak Attack.
fn sneaks(sheet: &CharacterSheet) -> bool {
    sheet
        .features()
        .iter()
        .any(|(feature, _)| *feature == Feature::SneakAttack)
}
