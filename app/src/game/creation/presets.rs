//! The classes the form offers (Fighter, Rogue, Wizard, Cleric, Ranger, Bard) with their hit
//! die, score priorities, gear, signature abilities and proficiencies; the gear every class
//! brings; and what a class of the player's own gets instead.

use super::STANDARD_ARRAY;
use crate::game::attributes::{Attribute, Attributes};
use crate::game::proficiency::{ClassProficiencies, Skill};
use crate::game::progression::HitDie;

/// A class the form offers, with everything it brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassPreset {
    /// Its name.
    pub name: &'static str,
    /// Its hit die.
    pub hit_die: HitDie,
    /// Attributes from most to least important: the standard array is arranged in this order.
    pub priorities: [Attribute; 6],
    /// Its gear beyond the common gear: name, description, quantity. The first weapon, armour
    /// and shield come equipped.
    pub gear: &'static [(&'static str, &'static str, u16)],
    /// The names of the gear it gained when items became typed (armour, a second weapon): a
    /// character created before then did not carry it.
    pub gear_added_with_kinds: &'static [&'static str],
    /// Its signature abilities: name, what it does.
    pub abilities: &'static [(&'static str, &'static str)],
    /// Its saving throws and the skills it chooses from (SRD 5.1).
    pub proficiencies: ClassProficiencies,
}

use Attribute::{
    Charisma as Cha, Constitution as Con, Dexterity as Dex, Intelligence as Int, Strength as Str,
    Wisdom as Wis,
};

/// Every class offers these.
pub const COMMON_GEAR: &[(&str, &str, u16)] = &[
    ("Healing potion", "Drink to heal 2d4+2 HP.", 1),
    ("Torch", "Burns for an hour.", 2),
    ("Rations", "A day's food.", 3),
];

/// The hit die of a class that is not a preset.
pub const CUSTOM_HIT_DIE: HitDie = HitDie::D8;

/// How many skills a class that is not a preset chooses (from all of them).
pub const CUSTOM_SKILLS: usize = 2;

/// What the class (a preset, or the player's own with these `attributes`) offers: a preset's
/// saves and skills, or for a custom class the saves of its two highest scores (the first in
/// sheet order on a tie) and any two skills.
pub fn class_proficiencies(
    preset: Option<&ClassPreset>,
    attributes: &Attributes,
) -> ClassProficiencies {
    if let Some(preset) = preset {
        return preset.proficiencies;
    }
    let mut ranked = Attribute::ALL;
    // A stable sort keeps sheet order among equal scores.
    ranked.sort_by_key(|attribute| std::cmp::Reverse(attributes.get(*attribute)));
    ClassProficiencies {
        saves: [ranked[0], ranked[1]],
        skills: &[],
        choose: CUSTOM_SKILLS,
    }
}

