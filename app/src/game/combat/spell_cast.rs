//! A spell as the fight casts it, and what it leaves holding: the [`SpellCast`] worked out from
//! the sheet and its [`CastEffect`], the [`Held`] spell the caster concentrates on, and the
//! [`SpellHold`]s it puts on foes. Plain data, below both the encounter that keeps them and the
//! casting that makes them.

use serde::{Deserialize, Serialize};

use super::foe::FoeCondition;
use crate::game::bestiary::{AttackName, Damage};
use crate::game::dice::DiceExpr;
use crate::game::spells::{Delivery, RiderOn, SpellCondition, SpellLevel};

/// What a cast spell does, its dice worked out for the slot and the caster's level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CastEffect {
    /// Damage: `beams` strikes of `damage`.
    Damage {
        /// Each strike's damage.
        damage: Damage,
        /// How many strikes.
        beams: u8,
    },
    /// Healing for the caster (modifier included).
    Healing {
        /// The dice.
        dice: DiceExpr,
    },
    /// A pool of hit points: the weakest foes fall under the condition first.
    Pool {
        /// The pool's dice.
        dice: DiceExpr,
    },
    /// The condition alone.
    Condition,
    /// Dice added to the caster's rolls while they concentrate.
    Rider {
        /// The dice.
        dice: DiceExpr,
        /// On which rolls.
        on: RiderOn,
    },
    /// The caster's armour class rises.
    Ward {
        /// By how much.
        bonus: u8,
    },
    /// Nothing the fight counts: the narrator tells it.
    Utility,
}

/// A spell as the fight casts it, everything worked out from the sheet and the spell book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellCast {
    /// The spell's name (`Magic Missile`).
    pub spell: String,
    /// The name its attacks go by (`magic missile`).
    pub attack_name: AttackName,
    /// The slot spent (a cantrip: level 0).
    pub slot: SpellLevel,
    /// How it lands.
    pub delivery: Delivery,
    /// What it does.
    pub effect: CastEffect,
    /// The condition it puts on the foes it lands on.
    pub condition: Option<SpellCondition>,
    /// The caster's spell attack bonus.
    pub attack_bonus: i8,
    /// The caster's spell save DC.
    pub save_dc: u8,
    /// Whether it needs concentration.
    pub concentration: bool,
    /// How many foes it reaches at most.
    pub reach: u8,
}

/// A spell the caster concentrates on in this fight, and what ends with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Held {
    /// The spell (none: one cast before the fight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<String>,
    /// Dice riding on the caster's rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rider: Option<(DiceExpr, RiderOn)>,
    /// The foe a damage rider is bound to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marked: Option<usize>,
    /// The caster's armour class bonus while it holds.
    #[serde(default)]
    pub armor_bonus: u8,
}

/// A condition a spell put on a foe, until a round (or concentration) ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellHold {
    /// The foe's index.
    pub foe: usize,
    /// The condition.
    pub condition: FoeCondition,
    /// The round at whose start it ends.
    pub until_round: u16,
    /// Whether it ends with the caster's concentration.
    pub concentration: bool,
}
