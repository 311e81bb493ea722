//! Spellcasting by class and level (SRD 5.1, CC-BY-4.0): which classes cast and with which
//! ability, the spell slots a level brings, the spell save DC and spell attack bonus, the cantrips
//! a class knows, and the spells a character starts with or gains on levelling up.
//!
//! Two progressions: a full caster (Wizard, Cleric, Bard) gains 1st-level slots at level 1 and a
//! new spell level every odd level up to 9th at 17; a half caster (Ranger) has no slots at level 1,
//! gains 1st-level slots at 2 and reaches 5th-level slots at 17. The tables are the SRD's.
//!
//! The default spells ([`default_spells`]) are a table-tested pick from each class's list
//! ([`class_list`]): what a character of that class and level knows (a Bard or Ranger), has
//! prepared (a Cleric) or keeps in their spellbook (a Wizard: six at level 1, never more than
//! two more a level) when the player has not chosen. They only grow with level and hold only
//! spells of the levels the character has slots for.

use serde::{Deserialize, Serialize};

use super::attributes::Attribute;
use super::progression::Level;
use super::spells::spell::SpellList;

/// How quickly a class gains spell slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CasterKind {
    /// The full caster's table (Wizard, Cleric, Bard): slots from level 1, up to 9th level.
    Full,
    /// The half caster's table (Ranger): slots from level 2, up to 5th level.
    Half,
}

/// How a class casts: the ability its spells use, how fast it gains slots and the list it draws
/// its spells from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spellcasting {
    /// The spellcasting ability (INT, WIS or CHA).
    pub ability: Attribute,
    /// The slot progression.
    pub kind: CasterKind,
    /// The class's spell list.
    pub list: SpellList,
}

/// How the class named `class` (a creation preset, matched without regard to case or surrounding
/// spaces) casts, or `None` for a class that does not (Fighter, Rogue, any other name).
pub fn for_class(class: &str) -> Option<Spellcasting> {
    let class = class.trim();
    let (ability, kind, list) = if class.eq_ignore_ascii_case("Wizard") {
        (Attribute::Intelligence, CasterKind::Full, SpellList::Wizard)
    } else if class.eq_ignore_ascii_case("Cleric") {
        (Attribute::Wisdom, CasterKind::Full, SpellList::Cleric)
    } else if class.eq_ignore_ascii_case("Bard") {
        (Attribute::Charisma, CasterKind::Full, SpellList::Bard)
    } else if class.eq_ignore_ascii_case("Ranger") {
        (Attribute::Wisdom, CasterKind::Half, SpellList::Ranger)
    } else {
        return None;
    };
    Some(Spellcasting {
        ability,
        kind,
        list,
    })
}

/// The full caster's slots of spell levels 1..=9 at class levels 1..=20 (SRD: the Wizard's,
/// Cleric's and Bard's tables).
const FULL_SLOTS: [[u8; 9]; 20] = [
    [2, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, 0, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 0, 0, 0, 0, 0, 0, 0],
    [4, 3, 2, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 0, 0, 0, 0, 0, 0],
    [4, 3, 3, 1, 0, 0, 0, 0, 0],
    [4, 3, 3, 2, 0, 0, 0, 0, 0],
    [4, 3, 3, 3, 1, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 0, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 0, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 0, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 0],
    [4, 3, 3, 3, 2, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 1, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 1, 1, 1],
    [4, 3, 3, 3, 3, 2, 2, 1, 1],
];

/// The half caster's slots of spell levels 1..=5 at class levels 1..=20 (SRD: the Ranger's
/// table).
const HALF_SLOTS: [[u8; 5]; 20] = [
    [0, 0, 0, 0, 0],
    [2, 0, 0, 0, 0],
    [3, 0, 0, 0, 0],
    [3, 0, 0, 0, 0],
    [4, 2, 0, 0, 0],
    [4, 2, 0, 0, 0],
    [4, 3, 0, 0, 0],
    [4, 3, 0, 0, 0],
    [4, 3, 2, 0, 0],
    [4, 3, 2, 0, 0],
    [4, 3, 3, 0, 0],
    [4, 3, 3, 0, 0],
    [4, 3, 3, 1, 0],
    [4, 3, 3, 1, 0],
    [4, 3, 3, 2, 0],
    [4, 3, 3, 2, 0],
    [4, 3, 3, 3, 1],
    [4, 3, 3, 3, 1],
    [4, 3, 3, 3, 2],
    [4, 3, 3, 3, 2],
];

