//! The moves the rules offer the player in a fight, and the step each one plays.

use serde::{Deserialize, Serialize};

use super::FightStep;
use crate::game::features::Feature;
use crate::game::spells::SpellLevel;
use crate::game::text::Slug;

/// A move the rules offer the player in a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "move",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FightMove {
    /// Attack a foe with a carried weapon (the equipped one when `None`).
    Attack {
        /// The foe's label.
        target: String,
        /// The weapon's slug.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<Slug>,
    },
    /// Dodge.
    Dodge,
    /// Try to get away.
    Flee,
    /// Use a carried consumable (it takes the turn).
    Use {
        /// The item's slug.
        item: Slug,
    },
    /// Cast a known spell.
    Cast {
        /// The spell's slug.
        spell: Slug,
        /// The foes.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
        /// The slot's level (the lowest left when none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<SpellLevel>,
    },
    /// Use a class feature.
    Feature {
        /// The feature.
        feature: Feature,
        /// The foe.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
}

/// Why a consumable was used up in a fight, in the ledger.
pub const USED_IN_FIGHT: &str = "Used in the fight";

impl FightMove {
    /// The fight's step for this move (using an item spends the turn).
    pub fn step(&self) -> FightStep {
        match self {
            FightMove::Attack { target, weapon } => FightStep::Attack {
                target: target.clone(),
                weapon: weapon.clone(),
            },
            FightMove::Dodge => FightStep::Dodge,
            FightMove::Flee => FightStep::Flee,
            FightMove::Use { .. } => FightStep::Pass,
            FightMove::Cast {
                spell,
                targets,
                slot,
            } => FightStep::Cast {
                spell: spell.clone(),
                targets: targets.clone(),
                slot: *slot,
            },
            FightMove::Feature { feature, target } => FightStep::Feature {
                feature: *feature,
                target: target.clone(),
            },
        }
    }
}
