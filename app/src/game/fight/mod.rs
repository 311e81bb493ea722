//! A fight as the campaign log keeps it: each step (a fight begun, the hero's move, a fight
//! called off) with the faces of every die the rules rolled for it and the exchange they gave.
//! The step is played from the character sheet — its armour class, hit points, DEX and carried
//! weapons — and the running [`Combat`](super::combat::Combat); reading the log back plays it again
//! with the recorded faces, so a record whose numbers are not the rules' is refused.
//!
//! Files: this one holds the step, its record, the foes asked for and the errors; `allies.rs` the
//! party's heroes and companions fighting beside the hero; `moves.rs` the moves offered to the
//! player; `hero.rs` the hero's figures, weapon and checks from the sheet;
//! `powers.rs` a spell or a class feature as the fight uses it; `play.rs` a step played, read
//! back, and what it does to the sheet.
//!
//! The fight across the layers: the rules of a round in `game/combat/`; its record here; the
//! step applied to the campaign in `campaign/fight.rs`; the player's moves and turn in
//! `gm/turn/fight_turn.rs` (spells and features in `gm/turn/power_moves.rs`); the encounter
//! tracker made in `wire/present/fight.rs` and shown by `ui/play/encounter.rs`; its ledger rows in
//! `wire/present/ledger.rs`.

mod allies;
mod hero;
mod moves;
mod play;
mod powers;

#[cfg(all(test, feature = "ssr"))]
mod tests;

use serde::{Deserialize, Serialize};

pub use allies::allies;
pub use hero::{hero, weapon_profile};
pub use moves::{FightMove, USED_IN_FIGHT};

use super::bestiary::{
    Bestiary, ChallengeRating, Creature, CreatureError, CreatureName, UnknownFoe,
};
use super::combat::{CombatError, DiceRecordError, Exchange};
use super::delta::DeltaError;
use super::equipment::AttackError;
use super::features::Feature;
use super::party::Seat;
use super::powers::PowerError;
use super::spells::SpellLevel;
use super::text::Slug;

/// A foe asked for by name: a bestiary creature, or (with a challenge rating) one the bestiary
/// lacks whose figures the rules derive from the rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoeSpec {
    /// The creature's name.
    pub name: CreatureName,
    /// Its challenge rating, used only when the bestiary lacks the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeRating>,
}

impl FoeSpec {
    /// The creature: the bestiary's (whatever rating was given), else one made from the rating.
    pub fn creature(&self) -> Result<Creature, FightError> {
        match (Bestiary::srd().get(self.name.as_str()), self.challenge) {
            (Ok(creature), _) => Ok(creature.clone()),
            (Err(_), Some(rating)) => Ok(Creature::from_rating(self.name.as_str(), rating)?),
            (Err(unknown), None) => Err(FightError::UnknownFoe(unknown)),
        }
    }
}

/// One step of a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "step",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FightStep {
    /// A fight begins against these foes (1 to [`MAX_FOES`](super::combat::MAX_FOES)).
    Start {
        /// The foes.
        foes: Vec<FoeSpec>,
    },
    /// The hero attacks a foe with a carried weapon (the equipped one, or bare hands, when
    /// `weapon` is `None`).
    Attack {
        /// The foe's label (`Goblin 2`) or kind.
        target: String,
        /// The weapon's slug.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<Slug>,
    },
    /// The hero dodges.
    Dodge,
    /// The hero tries to get away: DEX against 10 + the best DEX among the foes standing.
    Flee,
    /// The hero spends the turn on something the fight does not resolve.
    Pass,
    /// The fight is called off (a truce, a surrender).
    Stop,
    /// The hero casts a known spell with `slot` (the lowest left of its level when none) at the
    /// foes named (none: the first it can reach; a spell on the hero needs none).
    Cast {
        /// The spell's slug.
        spell: Slug,
        /// The foes, by label or kind.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
        /// The slot's level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<SpellLevel>,
    },
    /// A friend's hero takes their turn from their seat: attacks `target` with their weapon in
    /// hand, or (no target) holds.
    Seat {
        /// The seat.
        seat: Seat,
        /// The foe, by label or kind.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// The hero uses a class feature (striking `target`, or the first foe standing, for the
    /// features that strike).
    Feature {
        /// The feature.
        feature: Feature,
        /// The foe.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
}

/// A step played: the step, every face its dice showed, and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FightRecord {
    /// The step.
    pub step: FightStep,
    /// Every face the rules' dice showed, in the order rolled.
    #[serde(default)]
    pub faces: Vec<u16>,
    /// What happened.
    pub exchange: Exchange,
}

/// A fight step the rules refuse, or a record that is not theirs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FightError {
    /// A foe the bestiary lacks, asked for without a rating.
    #[error(transparent)]
    UnknownFoe(#[from] UnknownFoe),
    /// A foe the rules cannot make from its name and rating.
    #[error("that foe cannot be made: {0}")]
    Foe(#[from] CreatureError),
    /// The fight refuses the move.
    #[error(transparent)]
    Combat(#[from] CombatError),
    /// A weapon the character does not carry, or something that is not a weapon.
    #[error(transparent)]
    Weapon(#[from] AttackError),
    /// Recorded dice the rules did not roll.
    #[error("its dice: {0}")]
    Dice(#[from] DiceRecordError),
    /// A change the sheet refuses (the character has fallen).
    #[error(transparent)]
    Sheet(#[from] DeltaError),
    /// Recorded numbers that differ from what the rules make of the recorded dice.
    #[error("its numbers are not what the rules make of its dice")]
    Differs,
    /// A spell or feature the hero cannot use now.
    #[error(transparent)]
    Power(#[from] PowerError),
    /// A spell that cannot be cast in a fight (it takes minutes).
    #[error("{0} takes minutes to cast; not in a fight")]
    TooSlow(String),
    /// A seat with nobody at it, or whose hero is not in the fight.
    #[error("nobody at seat {0} is in the fight")]
    NotInTheFight(u8),
    /// A feature that does nothing in a fight.
    #[error("{0} is not used as a move in a fight")]
    NotAFightMove(&'static str),
}