/// The spell slots of spell levels 1..=9 (index 0 is 1st level) a caster of `kind` has at class
/// `level`, per the SRD's tables.
pub fn slots(kind: CasterKind, level: Level) -> [u8; 9] {
    let row = usize::from(level.value() - 1);
    match kind {
        CasterKind::Full => FULL_SLOTS[row],
        CasterKind::Half => {
            let mut slots = [0; 9];
            slots[..5].copy_from_slice(&HALF_SLOTS[row]);
            slots
        }
    }
}

/// The highest spell level a caster of `kind` has a slot of at class `level`, 0 if none (a
/// level-1 Ranger).
pub fn highest_slot_level(kind: CasterKind, level: Level) -> u8 {
    slots(kind, level)
        .iter()
        .rposition(|&count| count > 0)
        // At most 9 slot levels: the cast is lossless.
        .map_or(0, |index| index as u8 + 1)
}

/// The spell save DC: 8 + the proficiency bonus + the spellcasting ability's modifier, at least 1.
pub fn save_dc(proficiency: i8, modifier: i8) -> u8 {
    let dc = 8 + i16::from(proficiency) + i16::from(modifier);
    // Clamped into 1..=255: the cast is lossless.
    dc.clamp(1, i16::from(u8::MAX)) as u8
}

/// The spell attack bonus: the proficiency bonus + the spellcasting ability's modifier.
pub fn attack_bonus(proficiency: i8, modifier: i8) -> i8 {
    proficiency.saturating_add(modifier)
}

/// The cantrips a caster of `list` knows at class `level` (SRD): a Wizard or Cleric 3, 4 from
/// level 4 and 5 from level 10; a Bard 2, 3 and 4 at the same levels; a Ranger none.
pub fn cantrips_known(list: SpellList, level: Level) -> u8 {
    let base = match list {
        SpellList::Wizard | SpellList::Cleric => 3,
        SpellList::Bard => 2,
        SpellList::Ranger => return 0,
    };
    let gained = match level.value() {
        1..=3 => 0,
        4..=9 => 1,
        _ => 2,
    };
    base + gained
}

/// The Wizard's spell list (SRD), as far as the spell book goes: cantrips, then 1st, 2nd and
/// 3rd level.
const WIZARD_LIST: [&str; 30] = [
    "Fire Bolt",
    "Ray of Frost",
    "Shocking Grasp",
    "Acid Splash",
    "Chill Touch",
    "Poison Spray",
    "Light",
    "Mage Hand",
    "Minor Illusion",
    "Prestidigitation",
    "Magic Missile",
    "Burning Hands",
    "Sleep",
    "Shield",
    "Thunderwave",
    "Detect Magic",
    "Mage Armor",
    "Color Spray",
    "Hold Person",
    "Misty Step",
    "Scorching Ray",
    "Shatter",
    "Web",
    "Blindness/Deafness",
    "Fireball",
    "Lightning Bolt",
    "Hypnotic Pattern",
    "Fear",
    "Counterspell",
    "Dispel Magic",
];

/// The Cleric's spell list (SRD), as far as the spell book goes.
const CLERIC_LIST: [&str; 21] = [
    "Sacred Flame",
    "Light",
    "Guidance",
    "Spare the Dying",
    "Thaumaturgy",
    "Cure Wounds",
    "Healing Word",
    "Bless",
    "Guiding Bolt",
    "Detect Magic",
    "Inflict Wounds",
    "Shield of Faith",
    "Command",
    "Hold Person",
    "Spiritual Weapon",
    "Blindness/Deafness",
    "Lesser Restoration",
    "Revivify",
    "Mass Healing Word",
    "Spirit Guardians",
    "Dispel Magic",
];

