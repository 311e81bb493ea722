//! How the campaign's state is shown to the browser: the character panel, the dice of a roll,
//! and the model's messages for the "what the GM sees" drawer.

use super::conversation::Message;
use super::present_powers::powers_view;
use crate::game::dice::Roll;
use crate::game::item_kind::ItemKind;
use crate::game::outcome_table::OutcomeTable;
use crate::game::{progression, Attribute, CharacterSheet, Item, Level};
use crate::wire::view::{
    AttributeView, DieView, Handling, ItemView, LlmEntryView, OutcomeRowView, OutcomeTableView,
    SheetView, MAX_DICE_SHOWN,
};

/// Every die of `roll` with its face, for the story to show; none past [`MAX_DICE_SHOWN`].
pub fn dice_view(roll: &Roll) -> Vec<DieView> {
    let dice: Vec<DieView> = roll
        .terms()
        .iter()
        .flat_map(|term| {
            term.dice().iter().map(|die| DieView {
                sides: term.sides(),
                face: die.value(),
                kept: die.is_kept(),
            })
        })
        .collect();
    if dice.len() > MAX_DICE_SHOWN {
        return Vec::new();
    }
    dice
}

/// One die of `sides` on `face` (an oracle's d100, a table's die).
pub fn one_die_view(sides: u8, face: u8) -> Vec<DieView> {
    vec![DieView {
        sides: u16::from(sides),
        face: u16::from(face),
        kept: true,
    }]
}

/// An outcome table as the player sees it.
pub fn table_view(table: &OutcomeTable) -> OutcomeTableView {
    OutcomeTableView {
        name: table.name().to_string(),
        sides: u16::from(table.die().sides()),
        rows: table
            .outcomes()
            .iter()
            .map(|outcome| OutcomeRowView {
                range: outcome.range(),
                outcome: outcome.outcome.to_string(),
            })
            .collect(),
    }
}

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
        Message::System { content } => ("system", content.clone(), Vec::new()),
        Message::User { content } => ("user", content.clone(), Vec::new()),
        Message::Assistant {
            content,
            tool_calls,
        } => (
            "assistant",
            content.clone().unwrap_or_default(),
            tool_calls
                .iter()
                .map(|call| format!("{}({})", call.name, call.arguments))
                .collect(),
        ),
        Message::Tool { content, .. } => ("tool", content.clone(), Vec::new()),
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

#[cfg(test)]
mod tests {
    use rand::{rngs::StdRng, SeedableRng};

    use super::*;
    use crate::game::dice::DiceExpr;

    fn rolled(notation: &str, seed: u64) -> Roll {
        DiceExpr::parse(notation)
            .unwrap()
            .roll(&mut StdRng::seed_from_u64(seed))
    }

    #[test]
    fn a_roll_shows_every_die_with_its_face_and_the_dropped_ones_marked() {
        for seed in 0..20 {
            let roll = rolled("2d20kl1+3", seed);
            let dice = dice_view(&roll);
            assert_eq!(dice.len(), 2);
            assert!(dice.iter().all(|die| die.sides == 20));
            let [kept] = dice.iter().filter(|die| die.kept).collect::<Vec<_>>()[..] else {
                panic!("one die kept: {dice:?}")
            };
            let [dropped] = dice.iter().filter(|die| !die.kept).collect::<Vec<_>>()[..] else {
                panic!("one die dropped: {dice:?}")
            };
            // Disadvantage keeps the lower, and the total is the kept face and the modifier.
            assert!(dropped.face >= kept.face);
            assert_eq!(roll.total(), i32::from(kept.face) + 3);
        }
        let mixed = dice_view(&rolled("2d6+1d4", 7));
        let sides: Vec<u16> = mixed.iter().map(|die| die.sides).collect();
        assert_eq!(sides, [6, 6, 4]);
        assert_eq!(
            mixed.iter().map(|die| i32::from(die.face)).sum::<i32>(),
            rolled("2d6+1d4", 7).total()
        );
    }

    #[test]
    fn a_roll_of_more_dice_than_fit_shows_its_line_only() {
        assert_eq!(dice_view(&rolled("12d6", 1)).len(), MAX_DICE_SHOWN);
        assert!(dice_view(&rolled("13d6", 1)).is_empty());
    }
}
