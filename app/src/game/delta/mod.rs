//! Typed state changes ([`StateDelta`]) and the one place they are applied.
//!
//! [`StateDelta::apply`] validates and clamps: hit points stay in 0..=max, max HP in 1..=999,
//! level in 1..=20, attributes in 1..=30, sanity in 0..=100, quantities in 1..=999 (zero or below
//! removes the item). Changing an item that is not carried, removing a condition the character
//! does not have, adding past the inventory or condition limits, or changing sanity on a sheet
//! without it is a [`DeltaError`] whose message the model can read (`No item "sandwich" in
//! inventory`). On error the sheet is untouched; [`StateDelta::apply_all`] is atomic over a list.
//!
//! Items: [`StateDelta::Equip`] takes a carried weapon, armour or shield in hand (putting away
//! what held its slot), [`StateDelta::Unequip`] puts one away, and [`StateDelta::UseItem`] uses
//! one of a consumable with the roll [`StateDelta::use_item`] made (see
//! [`consumable`](super::consumable)).
//!
//! What actually changed comes back as [`Change`]s, each with a short player-facing
//! [`label`](Change::label) for the story log's chips: `−5 HP`, `+ Rusty key`, `+2 Torch`,
//! `− Rope`, `Poisoned`, `Equipped: Longsword`. Labels use the real minus sign `−` (U+2212), which reads better than a
//! hyphen in the UI; model-facing text elsewhere stays ASCII.
//!
//! Files: this one holds the delta type, its errors and the rest kinds; `change.rs` what
//! changed and its labels; `apply.rs` applying a delta (all or nothing); `hp.rs` hit points and
//! the vitality they give; `scores.rs` level, experience, attribute scores and sanity;
//! `items.rs` items carried, equipped and used; `rest.rs` time passing and the rests;
//! `powers.rs` spells, class features and hit dice; `concentration.rs` the spell held.

mod apply;
mod change;
mod concentration;
mod hp;
mod items;
mod powers;
mod rest;
mod scores;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use change::{AppliedChanges, Change};

use super::attributes::Attribute;
use super::conditions::{Condition, ConditionError};
use super::consumable::UseError;
use super::dice::Roll;
use super::features::Feature;
use super::improvement::{AbilityImprovement, ImprovementError};
use super::inventory::{InventoryError, NewItem};
use super::powers::PowerError;
use super::progression::MAX_AWARD;
use super::spells::SpellLevel;
use super::text::{ConditionName, LocationName, Slug};