/// The Bard's spell list (SRD), as far as the spell book goes. Command is not on it: it joined the
/// Bard's list only after SRD 5.1.
const BARD_LIST: [&str; 19] = [
    "Vicious Mockery",
    "Light",
    "Mage Hand",
    "Minor Illusion",
    "Prestidigitation",
    "Sleep",
    "Cure Wounds",
    "Healing Word",
    "Faerie Fire",
    "Detect Magic",
    "Speak with Animals",
    "Thunderwave",
    "Hold Person",
    "Shatter",
    "Blindness/Deafness",
    "Lesser Restoration",
    "Hypnotic Pattern",
    "Fear",
    "Dispel Magic",
];

/// The Ranger's spell list (SRD), as far as the spell book goes.
const RANGER_LIST: [&str; 4] = [
    "Cure Wounds",
    "Hunter's Mark",
    "Detect Magic",
    "Lesser Restoration",
];

/// The spells of `list` (SRD) the spell book holds, cantrips first and then by level: what a
/// player chooses from at creation.
pub fn class_list(list: SpellList) -> &'static [&'static str] {
    match list {
        SpellList::Wizard => &WIZARD_LIST,
        SpellList::Cleric => &CLERIC_LIST,
        SpellList::Bard => &BARD_LIST,
        SpellList::Ranger => &RANGER_LIST,
    }
}

/// One default spell: the class level it comes with, its spell level and its name.
#[derive(Clone, Copy, Debug)]
struct Pick {
    /// The class level from which a character has it.
    from: u8,
    /// Its spell level (0 for a cantrip).
    spell_level: u8,
    /// Its name, as in the spell book.
    name: &'static str,
}

/// Shorthand for a [`Pick`] in the tables below.
const fn pick(from: u8, spell_level: u8, name: &'static str) -> Pick {
    Pick {
        from,
        spell_level,
        name,
    }
}

/// A Wizard's spellbook: three cantrips (four at 4, five at 10), six 1st-level spells and at most
/// two more each level (the SRD's growth of the book).
const WIZARD_PICKS: [Pick; 25] = [
    pick(1, 0, "Fire Bolt"),
    pick(1, 0, "Ray of Frost"),
    pick(1, 0, "Mage Hand"),
    pick(4, 0, "Shocking Grasp"),
    pick(10, 0, "Minor Illusion"),
    pick(1, 1, "Magic Missile"),
    pick(1, 1, "Shield"),
    pick(1, 1, "Sleep"),
    pick(1, 1, "Mage Armor"),
    pick(1, 1, "Burning Hands"),
    pick(1, 1, "Detect Magic"),
    pick(2, 1, "Thunderwave"),
    pick(3, 2, "Misty Step"),
    pick(3, 2, "Scorching Ray"),
    pick(3, 2, "Hold Person"),
    pick(4, 2, "Web"),
    pick(5, 3, "Fireball"),
    pick(5, 3, "Lightning Bolt"),
    pick(5, 3, "Counterspell"),
    pick(6, 3, "Dispel Magic"),
    pick(6, 2, "Shatter"),
    pick(7, 3, "Hypnotic Pattern"),
    pick(7, 3, "Fear"),
    pick(8, 2, "Blindness/Deafness"),
    pick(8, 1, "Color Spray"),
];

/// A Cleric's prepared spells: a healer who can also fight.
const CLERIC_PICKS: [Pick; 21] = [
    pick(1, 0, "Sacred Flame"),
    pick(1, 0, "Guidance"),
    pick(1, 0, "Spare the Dying"),
    pick(4, 0, "Light"),
    pick(10, 0, "Thaumaturgy"),
    pick(1, 1, "Cure Wounds"),
    pick(1, 1, "Healing Word"),
    pick(1, 1, "Bless"),
    pick(1, 1, "Guiding Bolt"),
    pick(2, 1, "Shield of Faith"),
    pick(3, 2, "Spiritual Weapon"),
    pick(3, 2, "Hold Person"),
    pick(3, 2, "Lesser Restoration"),
    pick(4, 1, "Command"),
    pick(5, 3, "Revivify"),
    pick(5, 3, "Spirit Guardians"),
    pick(5, 3, "Mass Healing Word"),
    pick(6, 3, "Dispel Magic"),
    pick(7, 2, "Blindness/Deafness"),
    pick(8, 1, "Detect Magic"),
    pick(8, 1, "Inflict Wounds"),
];

