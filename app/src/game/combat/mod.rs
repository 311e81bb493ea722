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
//! Allies may fight beside the hero ([`Combat::start_with_allies`], at most [`MAX_ALLIES`]):
//! other players' heroes ([`AllyKind::Seat`]), who choose their own moves
//! ([`Combat::act_as_ally`]), and companions ([`AllyKind::Companion`]), whose turns the rules
//! play. Between calls the fight waits on a player ([`Encounter::waiting_on`]: the hero or a
//! seat); a move out of turn is refused. Foes strike whoever of the party last hurt them, else
//! the hero, else the first ally standing. The fight keeps the allies' hit points and each
//! exchange reports how they changed ([`Exchange::ally_changes`]); it is lost only when the hero
//! and every seat ally are down.
//!
//! Bounds: 1 to [`MAX_FOES`] foes; after round [`MAX_ROUNDS`] the foes still standing run, so
//! every fight ends. Bad input — no foes, too many, a second fight while one runs, a target not
//! in the fight or already down, a move out of turn — is a [`CombatError`] and changes nothing.
//!
//! Files: this one holds the [`Combat`] a campaign keeps, starting and playing a fight;
//! `hero.rs` the hero's figures and actions as the caller gives them; `ally.rs` an ally's
//! figures as given and as the fight keeps them; `bounds.rs` the bounds of a fight and the
//! requests refused; `encounter.rs` the running fight, its lookups and its stored form;
//! `hero_turn.rs` the hero's move played; `party.rs` a seat ally's move, a companion's turn and
//! the allies' changes; `rounds.rs` the loop up to a player's turn, the foes' turns, the next
//! round and the end; `spell_cast.rs` a spell as the fight casts it and what it holds; `cast.rs`
//! a spell resolved; `attack.rs` an attack and its damage; `foe.rs` a foe in the fight;
//! `initiative.rs` the order of turns; `exchange.rs` what happened; `profile.rs` an attack's
//! figures; `roller.rs` fresh or recorded dice.

mod ally;
mod attack;
mod bounds;
mod cast;
mod encounter;
mod exchange;
mod foe;
mod hero;
mod hero_turn;
mod initiative;
mod party;
mod profile;
mod roller;
mod rounds;
mod spell_cast;

#[cfg(test)]
mod ally_tests;
#[cfg(test)]
mod cast_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use rand::Rng;
use serde::{Deserialize, Serialize};

pub use crate::game::dice::Edge;
pub use ally::{Ally, AllyKind, AllyState, InvalidAlly};
pub use attack::{AttackResolution, DamageRoll, Hit, Party};
pub use bounds::{CombatError, MAX_ALLIES, MAX_FOES, MAX_ROUNDS};
pub use encounter::{Encounter, InvalidEncounter};
pub use exchange::{AllyChange, CombatEvent, EncounterEnd, Exchange, InitiativeRoll, Outcome};
pub use foe::{Foe, FoeCondition, FoeConditionError, FoeHpError, FoeLabel, FoeLabelKind, HpChange};
pub use hero::{Hero, HeroAction};
pub use hero_turn::is_undead;
pub use initiative::{roll_initiative, Combatant, InitiativeEntry};
pub use profile::AttackProfile;
pub use roller::{DiceRecordError, FightDice};
pub use spell_cast::{CastEffect, Held, SpellCast, SpellHold};

use self::hero_turn::{Move, Wielded};
use self::roller::{RngRoller, Roller};
use crate::game::bestiary::Creature;

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

    /// [`Combat::start`] with `allies` (at most [`MAX_ALLIES`], names distinct) beside the
    /// hero: they roll initiative too, and the companions and foes ahead of the first player to
    /// act take their turns.
    pub fn start_with_allies<R: Rng + ?Sized>(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        allies: Vec<Ally>,
        rng: &mut R,
    ) -> Result<Exchange, CombatError> {
        self.start_party(foes, hero, allies, &mut RngRoller(rng))
    }

    /// [`Combat::start_with_allies`] with `dice` that keep (or read back) every face.
    pub fn start_with_allies_rolled(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        allies: Vec<Ally>,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, CombatError> {
        self.start_party(foes, hero, allies, dice)
    }

    fn start_with(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        roller: &mut dyn Roller,
    ) -> Result<Exchange, CombatError> {
        self.start_party(foes, hero, Vec::new(), roller)
    }

    fn start_party(
        &mut self,
        foes: Vec<Creature>,
        hero: &Hero,
        allies: Vec<Ally>,
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
        let (mut encounter, initiative) = Encounter::begin(foes, hero, allies, roller)?;
        let mut exchange = Exchange {
            events: vec![initiative],
            ..Exchange::default()
        };
        let before = encounter.ally_hit_points();
        let outcome = encounter.run_turns(hero, roller, &mut exchange);
        exchange.ally_changes = encounter.ally_changes(&before);
        match outcome {
            Some(outcome) => exchange.end = Some(encounter.finish(outcome)),
            None => self.encounter = Some(encounter),
        }
        Ok(exchange)
    }

    /// Plays the hero's turn with `action`, then the companions' and foes' turns up to the next
    /// player's. A hero at 0 HP ends the fight instead (or, with a seat ally standing, is passed
    /// over). Refused, changing nothing, with no fight on, while it waits on a seat ally, or with
    /// a target that is not in it.
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
        encounter.expect_turn(Combatant::Hero)?;
        let chosen = hero_move(encounter, &action)?;
        let before = encounter.ally_hit_points();
        let mut exchange = Exchange::default();
        let outcome = encounter.play(chosen, hero, roller, &mut exchange);
        exchange.ally_changes = encounter.ally_changes(&before);
        if let Some(outcome) = outcome {
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

/// The hero's move `action` means in `encounter`: its targets found, its weapons worked out.
fn hero_move<'a>(encounter: &Encounter, action: &'a HeroAction) -> Result<Move<'a>, CombatError> {
    Ok(match action {
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
    })
}