/// One requested change to the character sheet. Numbers are clamped into their ranges when
/// applied, so they are plain integers here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum StateDelta {
    /// Hit points up (healing) or down (damage) by `amount`.
    ChangeHp {
        /// The change, negative for damage.
        amount: i32,
    },
    /// Hit points set to `hp`.
    SetHp {
        /// The new value, clamped into 0..=max.
        hp: i32,
    },
    /// Maximum hit points set to `max_hp`; current hit points above it drop to it.
    SetMaxHp {
        /// The new maximum, clamped into 1..=999.
        max_hp: i32,
    },
    /// The level set to `level`.
    SetLevel {
        /// The new level, clamped into 1..=20.
        level: i32,
    },
    /// An attribute score set.
    SetAttribute {
        /// Which attribute.
        attribute: Attribute,
        /// The new score, clamped into 1..=30.
        score: i32,
    },
    /// Sanity up or down by `amount` (an error if the sheet has no sanity).
    ChangeSanity {
        /// The change, negative for a loss.
        amount: i32,
    },
    /// An item given, stacked onto a carried item with the same slug.
    AddItem {
        /// The item.
        item: NewItem,
    },
    /// A carried item's quantity changed; at zero or below it is removed.
    ChangeItemQuantity {
        /// The carried item.
        slug: Slug,
        /// The change, negative to use up or drop.
        change: i32,
    },
    /// A condition gained (or, if present, its duration and notes replaced).
    AddCondition {
        /// The condition.
        condition: Condition,
    },
    /// A condition lost.
    RemoveCondition {
        /// Its name, matched ignoring case.
        name: ConditionName,
    },
    /// The character moved.
    MoveTo {
        /// The new location.
        location: LocationName,
    },
    /// In-game time passed.
    AdvanceTime {
        /// How many minutes.
        minutes: u32,
    },
    /// Experience earned; crossing the next level's threshold gains that level and its hit
    /// points (see [`progression`](super::progression)).
    GainExperience {
        /// How much (at most one level's worth counts).
        amount: u32,
    },
    /// A death save whose d20 showed `die` (see [`stakes`](super::stakes)).
    DeathSave {
        /// The d20, 1..=20.
        die: u8,
    },
    /// A rest: a short one spends a hit die (its average plus CON back, an hour passes), a long
    /// one restores every hit point (eight hours pass). A dying character cannot rest.
    Rest {
        /// Which rest.
        kind: RestKind,
    },
    /// A carried weapon, armour or shield equipped; what held its slot is put away.
    Equip {
        /// The carried item.
        slug: Slug,
    },
    /// An equipped item put away (still carried).
    Unequip {
        /// The equipped item.
        slug: Slug,
    },
    /// One of a carried consumable used for its effect (made by [`StateDelta::use_item`]).
    UseItem {
        /// The carried consumable.
        slug: Slug,
        /// Its dice as rolled (healing), or none for an effect without dice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// An ability score improvement the player chose, spent when one is due (see
    /// [`improvement`](super::improvement)).
    ImproveAbilities {
        /// What is raised.
        improvement: AbilityImprovement,
    },
    /// A known spell cast outside a fight (a fight casts in its own steps): the slot of `slot`'s
    /// level spent (none for a cantrip), the concentration it needs taken up, and its healing
    /// dice as rolled (see [`powers`](super::powers)).
    CastSpell {
        /// The spell.
        spell: Slug,
        /// The slot's level (0 for a cantrip).
        slot: SpellLevel,
        /// Its healing dice as rolled, for a healing spell.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// A class feature used: a use spent, and its dice as rolled (Second Wind's healing).
    UseFeature {
        /// The feature.
        feature: Feature,
        /// Its dice as rolled, if it has any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// A hit die spent at the end of a short rest: the die plus CON, as rolled, heals.
    SpendHitDie {
        /// The roll.
        roll: Roll,
    },
    /// The spell concentrated on ends (a failed save, a blow that fells the hero).
    EndConcentration,
}

/// A short or a long rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RestKind {
    /// An hour's rest.
    Short,
    /// A night's sleep.
    Long,
}

/// Why a delta could not be applied. The message is written for the model (it becomes the tool
/// result) and for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeltaError {
    /// An inventory rule: a missing item or a full inventory.
    #[error(transparent)]
    Inventory(#[from] InventoryError),
    /// A condition rule: a missing condition or too many.
    #[error(transparent)]
    Condition(#[from] ConditionError),
    /// A sanity change on a sheet that does not track sanity.
    #[error("This character has no sanity score")]
    NoSanity,
    /// Any change to a character who has died.
    #[error("The character has fallen and the story is over; nothing more changes")]
    Fallen,
    /// A rest while dying.
    #[error("A dying character cannot rest; they must be stabilised or healed first")]
    Dying,
    /// A short rest with every hit die spent.
    #[error("No hit dice left to spend on a short rest; a long rest brings them back")]
    NoHitDice,
    /// Experience past the last level.
    #[error("Experience comes in awards of 1 to {MAX_AWARD}")]
    Award,
    /// A consumable that cannot be used now.
    #[error(transparent)]
    Use(UseError),
    /// An ability score improvement the rules refuse.
    #[error(transparent)]
    Improvement(#[from] ImprovementError),
    /// A spell, class feature or rest the rules refuse.
    #[error(transparent)]
    Power(#[from] PowerError),
}

/// A consumable's refusal as the sheet's: a fallen character and a missing item are refused as
/// every change is.
impl From<UseError> for DeltaError {
    fn from(error: UseError) -> Self {
        match error {
            UseError::Fallen => DeltaError::Fallen,
            UseError::NotCarried(error) => DeltaError::Inventory(error),
            other => DeltaError::Use(other),
        }
    }
}

impl StateDelta {
    /// The roll the delta carries, if any (a consumable's healing dice).
    pub fn roll(&self) -> Option<&Roll> {
        match self {
            StateDelta::UseItem { roll, .. }
            | StateDelta::CastSpell { roll, .. }
            | StateDelta::UseFeature { roll, .. } => roll.as_ref(),
            StateDelta::SpendHitDie { roll } => Some(roll),
            _ => None,
        }
    }
}