/// A Bard's spells known: four at level 1 and one more each level (two at 10), as the SRD's
/// table.
const BARD_PICKS: [Pick; 18] = [
    pick(1, 0, "Vicious Mockery"),
    pick(1, 0, "Minor Illusion"),
    pick(4, 0, "Mage Hand"),
    pick(10, 0, "Prestidigitation"),
    pick(1, 1, "Healing Word"),
    pick(1, 1, "Thunderwave"),
    pick(1, 1, "Faerie Fire"),
    pick(1, 1, "Sleep"),
    pick(2, 1, "Cure Wounds"),
    pick(3, 2, "Hold Person"),
    pick(4, 2, "Shatter"),
    pick(5, 3, "Hypnotic Pattern"),
    pick(6, 3, "Fear"),
    pick(7, 3, "Dispel Magic"),
    pick(8, 2, "Lesser Restoration"),
    pick(9, 1, "Speak with Animals"),
    pick(10, 2, "Blindness/Deafness"),
    pick(10, 1, "Detect Magic"),
];

/// A Ranger's spells known: two at level 2, three at 3, four at 5, as the SRD's table.
const RANGER_PICKS: [Pick; 4] = [
    pick(2, 1, "Hunter's Mark"),
    pick(2, 1, "Cure Wounds"),
    pick(3, 1, "Detect Magic"),
    pick(5, 2, "Lesser Restoration"),
];

/// The slot progression of the class whose list is `list`.
fn kind_of(list: SpellList) -> CasterKind {
    match list {
        SpellList::Ranger => CasterKind::Half,
        SpellList::Wizard | SpellList::Cleric | SpellList::Bard => CasterKind::Full,
    }
}

/// The default picks of `list`, in table order.
fn picks(list: SpellList) -> &'static [Pick] {
    match list {
        SpellList::Wizard => &WIZARD_PICKS,
        SpellList::Cleric => &CLERIC_PICKS,
        SpellList::Bard => &BARD_PICKS,
        SpellList::Ranger => &RANGER_PICKS,
    }
}