/// The preset classes.
pub const PRESETS: [ClassPreset; 6] = [
    ClassPreset {
        name: "Fighter",
        hit_die: HitDie::D10,
        priorities: [Str, Con, Dex, Wis, Cha, Int],
        gear: &[
            ("Longsword", "1d8 slashing.", 1),
            ("Chain mail", "Heavy armour: AC 16.", 1),
            ("Shield", "+2 to defence.", 1),
        ],
        gear_added_with_kinds: &["Chain mail"],
        abilities: &[
            (
                "Second Wind",
                "Once per rest, heal 1d10 + level HP in a breath.",
            ),
            ("Action Surge", "Once per rest, act twice in a moment."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Str, Con],
            skills: &[
                Skill::Acrobatics,
                Skill::AnimalHandling,
                Skill::Athletics,
                Skill::History,
                Skill::Insight,
                Skill::Intimidation,
                Skill::Perception,
                Skill::Survival,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Rogue",
        hit_die: HitDie::D8,
        priorities: [Dex, Int, Con, Cha, Wis, Str],
        gear: &[
            ("Shortsword", "1d6 piercing; finesse.", 1),
            ("Dagger", "1d4 piercing; can be thrown.", 2),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
            ("Thieves' tools", "Picks and files for locks and traps.", 1),
        ],
        gear_added_with_kinds: &["Shortsword", "Leather armor"],
        abilities: &[
            (
                "Sneak Attack",
                "+2d6 damage on a strike the foe does not see coming.",
            ),
            ("Cunning Action", "Hide, dash or slip away in a moment."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Dex, Int],
            skills: &[
                Skill::Acrobatics,
                Skill::Athletics,
                Skill::Deception,
                Skill::Insight,
                Skill::Intimidation,
                Skill::Investigation,
                Skill::Perception,
                Skill::Performance,
                Skill::Persuasion,
                Skill::SleightOfHand,
                Skill::Stealth,
            ],
            choose: 4,
        },
    },
    ClassPreset {
        name: "Wizard",
        hit_die: HitDie::D6,
        priorities: [Int, Con, Dex, Wis, Cha, Str],
        gear: &[
            ("Quarterstaff", "1d6 bludgeoning.", 1),
            ("Spellbook", "Your spells, in your hand.", 1),
        ],
        gear_added_with_kinds: &[],
        abilities: &[
            ("Arcane Bolt", "1d10 force damage to a foe you can see."),
            (
                "Ritual Lore",
                "Read old scripts and name the magic in a thing.",
            ),
        ],
        proficiencies: ClassProficiencies {
            saves: [Int, Wis],
            skills: &[
                Skill::Arcana,
                Skill::History,
                Skill::Insight,
                Skill::Investigation,
                Skill::Medicine,
                Skill::Religion,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Cleric",
        hit_die: HitDie::D8,
        priorities: [Wis, Con, Str, Cha, Dex, Int],
        gear: &[
            ("Mace", "1d6 bludgeoning.", 1),
            ("Scale mail", "Medium armour: AC 14 + DEX (max 2).", 1),
            ("Shield", "+2 to defence.", 1),
            ("Holy symbol", "Your god's sign.", 1),
        ],
        gear_added_with_kinds: &["Scale mail", "Shield"],
        abilities: &[
            (
                "Healing Word",
                "Once per rest, heal 1d4 + WIS HP at a word.",
            ),
            ("Turn the Dead", "The undead flee from your raised symbol."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Wis, Cha],
            skills: &[
                Skill::History,
                Skill::Insight,
                Skill::Medicine,
                Skill::Persuasion,
                Skill::Religion,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Ranger",
        hit_die: HitDie::D10,
        priorities: [Dex, Wis, Con, Str, Int, Cha],
        gear: &[
            ("Longbow", "1d8 piercing at range.", 1),
            ("Arrows", "For the bow.", 20),
            ("Shortsword", "1d6 piercing; finesse.", 1),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
        ],
        gear_added_with_kinds: &["Shortsword", "Leather armor"],
        abilities: &[
            ("Hunter's Mark", "+1d6 damage against the quarry you name."),
            (
                "Wanderer",
                "Never lost in the wild; you read tracks easily.",
            ),
        ],
        proficiencies: ClassProficiencies {
            saves: [Str, Dex],
            skills: &[
                Skill::AnimalHandling,
                Skill::Athletics,
                Skill::Insight,
                Skill::Investigation,
                Skill::Nature,
                Skill::Perception,
                Skill::Stealth,
                Skill::Survival,
            ],
            choose: 3,
        },
    },
    ClassPreset {
        name: "Bard",
        hit_die: HitDie::D8,
        priorities: [Cha, Dex, Con, Wis, Int, Str],
        gear: &[
            ("Lute", "Fine and loud.", 1),
            ("Rapier", "1d8 piercing.", 1),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
        ],
        gear_added_with_kinds: &["Leather armor"],
        abilities: &[
            (
                "Inspiration",
                "Once per rest, add 1d6 to a roll of yours or a friend's.",
            ),
            ("Silver Tongue", "Friendly listeners believe you."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Dex, Cha],
            skills: &[],
            choose: 3,
        },
    },
];

/// The preset called `name` (any case), if there is one.
pub fn preset(name: &str) -> Option<&'static ClassPreset> {
    PRESETS
        .iter()
        .find(|preset| preset.name.eq_ignore_ascii_case(name.trim()))
}

impl ClassPreset {
    /// The standard array arranged by this class's priorities, in sheet order.
    pub fn suggested_scores(&self) -> [u8; 6] {
        let mut scores = [0; 6];
        for (attribute, score) in self.priorities.iter().zip(STANDARD_ARRAY) {
            let slot = Attribute::ALL.iter().position(|a| a == attribute);
            scores[slot.unwrap_or_default()] = score;
        }
        scores
    }
}
