//! The character panel made from the sheet, and the model's messages for the "what the GM
//! sees" drawer.

use super::powers::powers_view;
use crate::campaign::conversation::Message;
use crate::game::item_kind::ItemKind;
use crate::game::{progression, Attribute, CharacterSheet, Item, Level};
use crate::wire::view::{AttributeView, Handling, ItemView, LlmEntryView, SheetView};

/// The character panel of `sheet`.
pub fn sheet_view(sheet: &CharacterSheet) -> SheetView {
    let hp = sheet.hit_points();
    SheetView {
        name: sheet.name().as_str().to_owned(),
        class: sheet.class().as_str().to_owned(),
        level: sheet.level().value(),
        hp: hp.current(),
        max_hp: hp.max(),
        armor_class: sheet.armor_class().value(),
        sanity: sheet.sanity().map(|sanity| sanity.value()),
        attributes: Attribute::ALL
            .iter()
            .map(|&attribute| {
                let score = sheet.attributes().get(attribute);
                AttributeView {
                    name: attribute.abbreviation().to_owned(),
                    score: score.value(),
                    modifier: score.modifier(),
                }
            })
            .collect(),
        conditions: sheet
            .conditions()
            .list()
            .iter()
            .map(|condition| condition.describe(sheet.time().minutes()))
            .collect(),
        inventory: sheet.inventory().items().iter().map(item_view).collect(),
        location: sheet.location().as_str().to_owned(),
        time: sheet.time().to_string(),
        experience: (sheet.experience(), next_threshold(sheet.level())),
        abilities: sheet
            .abilities()
            .iter()
            .map(|a| {
                (
                    a.name.as_str().to_owned(),
                    a.text.as_ref().map(|t| t.as_str().to_owned()),
                )
            })
            .collect(),
        hit_die: match sheet.hit_dice() {
            Some((left, total)) => format!("d{}, {left} of {total} left", sheet.hit_die().sides()),
            None => format!("d{}", sheet.hit_die().sides()),
        },
        stakes: sheet.stakes(),
        vitality: sheet.vitality(),
        proficiency_bonus: sheet.proficiency_bonus(),
        skills: proficient_skills(sheet),
        saves: proficient_saves(sheet),
        improvements_due: sheet.improvements_due(),
        powers: powers_view(sheet),
    }
}

/// `Stealth +5` for each skill the character is proficient in.
fn proficient_skills(sheet: &CharacterSheet) -> Vec<String> {
    let skills = sheet.proficiencies().skills().iter();
    skills
        .map(|skill| {
            let bonus = sheet.check_bonus(skill.attribute(), Some(*skill));
            format!("{skill} {:+}", bonus.total())
        })
        .collect()
}

/// `DEX +5` for each saving throw the character is proficient in.
fn proficient_saves(sheet: &CharacterSheet) -> Vec<String> {
    let saves = sheet.proficiencies().saves().iter();
    saves
        .map(|save| format!("{save} {:+}", sheet.save_bonus(*save).total()))
        .collect()
}

/// One carried item on the panel: what it is and what the panel offers for it.
fn item_view(item: &Item) -> ItemView {
    let kind = item.kind();
    let summary = kind.summary();
    let (kind_label, handling) = match kind {
        ItemKind::Gear => (summary, Handling::Gear),
        ItemKind::Consumable(_) => (summary, Handling::Consumable),
        ItemKind::Weapon(_) => (format!("weapon {summary}"), equippable(item)),
        ItemKind::Armor(_) => (format!("armour {summary}"), equippable(item)),
        ItemKind::Shield => (format!("shield {summary}"), equippable(item)),
    };
    ItemView {
        slug: item.slug().to_string(),
        name: item.name().as_str().to_owned(),
        quantity: item.quantity().value(),
        description: item.description().map(|d| d.as_str().to_owned()),
        kind: kind_label,
        handling,
    }
}

/// Equipped, or not yet.
fn equippable(item: &Item) -> Handling {
    if item.is_equipped() {
        Handling::Equipped
    } else {
        Handling::Equippable
    }
}

/// One model message for the drawer.
pub fn llm_view(message: &Message) -> LlmEntryView {
    let (role, content, tool_calls) = match message {
        Message::System { content } => ("system", content.to_string(), Vec::new()),
        Message::User { content } => ("user", content.to_string(), Vec::new()),
        Message::Assistant {
            content,
            tool_calls,
        } => (
            "assistant",
            content.as_deref().unwrap_or_default().to_owned(),
            tool_calls
                .iter()
                .map(|call| format!("{}({})", call.name, call.arguments))
                .collect(),
        ),
        Message::Tool { content, .. } => ("tool", content.to_string(), Vec::new()),
    };
    LlmEntryView {
        role: role.to_owned(),
        content,
        tool_calls,
    }
}

/// The experience the next level needs, if there is a next level.
fn next_threshold(level: Level) -> Option<u32> {
    Level::new(i64::from(level.value()) + 1)
        .ok()
        .map(progression::threshold)
}
