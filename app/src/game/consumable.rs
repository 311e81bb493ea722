//! Using a consumable through the rules: [`StateDelta::use_item`] checks the item and rolls its
//! dice with the RNG passed in, and [`StateDelta::UseItem`] carries that roll, so that applying
//! it again (a replay, an imported file) gets the same result and a roll its dice cannot show is
//! refused.
//!
//! One use takes one of the item and does its effect: healing adds the roll's total up to
//! maximum hit points (at 0 HP it brings the character back), a cure ends its condition. Using
//! what is not carried or not a consumable, healing at full hit points and curing a condition
//! the character does not have are errors that change nothing, and nothing is used up.

use rand::Rng;

use super::dice::Roll;
use super::inventory::{InventoryError, Item};
use super::item_kind::Effect;
use super::sheet::CharacterSheet;
use super::text::{ConditionName, ItemName, Slug};

/// Why a carried item cannot be used. The message is written for the model and the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UseError {
    /// The character has died (the message is the sheet's own for any change then).
    #[error("The character has fallen and the story is over; nothing more changes")]
    Fallen,
    /// The item is not carried.
    #[error(transparent)]
    NotCarried(#[from] InventoryError),
    /// Gear, a weapon or armour.
    #[error("{name} is not something to use up")]
    NotConsumable {
        /// The item's name.
        name: ItemName,
    },
    /// Healing at full hit points.
    #[error("Already at full hit points; the {name} would be wasted")]
    Unhurt {
        /// The item's name.
        name: ItemName,
    },
    /// A cure for a condition the character does not have.
    #[error("Not {condition}, so the {name} would do nothing")]
    NotAffected {
        /// The item's name.
        name: ItemName,
        /// The condition it cures.
        condition: ConditionName,
    },
    /// A roll that is not what the item's effect rolls (or a roll for an effect without dice).
    #[error("The roll given for the {name} is not what its effect rolls")]
    Roll {
        /// The item's name.
        name: ItemName,
    },
}

/// What one use of an item does to the sheet.
pub(in crate::game) enum Outcome {
    /// Heal this many hit points (up to the maximum).
    Heal(i32),
    /// End this condition.
    Cure(ConditionName),
}

/// The carried consumable `slug` and its effect, if using it now would do something.
fn usable<'a>(sheet: &'a CharacterSheet, slug: &Slug) -> Result<(&'a Item, &'a Effect), UseError> {
    if sheet.vitality.is_dead() {
        return Err(UseError::Fallen);
    }
    let item = sheet
        .inventory
        .get(slug)
        .ok_or_else(|| InventoryError::NoSuchItem { slug: slug.clone() })?;
    let name = || item.name().clone();
    let effect = item
        .kind()
        .effect()
        .ok_or_else(|| UseError::NotConsumable { name: name() })?;
    match effect {
        Effect::Heal(_) if sheet.hit_points.current() == sheet.hit_points.max() => {
            Err(UseError::Unhurt { name: name() })
        }
        Effect::Cure(condition) if sheet.conditions.get(condition).is_none() => {
            Err(UseError::NotAffected {
                name: name(),
                condition: condition.clone(),
            })
        }
        _ => Ok((item, effect)),
    }
}

/// What using `slug` with `roll` does, or why it cannot be used: the item must be a carried
/// consumable whose effect would do something, and `roll` exactly what its dice show (no roll
/// for an effect without dice).
pub(in crate::game) fn outcome(
    sheet: &CharacterSheet,
    slug: &Slug,
    roll: Option<&Roll>,
) -> Result<Outcome, UseError> {
    let (item, effect) = usable(sheet, slug)?;
    let wrong_roll = || UseError::Roll {
        name: item.name().clone(),
    };
    match (effect, roll) {
        (Effect::Heal(dice), Some(roll)) if roll.attribute().is_none() && dice.explains(roll) => {
            Ok(Outcome::Heal(roll.total()))
        }
        (Effect::Cure(condition), None) => Ok(Outcome::Cure(condition.clone())),
        _ => Err(wrong_roll()),
    }
}

impl CharacterSheet {
    /// Whether using the carried consumable `slug` now would do something.
    pub fn can_use(&self, slug: &Slug) -> bool {
        usable(self, slug).is_ok()
    }
}

/// The roll one use of the carried item `slug` takes (none for an effect without dice), made
/// with `rng`; an error, before any die is rolled, when it cannot be used now.
pub(in crate::game) fn roll_for_use<R: Rng + ?Sized>(
    sheet: &CharacterSheet,
    slug: &Slug,
    rng: &mut R,
) -> Result<Option<Roll>, UseError> {
    let (_, effect) = usable(sheet, slug)?;
    Ok(match effect {
        Effect::Heal(dice) => Some(dice.roll(rng)),
        Effect::Cure(_) => None,
    })
}

#[cfg(test)]
mod tests;
