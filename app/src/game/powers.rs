//! What a hero's magic and class powers leave the rules to count: the spells they know, the slots
//! spent, the spell they concentrate on, the uses of their class features, and when they last
//! rested. Slots and uses themselves come from the class and level
//! ([`spellcasting`](super::spellcasting), [`features`](super::features)); the sheet keeps only
//! what was spent, so a level gained brings its slots at once.
//!
//! Sheets made before powers counted have none
//! ([`CharacterSheet::powers`](super::sheet::CharacterSheet::powers) is `None`): they cast
//! nothing and rest as they always did, so their logs read back as they were played. What the
//! sheet makes of its powers (slots left, the spells it can cast, its save DC) is worked out on
//! the sheet's side, in `sheet/powers.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dice::{DiceExpr, Roll};
use super::features::Feature;
use super::spellcasting::Spellcasting;
use super::spells::{Spell, SpellBook, UnknownSpell};
use super::text::Slug;

/// How long after a long rest ends the next may begin: a long rest at most once in 24 hours.
pub const LONG_REST_GAP_MINUTES: u32 = 16 * 60;

/// The powers a hero has spent and knows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Powers {
    /// How the hero casts, if they do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) casting: Option<Spellcasting>,
    /// The spells known or prepared, by slug, in the order learned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) known: Vec<Slug>,
    /// Slots spent since the last long rest, by spell level (index 0 is 1st level).
    #[serde(default, skip_serializing_if = "no_slots_spent")]
    pub(in crate::game) slots_spent: [u8; 9],
    /// The spell the hero concentrates on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) concentration: Option<Slug>,
    /// Uses of class features spent since they last came back.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(in crate::game) uses_spent: BTreeMap<Feature, u8>,
    /// The game minute the last long rest ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) long_rest_ended: Option<u32>,
    /// The game minute the last short rest ended: hit dice may be spent while time stands there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) short_rest_ended: Option<u32>,
}

fn no_slots_spent(spent: &[u8; 9]) -> bool {
    spent.iter().all(|&n| n == 0)
}

impl Powers {
    /// Powers for a new hero: `casting` (or none) and the spells `known`.
    pub fn new(casting: Option<Spellcasting>, known: Vec<Slug>) -> Self {
        Self {
            casting,
            known,
            ..Self::default()
        }
    }

    /// How the hero casts, if they do.
    pub fn casting(&self) -> Option<Spellcasting> {
        self.casting
    }

    /// The game minute the last short rest ended, if one has since the last long rest.
    pub fn short_rest_ended(&self) -> Option<u32> {
        self.short_rest_ended
    }

    /// The spell concentrated on, if any.
    pub fn concentration(&self) -> Option<&'static Spell> {
        let slug = self.concentration.as_ref()?;
        SpellBook::srd().get(slug.as_str()).ok()
    }
}

/// A spell, feature or rest the rules refuse; nothing changed. Written for the player and the
/// model alike.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PowerError {
    /// A sheet made before powers counted.
    #[error("This character was made before spells and class features counted")]
    NoPowers,
    /// A hero at 0 HP (or fallen) casts nothing and uses no feature.
    #[error("You are at 0 HP and can neither cast nor use a class feature")]
    Down,
    /// A spell the book lacks.
    #[error(transparent)]
    Unknown(#[from] UnknownSpell),
    /// A hero who casts no spells.
    #[error("You cast no spells")]
    NotACaster,
    /// A spell the hero does not know.
    #[error("You don't know {spell}")]
    NotKnown {
        /// The spell.
        spell: String,
    },
    /// A slot below the spell's level.
    #[error("{spell} needs a {level} slot or higher")]
    SlotTooLow {
        /// The spell.
        spell: String,
        /// Its level, in words.
        level: String,
    },
    /// Every slot of the level spent.
    #[error("No {level} slot left")]
    NoSlot {
        /// The level, in words.
        level: String,
    },
    /// A feature the class lacks at this level.
    #[error("{feature} is not one of your features")]
    NotYours {
        /// The feature.
        feature: &'static str,
    },
    /// Every use of a feature spent.
    #[error("No use of {feature} left; {rest} brings it back")]
    NoUse {
        /// The feature.
        feature: &'static str,
        /// Which rest.
        rest: &'static str,
    },
    /// Dice that are not the spell's or the feature's.
    #[error("the roll {notation} is not {expected}")]
    WrongDice {
        /// The roll's notation.
        notation: String,
        /// The dice it should have been.
        expected: String,
    },
    /// A second long rest too soon.
    #[error("You had a long rest less than a day ago; the next can begin at {ready}")]
    LongRestTooSoon {
        /// When it can begin (`day 2, 14:00`).
        ready: String,
    },
    /// Hit dice spent outside a short rest.
    #[error("Hit dice are spent at the end of a short rest; take one first")]
    NotResting,
    /// Every hit die spent.
    #[error("No hit dice left to spend; a long rest brings half of them back")]
    NoHitDice,
    /// A feature used where it does nothing (Arcane Recovery with no slot spent).
    #[error("{0}")]
    Pointless(&'static str),
}

/// `roll` is what the `expected` dice give (no roll where there are no dice, one where there
/// are), or it is refused.
pub(in crate::game) fn check_roll(
    expected: Option<&DiceExpr>,
    roll: Option<&Roll>,
) -> Result<(), PowerError> {
    match (expected, roll) {
        (Some(dice), Some(roll)) if dice.explains(roll) => Ok(()),
        (None, None) => Ok(()),
        _ => Err(PowerError::WrongDice {
            notation: roll.map_or("no roll", Roll::notation).to_owned(),
            expected: expected.map_or("no dice".to_owned(), |d| {
                d.notation_with_bonus(d.modifier())
            }),
        }),
    }
}
