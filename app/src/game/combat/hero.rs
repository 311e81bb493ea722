//! The hero as a fight sees them: the figures the caller works out from the sheet for each call
//! ([`Hero`]), and what the hero does on a turn ([`HeroAction`]).

use serde::{Deserialize, Serialize};

use super::profile::AttackProfile;
use super::spell_cast::SpellCast;
use crate::game::attributes::AttributeBonus;
use crate::game::bestiary::ArmorClass;
use crate::game::dice::{Check, DiceExpr, Edge};

/// The hero's figures in a fight, worked out by the caller from the sheet for each call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hero {
    /// The armour class foes roll against.
    pub armor_class: ArmorClass,
    /// Current hit points; the foes stop attacking when they reach 0.
    pub hit_points: u16,
    /// The initiative modifier (DEX), used when a fight starts.
    pub initiative: i8,
    /// Advantage or disadvantage on the hero's attacks (from the hero's own conditions).
    pub attack_edge: Edge,
    /// Advantage or disadvantage on attacks against the hero (besides dodging).
    pub defence_edge: Edge,
    /// The hero's maximum hit points (healing stops there).
    pub max_hit_points: u16,
    /// The hero's Constitution saving throw, rolled to keep concentrating when hurt.
    pub concentration_save: AttributeBonus,
    /// Whether the hero holds a spell cast before this call.
    pub concentrating: bool,
    /// Sneak Attack's d6s on the first hit with advantage each turn (0: none).
    pub sneak_attack_dice: u8,
}

impl Hero {
    /// A hero with `armor_class`, `hit_points` and DEX modifier `initiative`, no edges.
    pub fn new(armor_class: ArmorClass, hit_points: u16, initiative: i8) -> Self {
        Self {
            armor_class,
            hit_points,
            initiative,
            attack_edge: Edge::Normal,
            defence_edge: Edge::Normal,
            max_hit_points: hit_points,
            concentration_save: AttributeBonus {
                attribute: crate::game::attributes::Attribute::Constitution,
                modifier: 0,
                proficiency: 0,
            },
            concentrating: false,
            sneak_attack_dice: 0,
        }
    }
}

/// What the hero does on a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum HeroAction {
    /// Attack a foe, named by its label (`Goblin 2`) or, when one such foe stands, its kind.
    Attack {
        /// The foe.
        target: String,
        /// The weapon.
        weapon: AttackProfile,
    },
    /// Dodge: attacks against the hero have disadvantage until the hero's next turn.
    Dodge,
    /// Try to get away with a check the caller rolled; on a success the fight ends.
    Flee {
        /// The check.
        escape: Check,
    },
    /// Spend the turn on something the fight does not resolve (a potion, a shout).
    Pass,
    /// Cast a spell at the foes named (none for a spell on the caster); a bonus-action spell
    /// leaves the action for a strike with `strike`.
    Cast {
        /// The spell, worked out.
        cast: SpellCast,
        /// The foes, by label or kind.
        targets: Vec<String>,
        /// The weapon that strikes after a bonus-action spell, if any.
        strike: Option<AttackProfile>,
    },
    /// Attack a foe with a class feature's help: `strikes` attacks (two with Action Surge),
    /// after healing `heal` (Second Wind) or hiding with `hide` (Cunning Action: advantage on a
    /// success).
    Strike {
        /// The foe.
        target: String,
        /// The weapon.
        weapon: AttackProfile,
        /// How many attacks.
        strikes: u8,
        /// Healing dice rolled first.
        heal: Option<DiceExpr>,
        /// The hiding check rolled first.
        hide: Option<Check>,
    },
    /// Turn Undead: each undead foe saves (WIS) against `dc` or flees.
    TurnUndead {
        /// The cleric's spell save DC.
        dc: u8,
    },
}
