//! What a hero's magic and class powers leave the rules to count: the spells they know, the slots
//! spent, the spell they concentrate on, the uses of their class features, and when they last
//! rested. Slots and uses themselves come from the class and level
//! ([`spellcasting`](super::spellcasting), [`features`](super::features)); the sheet keeps only
//! what was spent, so a level gained brings its slots at once.
//!
//! Sheets made before powers counted have none ([`CharacterSheet::powers`] is `None`): they
//! cast nothing and rest as they always did, so their logs read back as they were played.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeBonus};
use super::dice::{DiceExpr, Roll};
use super::features::{self, Feature, Recharge};
use super::sheet::CharacterSheet;
use super::spellcasting::{self, Spellcasting};
use super::spells::{Spell, SpellBook, SpellEffect, SpellLevel, UnknownSpell};
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

impl CharacterSheet {
    /// The powers the rules count, `None` on a sheet made before they counted.
    pub fn powers(&self) -> Option<&Powers> {
        self.powers.as_ref()
    }

    /// How the hero casts, if they do.
    pub fn spellcasting(&self) -> Option<Spellcasting> {
        self.powers.as_ref()?.casting
    }

    /// The casting ability's modifier with the proficiency bonus, as a roll's bonus.
    fn casting_bonus(&self) -> Option<(Attribute, i8)> {
        let casting = self.spellcasting()?;
        Some((
            casting.ability,
            self.attributes().get(casting.ability).modifier(),
        ))
    }

    /// The spell save DC: 8 + proficiency + the casting modifier.
    pub fn spell_save_dc(&self) -> Option<u8> {
        let (_, modifier) = self.casting_bonus()?;
        Some(spellcasting::save_dc(self.proficiency_bonus(), modifier))
    }

    /// The spell attack bonus: proficiency + the casting modifier.
    pub fn spell_attack_bonus(&self) -> Option<i8> {
        let (_, modifier) = self.casting_bonus()?;
        Some(spellcasting::attack_bonus(
            self.proficiency_bonus(),
            modifier,
        ))
    }

    /// The casting modifier (0 for a hero who casts nothing).
    pub fn casting_modifier(&self) -> i8 {
        self.casting_bonus().map_or(0, |(_, modifier)| modifier)
    }

    /// Slots by spell level 1..=9: how many the class and level give and how many are left.
    pub fn spell_slots(&self) -> [(u8, u8); 9] {
        let mut out = [(0, 0); 9];
        let Some(powers) = &self.powers else {
            return out;
        };
        let Some(casting) = powers.casting else {
            return out;
        };
        let totals = spellcasting::slots(casting.kind, self.level());
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = (totals[i], totals[i].saturating_sub(powers.slots_spent[i]));
        }
        out
    }

    /// The spells the hero knows, in the order learned.
    pub fn known_spells(&self) -> Vec<&'static Spell> {
        let book = SpellBook::srd();
        self.powers
            .iter()
            .flat_map(|powers| powers.known.iter())
            .filter_map(|slug| book.get(slug.as_str()).ok())
            .collect()
    }

    /// The class features the hero has at this level, with uses left and in all (none for
    /// the ones without a count).
    pub fn features(&self) -> Vec<(Feature, Option<(u8, u8)>)> {
        let Some(powers) = &self.powers else {
            return Vec::new();
        };
        features::of_class(self.class().as_str(), self.level())
            .into_iter()
            .map(|feature| {
                let uses = feature.uses(self.level(), self.attributes()).map(|total| {
                    let spent = powers.uses_spent.get(&feature).copied().unwrap_or(0);
                    (total.saturating_sub(spent), total)
                });
                (feature, uses)
            })
            .collect()
    }

    /// The known spell `name` and the slot it would spend: the lowest one left of its level or
    /// higher (none for a cantrip), or `slot` when given. Why not, if it cannot be cast.
    pub fn castable(
        &self,
        name: &str,
        slot: Option<SpellLevel>,
    ) -> Result<(&'static Spell, SpellLevel), PowerError> {
        let powers = self.powers.as_ref().ok_or(PowerError::NoPowers)?;
        let spell = SpellBook::srd().get(name)?;
        if self.hit_points().current() == 0 {
            return Err(PowerError::Down);
        }
        if powers.casting.is_none() {
            return Err(PowerError::NotACaster);
        }
        if !powers.known.contains(&spell.slug()) {
            return Err(PowerError::NotKnown {
                spell: spell.name.clone(),
            });
        }
        if spell.level.is_cantrip() {
            return Ok((spell, SpellLevel::CANTRIP));
        }
        let slots = self.spell_slots();
        let left = |level: u8| slots[usize::from(level) - 1].1 > 0;
        match slot {
            Some(slot) if slot < spell.level => Err(PowerError::SlotTooLow {
                spell: spell.name.clone(),
                level: spell.level.ordinal(),
            }),
            Some(slot) if left(slot.value()) => Ok((spell, slot)),
            Some(slot) => Err(PowerError::NoSlot {
                level: slot.ordinal(),
            }),
            None => (spell.level.value()..=SpellLevel::MAX)
                .find(|&level| left(level))
                .and_then(|level| SpellLevel::new(level).ok())
                .map(|level| (spell, level))
                .ok_or(PowerError::NoSlot {
                    level: spell.level.ordinal(),
                }),
        }
    }

    /// The feature `feature` if the hero has it with a use left (or it has no count).
    pub fn usable(&self, feature: Feature) -> Result<(), PowerError> {
        if self.hit_points().current() == 0 {
            return Err(PowerError::Down);
        }
        let (_, uses) = self
            .features()
            .into_iter()
            .find(|(f, _)| *f == feature)
            .ok_or(PowerError::NotYours {
                feature: feature.name(),
            })?;
        match uses {
            Some((0, _)) => Err(PowerError::NoUse {
                feature: feature.name(),
                rest: match feature.recharge() {
                    Some(Recharge::ShortRest) => "a short rest",
                    _ => "a long rest",
                },
            }),
            _ => Ok(()),
        }
    }

    /// The dice a healing spell cast with a `slot` heals with (the casting modifier added when
    /// the spell says so).
    pub fn healing_dice(&self, spell: &Spell, slot: SpellLevel) -> Option<DiceExpr> {
        let SpellEffect::Healing { add_modifier, .. } = &spell.effect else {
            return None;
        };
        let figures = spell.figures(slot, self.level().value()).ok()?;
        let dice = figures.dice?;
        let bonus = if *add_modifier {
            i32::from(self.casting_modifier())
        } else {
            0
        };
        DiceExpr::parse(&dice.notation_with_bonus(dice.modifier() + bonus)).ok()
    }

    /// A hit die as the rules roll it on a short rest: the die plus the CON modifier.
    pub fn hit_die_roll(&self) -> (DiceExpr, AttributeBonus) {
        let dice = DiceExpr::parse(&format!("1d{}", self.hit_die().sides())).expect("a die");
        let bonus = AttributeBonus {
            attribute: Attribute::Constitution,
            modifier: self.attributes().constitution.modifier(),
            proficiency: 0,
        };
        (dice, bonus)
    }
}

impl CharacterSheet {
    /// The same character with `powers`.
    pub fn with_powers(mut self, powers: Powers) -> Self {
        self.powers = Some(powers);
        self
    }

    /// The same sheet as it was made before powers counted (files exported then have none).
    pub fn before_powers(mut self) -> Self {
        self.powers = None;
        self
    }
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
