//! One spell as the rules read it: its level, how long it takes to cast, its reach, how it lands
//! (a spell attack, a saving throw, or surely), what it does (damage of a type, healing, a pool
//! of hit points it puts to sleep, a condition, or something the narrator tells) and how that
//! grows with the slot spent or, for a cantrip, with the caster's level.

use serde::{Deserialize, Serialize};

use crate::game::attributes::Attribute;
use crate::game::bestiary::DamageType;
use crate::game::combat::FoeCondition;
use crate::game::dice::DiceExpr;
use crate::game::text::Slug;

/// A spell's level: 0 for a cantrip, 1 to 9 for a spell that spends a slot of that level or
/// higher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct SpellLevel(u8);

/// A spell level past 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a spell level is 0 (a cantrip) to 9, not {0}")]
pub struct SpellLevelError(pub u8);

impl SpellLevel {
    /// A cantrip: no slot.
    pub const CANTRIP: SpellLevel = SpellLevel(0);
    /// The highest level a slot has.
    pub const MAX: u8 = 9;

    /// Level `value`, 0 to 9.
    pub fn new(value: u8) -> Result<Self, SpellLevelError> {
        (value <= Self::MAX)
            .then_some(Self(value))
            .ok_or(SpellLevelError(value))
    }

    /// The number, 0 to 9.
    pub fn value(self) -> u8 {
        self.0
    }

    /// Whether it is a cantrip.
    pub fn is_cantrip(self) -> bool {
        self.0 == 0
    }

    /// `cantrip`, `1st-level`, `2nd-level`, `3rd-level`, `4th-level`…
    pub fn ordinal(self) -> String {
        match self.0 {
            0 => "cantrip".to_owned(),
            1 => "1st-level".to_owned(),
            2 => "2nd-level".to_owned(),
            3 => "3rd-level".to_owned(),
            n => format!("{n}th-level"),
        }
    }
}

impl TryFrom<u8> for SpellLevel {
    type Error = SpellLevelError;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<SpellLevel> for u8 {
    fn from(level: SpellLevel) -> Self {
        level.0
    }
}

/// How long casting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CastingTime {
    /// The caster's action.
    Action,
    /// A bonus action: the caster may still act (only a cantrip besides, by the rules).
    BonusAction,
    /// A reaction to something that happens (Shield: when the caster is hit).
    Reaction,
    /// A minute or more: never in a fight.
    Minutes(u16),
}

/// How far the spell reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SpellRange {
    /// Only the caster (or an area around them).
    Caster,
    /// A creature the caster touches.
    Touch,
    /// This many feet.
    Feet(u16),
}

/// What a creature that makes its saving throw suffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OnSave {
    /// Half the damage, rounded down.
    Half,
    /// Nothing.
    Nothing,
}

/// How the spell lands on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Delivery {
    /// A spell attack: d20 + the caster's spell attack bonus against the target's armour class.
    Attack,
    /// The target saves: d20 + its modifier of `ability` against the caster's spell save DC.
    Save {
        /// The ability that saves.
        ability: Attribute,
        /// What a success spares it.
        on_save: OnSave,
    },
    /// It lands, no roll (Magic Missile, Cure Wounds, Sleep).
    Automatic,
}

/// What the spell does when it lands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SpellEffect {
    /// Damage of a type: `dice` for each of `beams` separate strikes (Magic Missile's three
    /// darts, Scorching Ray's three rays), each landing on its own.
    Damage {
        /// Each strike's dice.
        dice: DiceExpr,
        /// The type.
        damage_type: DamageType,
        /// Separate strikes (1 for most spells).
        #[serde(default = "one")]
        beams: u8,
    },
    /// Hit points back to the caster (or a touched friend): `dice`, plus the casting ability's
    /// modifier when `add_modifier`.
    Healing {
        /// The dice.
        dice: DiceExpr,
        /// Whether the casting modifier is added.
        #[serde(default)]
        add_modifier: bool,
    },
    /// A pool of hit points rolled with `dice`: the foes with the fewest current hit points fall
    /// under the spell's condition first, each while the pool covers it (Sleep).
    HitPointPool {
        /// The pool's dice.
        dice: DiceExpr,
    },
    /// Only the spell's condition (Hold Person, Faerie Fire).
    Condition,
    /// While the caster concentrates, `dice` ride on their rolls: added to each attack roll
    /// (Bless) or to the damage of each hit on the spell's target (Hunter's Mark).
    Rider {
        /// The dice added.
        dice: DiceExpr,
        /// Which rolls they ride on.
        on: RiderOn,
    },
    /// The caster's armour class rises by `bonus` until their next turn (Shield).
    ArmorBonus {
        /// The bonus.
        bonus: u8,
    },
    /// Something the rules do not count (light, a message, a door unlocked): the slot is spent and
    /// the narrator tells it.
    Utility,
}

/// The rolls a rider's dice are added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RiderOn {
    /// The caster's attack rolls.
    AttackRolls,
    /// The damage of the caster's hits on the spell's target.
    Damage,
}

fn one() -> u8 {
    1
}

/// How the spell grows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Scaling {
    /// It does not.
    None,
    /// A cantrip: its dice count once more at caster levels 5, 11 and 17 (beams, if more than
    /// one, grow instead).
    CasterLevel,
    /// Each slot level above the spell's adds these dice to each strike, the pool or the healing.
    SlotDice {
        /// The dice added for each level above.
        dice: DiceExpr,
    },
    /// Each slot level above the spell's adds this many strikes.
    SlotBeams {
        /// Strikes added for each level above.
        beams: u8,
    },
    /// Each slot level above the spell's adds this many targets.
    SlotTargets {
        /// Targets added for each level above.
        targets: u8,
    },
}

/// The condition a spell puts on the foes it lands on, and for how many rounds (a minute is 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellCondition {
    /// The condition.
    pub condition: FoeCondition,
    /// How many rounds it lasts at most (a concentration spell ends sooner when concentration
    /// does).
    pub rounds: u16,
}

/// A class that casts from the spell list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SpellList {
    /// Bard spells.
    Bard,
    /// Cleric spells.
    Cleric,
    /// Ranger spells.
    Ranger,
    /// Wizard spells.
    Wizard,
}

/// A spell as the rules know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spell {
    /// Its name (`Magic Missile`).
    pub name: String,
    /// Its level.
    pub level: SpellLevel,
    /// How long casting takes.
    pub casting_time: CastingTime,
    /// Whether it may be cast as a ritual (ten minutes more, no slot).
    #[serde(default)]
    pub ritual: bool,
    /// Its reach.
    pub range: SpellRange,
    /// How many foes it can reach at once (an area's reach in a fight), 1 for one target.
    #[serde(default = "one")]
    pub targets: u8,
    /// How it lands.
    pub delivery: Delivery,
    /// What it does.
    pub effect: SpellEffect,
    /// How it grows.
    #[serde(default = "no_scaling")]
    pub scaling: Scaling,
    /// The condition it puts on the foes it lands on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<SpellCondition>,
    /// Whether the caster must keep concentrating for it to last.
    #[serde(default)]
    pub concentration: bool,
    /// The classes whose list holds it.
    pub classes: Vec<SpellList>,
    /// What it does, in a line of our own words (shown in the panel, read by the narrator).
    pub summary: String,
}

impl Spell {
    /// Its key (`magic-missile`), made from its name.
    pub fn slug(&self) -> Slug {
        Slug::new(&self.name).expect("the spell book holds names that make slugs")
    }
}

fn no_scaling() -> Scaling {
    Scaling::None
}