/// The spells a character of the class casting from `list` knows (or has prepared, or keeps in
/// their spellbook) at class `level` when the player has not chosen: cantrips first (never more
/// than [`cantrips_known`]), then by the level they came with. Only spells of levels the
/// character has slots for; each level keeps every spell of the level before.
pub fn default_spells(list: SpellList, level: Level) -> Vec<&'static str> {
    let highest = highest_slot_level(kind_of(list), level);
    let cantrips = usize::from(cantrips_known(list, level));
    let known = picks(list)
        .iter()
        .filter(|pick| pick.from <= level.value() && pick.spell_level <= highest);
    let (cantrip_picks, spell_picks): (Vec<&Pick>, Vec<&Pick>) =
        known.partition(|pick| pick.spell_level == 0);
    cantrip_picks
        .into_iter()
        .take(cantrips)
        .chain(spell_picks)
        .map(|pick| pick.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;
    use crate::game::attributes::AttributeScore;
    use crate::game::progression::proficiency_bonus;
    use crate::game::spells::SpellBook;

    const LISTS: [SpellList; 4] = [
        SpellList::Wizard,
        SpellList::Cleric,
        SpellList::Bard,
        SpellList::Ranger,
    ];

    fn level(value: i64) -> Level {
        Level::new(value).unwrap()
    }

    /// `counts` padded with zeros to nine spell levels.
    fn row(counts: &[u8]) -> [u8; 9] {
        let mut row = [0; 9];
        row[..counts.len()].copy_from_slice(counts);
        row
    }

    #[test]
    fn full_casters_follow_the_srd_table() {
        let full = |l| slots(CasterKind::Full, level(l));
        assert_eq!(full(1), row(&[2]));
        assert_eq!(full(2), row(&[3]));
        assert_eq!(full(3), row(&[4, 2]));
        assert_eq!(full(4), row(&[4, 3]));
        assert_eq!(full(5), row(&[4, 3, 2]));
        assert_eq!(full(7), row(&[4, 3, 3, 1]));
        assert_eq!(full(9), row(&[4, 3, 3, 3, 1]));
        assert_eq!(full(11), row(&[4, 3, 3, 3, 2, 1]));
        assert_eq!(full(13), row(&[4, 3, 3, 3, 2, 1, 1]));
        assert_eq!(full(15), row(&[4, 3, 3, 3, 2, 1, 1, 1]));
        assert_eq!(full(17), row(&[4, 3, 3, 3, 2, 1, 1, 1, 1]));
        assert_eq!(full(18), row(&[4, 3, 3, 3, 3, 1, 1, 1, 1]));
        assert_eq!(full(19), row(&[4, 3, 3, 3, 3, 2, 1, 1, 1]));
        assert_eq!(full(20), row(&[4, 3, 3, 3, 3, 2, 2, 1, 1]));
    }

    #[test]
    fn half_casters_follow_the_srd_ranger_table() {
        let half = |l| slots(CasterKind::Half, level(l));
        assert_eq!(half(1), [0; 9]);
        assert_eq!(half(2), row(&[2]));
        assert_eq!(half(3), row(&[3]));
        assert_eq!(half(5), row(&[4, 2]));
        assert_eq!(half(7), row(&[4, 3]));
        assert_eq!(half(9), row(&[4, 3, 2]));
        assert_eq!(half(11), row(&[4, 3, 3]));
        assert_eq!(half(13), row(&[4, 3, 3, 1]));
        assert_eq!(half(15), row(&[4, 3, 3, 2]));
        assert_eq!(half(17), row(&[4, 3, 3, 3, 1]));
        assert_eq!(half(19), row(&[4, 3, 3, 3, 2]));
        assert_eq!(half(20), row(&[4, 3, 3, 3, 2]));
    }

    #[test]
    fn the_highest_slot_level_reads_the_table() {
        let highest = |kind, l| highest_slot_level(kind, level(l));
        assert_eq!(highest(CasterKind::Full, 1), 1);
        assert_eq!(highest(CasterKind::Full, 3), 2);
        assert_eq!(highest(CasterKind::Full, 5), 3);
        assert_eq!(highest(CasterKind::Full, 17), 9);
        assert_eq!(highest(CasterKind::Half, 1), 0);
        assert_eq!(highest(CasterKind::Half, 2), 1);
        assert_eq!(highest(CasterKind::Half, 9), 3);
        assert_eq!(highest(CasterKind::Half, 20), 5);
    }

    #[test]
    fn a_level_one_wizard_with_int_16_has_dc_13_and_plus_5() {
        let wizard = for_class("Wizard").unwrap();
        let modifier = AttributeScore::new(16).unwrap().modifier();
        let proficiency = proficiency_bonus(level(1));
        assert_eq!(wizard.ability, Attribute::Intelligence);
        assert_eq!(save_dc(proficiency, modifier), 13);
        assert_eq!(attack_bonus(proficiency, modifier), 5);
        assert_eq!(save_dc(6, 10), 24);
        assert_eq!(attack_bonus(2, -1), 1);
        assert_eq!(save_dc(-10, -5), 1);
    }

    #[test]
    fn the_casting_classes_are_known_by_name() {
        let cast = |class| for_class(class).map(|c| (c.ability, c.kind, c.list));
        assert_eq!(
            cast("wizard"),
            Some((Attribute::Intelligence, CasterKind::Full, SpellList::Wizard))
        );
        assert_eq!(
            cast(" CLERIC "),
            Some((Attribute::Wisdom, CasterKind::Full, SpellList::Cleric))
        );
        assert_eq!(
            cast("Bard"),
            Some((Attribute::Charisma, CasterKind::Full, SpellList::Bard))
        );
        assert_eq!(
            cast("Ranger"),
            Some((Attribute::Wisdom, CasterKind::Half, SpellList::Ranger))
        );
        for other in ["Fighter", "Rogue", "Paladin", ""] {
            assert_eq!(for_class(other), None, "{other}");
        }
    }

    #[test]
    fn spellcasting_serialises_in_camel_case() {
        let ranger = for_class("Ranger").unwrap();
        let json = serde_json::to_value(ranger).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "ability": "WIS", "kind": "half", "list": "ranger" })
        );
        assert_eq!(
            serde_json::from_value::<Spellcasting>(json).unwrap(),
            ranger
        );
    }

    #[test]
    fn cantrips_known_follow_the_srd() {
        let known = |list, levels: [i64; 4]| levels.map(|l| cantrips_known(list, level(l)));
        assert_eq!(known(SpellList::Wizard, [1, 4, 9, 10]), [3, 4, 4, 5]);
        assert_eq!(known(SpellList::Cleric, [1, 3, 4, 20]), [3, 3, 4, 5]);
        assert_eq!(known(SpellList::Bard, [1, 4, 10, 20]), [2, 3, 4, 4]);
        assert_eq!(known(SpellList::Ranger, [1, 2, 10, 20]), [0, 0, 0, 0]);
    }

    #[test]
    fn level_one_defaults_hold_the_class_staples() {
        let defaults = |list, l| default_spells(list, level(l));
        let wizard = defaults(SpellList::Wizard, 1);
        for name in ["Fire Bolt", "Magic Missile", "Sleep", "Shield"] {
            assert!(wizard.contains(&name), "wizard lacks {name}");
        }
        let cleric = defaults(SpellList::Cleric, 1);
        for name in ["Sacred Flame", "Cure Wounds", "Healing Word", "Bless"] {
            assert!(cleric.contains(&name), "cleric lacks {name}");
        }
        let bard = defaults(SpellList::Bard, 1);
        for name in [
            "Vicious Mockery",
            "Healing Word",
            "Thunderwave",
            "Faerie Fire",
        ] {
            assert!(bard.contains(&name), "bard lacks {name}");
        }
        assert!(defaults(SpellList::Ranger, 1).is_empty());
        assert_eq!(
            defaults(SpellList::Ranger, 2),
            ["Hunter's Mark", "Cure Wounds"]
        );
    }

    #[test]
    fn higher_levels_add_higher_spells() {
        let has = |list, l, names: [&str; 3]| {
            let spells = default_spells(list, level(l));
            names.iter().all(|name| spells.contains(name))
        };
        assert!(has(
            SpellList::Wizard,
            3,
            ["Misty Step", "Scorching Ray", "Hold Person"]
        ));
        assert!(has(
            SpellList::Wizard,
            5,
            ["Fireball", "Lightning Bolt", "Counterspell"]
        ));
        assert!(has(
            SpellList::Cleric,
            3,
            ["Spiritual Weapon", "Hold Person", "Lesser Restoration"]
        ));
        assert!(has(
            SpellList::Cleric,
            5,
            ["Revivify", "Spirit Guardians", "Mass Healing Word"]
        ));
        assert!(!default_spells(SpellList::Wizard, level(4)).contains(&"Fireball"));
    }

    #[test]
    fn known_spell_counts_match_the_srd_for_bard_and_ranger() {
        let spells = |list, l| {
            let all = default_spells(list, level(l));
            all.len() - usize::from(cantrips_known(list, level(l)))
        };
        let bard: Vec<usize> = (1..=10).map(|l| spells(SpellList::Bard, l)).collect();
        assert_eq!(bard, [4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
        let ranger: Vec<usize> = (1..=5).map(|l| spells(SpellList::Ranger, l)).collect();
        assert_eq!(ranger, [0, 2, 3, 3, 4]);
        // A wizard's spellbook: six at level 1, at most two more each level.
        let wizard: Vec<usize> = (1..=8).map(|l| spells(SpellList::Wizard, l)).collect();
        assert_eq!(wizard, [6, 7, 10, 11, 14, 16, 18, 20]);
    }

    #[test]
    fn every_pick_is_on_its_class_list_once_and_castable_when_it_comes() {
        for list in LISTS {
            let class = class_list(list);
            let mut seen = HashSet::new();
            for pick in picks(list) {
                assert!(class.contains(&pick.name), "{list:?}: {}", pick.name);
                assert!(seen.insert(pick.name), "{list:?}: {} twice", pick.name);
                let at = level(i64::from(pick.from));
                assert!(
                    pick.spell_level <= highest_slot_level(kind_of(list), at),
                    "{list:?}: {} comes before its slots",
                    pick.name
                );
                assert!(
                    default_spells(list, at).contains(&pick.name),
                    "{list:?}: {} is not had at level {}",
                    pick.name,
                    pick.from
                );
            }
            let unique: HashSet<_> = class.iter().collect();
            assert_eq!(unique.len(), class.len(), "{list:?} repeats a spell");
        }
    }

    #[test]
    fn class_lists_and_picks_agree_with_the_spell_book() {
        let book = SpellBook::srd();
        for list in LISTS {
            for name in class_list(list) {
                let spell = book.get(name).unwrap();
                assert_eq!(spell.name, *name);
                assert!(spell.classes.contains(&list), "{name} is not {list:?}");
            }
            for pick in picks(list) {
                let spell = book.get(pick.name).unwrap();
                assert_eq!(spell.level.value(), pick.spell_level, "{}", pick.name);
            }
        }
    }

    #[test]
    fn defaults_hold_as_many_cantrips_as_known() {
        for list in LISTS {
            for l in 1..=20 {
                let cantrips = picks(list)
                    .iter()
                    .filter(|pick| pick.spell_level == 0)
                    .filter(|pick| default_spells(list, level(l)).contains(&pick.name))
                    .count();
                assert_eq!(
                    cantrips,
                    usize::from(cantrips_known(list, level(l))),
                    "{list:?} at {l}"
                );
            }
        }
    }

    fn caster_kind() -> impl Strategy<Value = CasterKind> {
        prop::sample::select(vec![CasterKind::Full, CasterKind::Half])
    }

    fn spell_list() -> impl Strategy<Value = SpellList> {
        prop::sample::select(LISTS.to_vec())
    }

    proptest! {
        #[test]
        fn slots_never_decrease_with_level(kind in caster_kind(), l in 1..20i64) {
            let before = slots(kind, level(l));
            let after = slots(kind, level(l + 1));
            for spell_level in 0..9 {
                prop_assert!(after[spell_level] >= before[spell_level]);
            }
            prop_assert!(
                highest_slot_level(kind, level(l + 1)) >= highest_slot_level(kind, level(l))
            );
        }

        #[test]
        fn a_spell_level_has_slots_only_if_the_one_below_has(
            kind in caster_kind(),
            l in 1..=20i64,
        ) {
            let slots = slots(kind, level(l));
            for spell_level in 1..9 {
                prop_assert!(slots[spell_level] == 0 || slots[spell_level - 1] > 0);
            }
            let highest = usize::from(highest_slot_level(kind, level(l)));
            prop_assert!(slots[highest..].iter().all(|&count| count == 0));
            prop_assert!(highest == 0 || slots[highest - 1] > 0);
        }

        #[test]
        fn default_spells_only_grow_and_need_slots(list in spell_list(), l in 1..20i64) {
            let before = default_spells(list, level(l));
            let after = default_spells(list, level(l + 1));
            for name in &before {
                prop_assert!(after.contains(name), "{:?} loses {} at {}", list, name, l + 1);
            }
            let highest = highest_slot_level(kind_of(list), level(l + 1));
            for name in &after {
                let pick = picks(list).iter().find(|pick| pick.name == *name);
                prop_assert!(pick.is_some_and(|pick| pick.spell_level <= highest));
                prop_assert!(class_list(list).contains(name));
            }
        }
    }
}
