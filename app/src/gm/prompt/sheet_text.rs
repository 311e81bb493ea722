//! The character sheet as compact text for the model (the prompt header and `get_character_stats`).

use std::fmt::Write;

use crate::game::spells::SpellLevel;
use crate::game::{Attribute, CharacterSheet, Vitality};

/// `Proficient (+2): Perception, Stealth; saves DEX, INT` on a line of its own (nothing on a
/// sheet made before proficiencies counted).
fn proficiency_line(sheet: &CharacterSheet) -> Option<String> {
    let proficiencies = sheet.proficiencies();
    if proficiencies.is_empty() {
        return None;
    }
    let skills: Vec<String> = proficiencies
        .skills()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let saves: Vec<String> = proficiencies
        .saves()
        .iter()
        .map(|a| a.to_string())
        .collect();
    Some(format!(
        "\nProficient ({:+}): {}; saves {}.",
        sheet.proficiency_bonus(),
        skills.join(", "),
        saves.join(", ")
    ))
}

/// The hero's spells, slots left, the spell held and class features with uses left, on lines of
/// their own: `Spells (INT, DC 13, +5): Fire Bolt, Light; 1st-level: Magic Missile, Sleep.
/// Slots left: 1st-level 1/2.` and `Features: Second Wind 1/1, Action Surge 0/1.` (nothing for a sheet
/// whose powers do not count). The rules cast them; the model narrates.
fn powers_lines(sheet: &CharacterSheet) -> String {
    let mut text = String::new();
    if let Some(casting) = sheet.spellcasting() {
        let mut by_level: Vec<(u8, Vec<&str>)> = Vec::new();
        for spell in sheet.known_spells() {
            let level = spell.level.value();
            match by_level.iter_mut().find(|(l, _)| *l == level) {
                Some((_, names)) => names.push(&spell.name),
                None => by_level.push((level, vec![&spell.name])),
            }
        }
        by_level.sort_by_key(|(level, _)| *level);
        let lists: Vec<String> = by_level
            .iter()
            .map(|(level, names)| match SpellLevel::new(*level) {
                Ok(l) if !l.is_cantrip() => format!("{}: {}", l.ordinal(), names.join(", ")),
                _ => names.join(", "),
            })
            .collect();
        let slots: Vec<String> = (1..=9u8)
            .zip(sheet.spell_slots())
            .filter(|(_, (total, _))| *total > 0)
            .filter_map(|(level, (total, left))| {
                let level = SpellLevel::new(level).ok()?;
                Some(format!("{} {left}/{total}", level.ordinal()))
            })
            .collect();
        let _ = write!(
            text,
            "\nSpells ({}, DC {}, {:+}): {}. Slots left: {}.",
            casting.ability,
            sheet.spell_save_dc().unwrap_or(0),
            sheet.spell_attack_bonus().unwrap_or(0),
            lists.join("; "),
            if slots.is_empty() {
                "none".to_owned()
            } else {
                slots.join(", ")
            }
        );
        if let Some(spell) = sheet.powers().and_then(|p| p.concentration()) {
            let _ = write!(text, " Concentrating on {}.", spell.name);
        }
    }
    let features: Vec<String> = sheet
        .features()
        .into_iter()
        .map(|(feature, uses)| match uses {
            Some((left, total)) => format!("{} {left}/{total}", feature.name()),
            None => feature.name().to_owned(),
        })
        .collect();
    if !features.is_empty() {
        let _ = write!(text, "\nFeatures: {}.", features.join(", "));
    }
    text
}

/// The sheet in a few short lines, e.g.
/// `Mira (Ranger, level 2) HP 7/12 | STR 10 (+0) ... | Inventory: Rusty key x1 [slug rusty-key]`.
pub fn describe_sheet(sheet: &CharacterSheet) -> String {
    sheet_lines(sheet, true)
}

/// [`describe_sheet`], each item with its slug only if `slugs`.
pub fn sheet_lines(sheet: &CharacterSheet, slugs: bool) -> String {
    let hp = sheet.hit_points();
    let mut text = format!(
        "{} ({}, level {}). HP {}/{}.",
        sheet.name().as_str(),
        sheet.class().as_str(),
        sheet.level().value(),
        hp.current(),
        hp.max()
    );
    if let Some(sanity) = sheet.sanity() {
        let _ = write!(text, " Sanity {}/100.", sanity.value());
    }
    let _ = write!(text, " XP {}.", sheet.experience());
    let vitality = sheet.vitality();
    if vitality != Vitality::Up {
        let _ = write!(text, " {}: {}.", vitality.label(), at_zero(vitality));
    }
    if !sheet.abilities().is_empty() {
        let abilities: Vec<String> = sheet
            .abilities()
            .iter()
            .map(|ability| match &ability.text {
                Some(what) => format!("{} ({})", ability.name.as_str(), what.as_str()),
                None => ability.name.as_str().to_owned(),
            })
            .collect();
        let _ = write!(text, "\nAbilities: {}.", abilities.join("; "));
    }
    if let Some(backstory) = sheet.backstory() {
        let _ = write!(text, "\nBackstory: {}", backstory.as_str());
    }
    let scores: Vec<String> = Attribute::ALL
        .iter()
        .map(|&attribute| {
            let score = sheet.attributes().get(attribute);
            format!("{attribute} {} ({:+})", score.value(), score.modifier())
        })
        .collect();
    let _ = write!(text, "\nAttributes: {}.", scores.join(", "));
    if let Some(line) = proficiency_line(sheet) {
        text.push_str(&line);
    }
    text.push_str(&powers_lines(sheet));

    let _ = write!(text, "\nConditions: {}.", list_or_none(&conditions(sheet)));
    let _ = write!(text, "\nInventory: {}.", list_or_none(&items(sheet, slugs)));
    let _ = write!(
        text,
        "\nLocation: {}. Time: {}.",
        sheet.location().as_str(),
        sheet.time()
    );
    text
}

/// The sheet's conditions, each with its duration if it has one.
fn conditions(sheet: &CharacterSheet) -> Vec<String> {
    sheet
        .conditions()
        .list()
        .iter()
        .map(|condition| {
            let mut line = condition.name.as_str().to_owned();
            if let Some(duration) = &condition.duration {
                let _ = write!(line, " ({})", duration.as_str());
            }
            line
        })
        .collect()
}

/// The sheet's items, each with its quantity and, if `slugs`, its slug.
fn items(sheet: &CharacterSheet, slugs: bool) -> Vec<String> {
    sheet
        .inventory()
        .items()
        .iter()
        .map(|item| {
            let name = item.name().as_str();
            if slugs {
                format!("{name} x{} [slug {}]", item.quantity(), item.slug())
            } else {
                format!("{name} x{}", item.quantity())
            }
        })
        .collect()
}

/// What the narrator must know about a character at 0 HP.
fn at_zero(vitality: Vitality) -> &'static str {
    match vitality {
        Vitality::Down { .. } => "unconscious and dying; the server rolls a death save each turn",
        Vitality::Stable => "unconscious but stable; healing or a rest wakes them",
        Vitality::Dead => "dead; write the end of the story",
        Vitality::Up => "on their feet",
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join("; ")
    }
}
