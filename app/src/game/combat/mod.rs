//! Fights by the rules: the server rolls initiative, every attack against an armour class and
//! every damage roll, applies the damage to the foes, and runs the foes' turns; the model gets
//! the resolved exchange to narrate.
//!
//! [`Combat`] holds at most one running [`Encounter`] (it lives in the campaign snapshot). The
//! caller starts a fight with foes from the [`Bestiary`](crate::game::bestiary::Bestiary) or
//! [`Creature::from_rating`], then plays one [`HeroAction`] per hero turn: each call returns an
//! [`Exchange`] — what happened, in order, each line ready for the model (`Goblin 2's scimitar:
//! 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing`), the damage the foes dealt the hero (for the
//! caller to apply to the sheet), and the [`EncounterEnd`] with the experience earned when the
//! fight is over. The hero's figures come in as a [`Hero`] each call, worked out by the caller
//! from the sheet.
//!
//! Bounds: 1 to [`MAX_FOES`] foes; after round [`MAX_ROUNDS`] the foes still standing run, so
//! every fight ends. Bad input — no foes, too many, a second fight while one runs, a target not
//! in the fight or already down — is a [`CombatError`] and changes nothing.
//!
//! Files: `encounter.rs` (the running fight, its lookups and its stored form), `hero_turn.rs`
//! (the hero's move played), `rounds.rs` (the foes' turns, the next round, the end),
//! `spell_cast.rs` (a spell as the fight casts it and what it holds), `cast.rs` (a spell
//! resolved), `attack.rs` (an attack and its damage), `foe.rs`, `initiative.rs`, `exchange.rs`
//! (what happened), `profile.rs` (an attack's figures), `roller.rs` (fresh or recorded dice).

mod attack;
mod cast;
mod encounter;
mod exchange;
mod foe;
mod hero_turn;
mod initiative;
mod profile;
mod roller;
mod rounds;
mod spell_cast;

#[cfg(test)]
mod cast_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use rand::Rng;
use serde::{Deserialize, Serialize};

pub use crate::game::dice::Edge;
pub use attack::{AttackResolution, DamageRoll, Hit, Party};
pub use encounter::{Encounter, InvalidEncounter};
pub use exchange::{CombatEvent, EncounterEnd, Exchange, InitiativeRoll, Outcome};
pub use foe::{Foe, FoeCondition, FoeConditionError, FoeHpError, FoeLabel, FoeLabelKind, HpChange};
pub use hero_turn::is_undead;
pub use initiative::{roll_initiative, Combatant, InitiativeEntry};
pub use profile::AttackProfile;
pub use roller::{DiceRecordError, FightDice};
pub use spell_cast::{CastEffect, Held, SpellCast, SpellHold};

use self::hero_turn::{Move, Wielded};
use self::roller::{RngRoller, Roller};
use crate::game::attributes::AttributeBonus;
use crate::game::bestiary::{ArmorClass, Creature, DamageError};
use crate::game::dice::{Check, DiceExpr};
use crate::game::text::TextError;

/// The most foes one fight may hold.
pub const MAX_FOES: usize = 12;
/// The last round of a fight: at its end the foes still standing run.
pub const MAX_ROUNDS: u16 = 100;

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

/// A fight request the rules refuse; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    /// A fight is already on.
    #[error("a fight is already on (against {}); it must end before another starts", .foes.join(", "))]
    AlreadyRunning {
        /// The foes still standing in it.
        foes: Vec<String>,
    },
    /// No fight is on.
    #[error("no fight is on")]
    NoEncounter,
    /// A fight without foes.
    #[error("a fight needs at least one foe")]
    NoFoes,
    /// More than [`MAX_FOES`] foes.
    #[error("a fight holds at most {MAX_FOES} foes (got {count})")]
    TooManyFoes {
        /// How many were asked for.
        count: usize,
    },
    /// No foe of that name in the fight.
    #[error("no foe \"{name}\" in this fight; standing: {}", .standing.join(", "))]
    NotInFight {
        /// The start of the name asked for.
        name: String,
        /// The foes standing.
        standing: Vec<String>,
    },
    /// A kind of foe with several standing.
    #[error("\"{name}\" could be {}; name one", .candidates.join(" or "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The foes it could mean.
        candidates: Vec<String>,
    },
    /// The foe is at 0 HP.
    #[error("{label} is already down")]
    FoeDown {
        /// The foe.
        label: String,
    },
    /// The foe ran.
    #[error("{label} has fled")]
    FoeFled {
        /// The foe.
        label: String,
    },
    /// The hero is at 0 HP.
    #[error("you are at 0 HP and cannot start a fight")]
    HeroDown,
    /// A label the rules cannot make (never for bestiary names).
    #[error(transparent)]
    Label(#[from] TextError),
    /// A weapon whose damage and bonus do not add up to valid damage.
    #[error("weapon damage: {0}")]
    Weapon(#[from] DamageError),
}

/// The fight in progress, if any: what the campaign snapshot keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Combat {
    encounter: Option<Encounter>,
}

impl Combat {
    /// The running fight, if any.
    pub fn current(&self) -> Option<&Encounter> {
        self.encounter.as_ref()
    }

    /// Whether a fight is running.
    pub fn is_running(&self) -> bool {
        self.encounter.is_some()
    }

    /// Starts a fight against `foes` (1..=[`MAX_FOES`]): initiative is rolled for everyone, and
    /// the foes that act before the hero take their turns. Refused while a fight runs.
    pub fn start<R: Rng + ?Sized>(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        rng: &mut R,
    ) -> Result<Exchange, CombatError> {
        self.start_with(foes, hero, &mut RngRoller(rng))
    }

    /// [`Combat::start`] with `dice` that keep (or read back) every face.
    pub fn start_rolled(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, CombatError> {
        self.start_with(foes, hero, dice)
    }

    fn start_with(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        roller: &mut dyn Roller,
    ) -> Result<Exchange, CombatError> {
        if let Some(running) = &self.encounter {
            return Err(CombatError::AlreadyRunning {
                foes: running.standing().map(|f| f.label().to_string()).collect(),
            });
        }
        if hero.hit_points == 0 {
            return Err(CombatError::HeroDown);
        }
        let (mut encounter, initiative) = Encounter::begin(foes, hero, roller)?;
        let mut exchange = Exchange {
            events: vec![initiative],
            ..Exchange::default()
        };
        match encounter.run_foes(hero, roller, &mut exchange) {
            Some(outcome) => exchange.end = Some(encounter.finish(outcome)),
            None => self.encounter = Some(encounter),
        }
        Ok(exchange)
    }

    /// Plays the hero's turn with `action`, then the foes' turns up to the hero's next. A hero at
    /// 0 HP ends the fight instead. Refused, changing nothing, with no fight on or a target that
    /// is not in it.
    pub fn act<R: Rng + ?Sized>(
        &mut self,
        action: HeroAction,
        hero: &Hero,
        rng: &mut R,
    ) -> Result<Exchange, CombatError> {
        self.act_with(action, hero, &mut RngRoller(rng))
    }

    /// [`Combat::act`] with `dice` that keep (or read back) every face.
    pub fn act_rolled(
        &mut self,
        action: HeroAction,
        hero: &Hero,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, CombatError> {
        self.act_with(action, hero, dice)
    }

    fn act_with(
        &mut self,
        action: HeroAction,
        hero: &Hero,
        roller: &mut dyn Roller,
    ) -> Result<Exchange, CombatError> {
        let encounter = self.encounter.as_mut().ok_or(CombatError::NoEncounter)?;
        let chosen = match &action {
            HeroAction::Attack { target, weapon } => Move::Attack {
                foe: encounter.find(target)?,
                with: Wielded {
                    weapon: weapon.name(),
                    to_hit: weapon.to_hit_bonus(),
                    damage: weapon.total_damage()?,
                },
            },
            HeroAction::Dodge => Move::Dodge,
            HeroAction::Flee { escape } => Move::Flee(escape.clone()),
            HeroAction::Pass => Move::Pass,
            HeroAction::Cast {
                cast,
                targets,
                strike,
            } => Move::Cast {
                cast,
                targets: encounter.cast_targets(cast, targets)?,
                strike: match strike {
                    Some(weapon) => Some(Wielded {
                        weapon: weapon.name(),
                        to_hit: weapon.to_hit_bonus(),
                        damage: weapon.total_damage()?,
                    }),
                    None => None,
                },
            },
            HeroAction::Strike {
                target,
                weapon,
                strikes,
                heal,
                hide,
            } => Move::Strike {
                foe: encounter.find(target)?,
                with: Wielded {
                    weapon: weapon.name(),
                    to_hit: weapon.to_hit_bonus(),
                    damage: weapon.total_damage()?,
                },
                strikes: (*strikes).clamp(1, 2),
                heal: heal.as_ref(),
                hide: hide.clone(),
            },
            HeroAction::TurnUndead { dc } => Move::TurnUndead(*dc),
        };
        let mut exchange = Exchange::default();
        if let Some(outcome) = encounter.play(chosen, hero, roller, &mut exchange) {
            exchange.end = Some(encounter.finish(outcome));
            self.encounter = None;
        }
        Ok(exchange)
    }

    /// Puts the foe `name` under `condition` (or lifts it with `on` false); whether that changed
    /// anything. Refused for a foe not standing in the fight.
    pub fn set_condition(
        &mut self,
        name: &str,
        condition: FoeCondition,
        on: bool,
    ) -> Result<bool, CombatError> {
        let encounter = self.encounter.as_mut().ok_or(CombatError::NoEncounter)?;
        let index = encounter.find(name)?;
        Ok(encounter.set_condition(index, condition, on))
    }

    /// Ends the fight another way (a truce, a surrender): the defeated foes still count.
    pub fn stop(&mut self) -> Result<EncounterEnd, CombatError> {
        let encounter = self.encounter.take().ok_or(CombatError::NoEncounter)?;
        Ok(encounter.finish(Outcome::Stopped))
    }
}
