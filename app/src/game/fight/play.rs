//! A step played: with fresh dice (and applied to the sheet, both or neither), or again from its
//! recorded faces, refused unless that gives the recorded exchange; and the deltas a played step
//! makes on the sheet.

use super::hero::{escape_check, hero, weapon_profile};
use super::powers::{feature_action, spell_cast};
use super::{FightError, FightRecord, FightStep, FoeSpec};
use crate::game::combat::{
    Combat, CombatError, CombatEvent, Exchange, FightDice, HeroAction, MAX_FOES,
};
use crate::game::delta::{AppliedChanges, StateDelta};
use crate::game::progression::MAX_AWARD;
use crate::game::sheet::CharacterSheet;
use crate::game::spells::CastingTime;

impl FightStep {
    /// Plays the step on `combat` for the character of `sheet` with `dice`: the exchange.
    fn play_with(
        &self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, FightError> {
        let hero = hero(sheet);
        let action = match self {
            FightStep::Start { foes } => {
                if foes.len() > MAX_FOES {
                    return Err(CombatError::TooManyFoes { count: foes.len() }.into());
                }
                let creatures = foes
                    .iter()
                    .map(FoeSpec::creature)
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(combat.start_rolled(creatures, &hero, dice)?);
            }
            FightStep::Stop => {
                let end = combat.stop()?;
                return Ok(Exchange {
                    end: Some(end),
                    ..Exchange::default()
                });
            }
            FightStep::Attack { target, weapon } => HeroAction::Attack {
                target: target.clone(),
                weapon: weapon_profile(sheet, weapon.as_ref())?,
            },
            FightStep::Dodge => HeroAction::Dodge,
            FightStep::Flee => HeroAction::Flee {
                escape: escape_check(combat, sheet, dice),
            },
            FightStep::Pass => HeroAction::Pass,
            FightStep::Cast {
                spell,
                targets,
                slot,
            } => {
                let (spell, slot) = sheet.castable(spell.as_str(), *slot)?;
                // A bonus-action spell leaves the action for a strike with the weapon in hand.
                let strike = match spell.casting_time {
                    CastingTime::BonusAction => Some(weapon_profile(sheet, None)?),
                    _ => None,
                };
                HeroAction::Cast {
                    cast: spell_cast(sheet, spell, slot)?,
                    targets: targets.clone(),
                    strike,
                }
            }
            FightStep::Feature { feature, target } => {
                feature_action(*feature, target.as_ref(), combat, sheet, dice)?
            }
        };
        Ok(combat.act_rolled(action, &hero, dice)?)
    }

    /// Plays the step with fresh dice (`rng` gives a face for a die of so many sides). Refused, changing nothing, when the rules
    /// refuse it.
    pub fn play(
        self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<FightRecord, FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::fresh(rng);
        let exchange = self.play_with(&mut after, sheet, &mut dice)?;
        let faces = dice.finish()?;
        *combat = after;
        Ok(FightRecord {
            step: self,
            faces,
            exchange,
        })
    }
}

impl FightStep {
    /// Plays the step with fresh dice and applies what it does to `sheet` (the foes' damage, a
    /// won fight's experience): the record and the changes. Both or neither: refused, `combat`
    /// and `sheet` stay as they were.
    pub fn play_on(
        self,
        combat: &mut Combat,
        sheet: &mut CharacterSheet,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<(FightRecord, AppliedChanges), FightError> {
        let mut after = combat.clone();
        let record = self.play(&mut after, sheet, rng)?;
        let changes = StateDelta::apply_all(&record.deltas(), sheet)?;
        *combat = after;
        Ok((record, changes))
    }
}

impl FightRecord {
    /// Plays the record's step again on `combat` with its recorded faces; refused, changing
    /// nothing, unless that gives exactly the recorded exchange.
    pub fn replay(&self, combat: &mut Combat, sheet: &CharacterSheet) -> Result<(), FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::recorded(&self.faces);
        let exchange = self.step.play_with(&mut after, sheet, &mut dice)?;
        dice.finish()?;
        if exchange != self.exchange {
            return Err(FightError::Differs);
        }
        *combat = after;
        Ok(())
    }

    /// What the step does to the sheet: the spell's slot or the feature's use (and its
    /// healing), the foes' damage, concentration lost, and the experience of a won fight.
    pub fn deltas(&self) -> Vec<StateDelta> {
        let mut deltas = Vec::new();
        let healed = self.exchange.events.iter().find_map(|event| match event {
            CombatEvent::Healed { roll } => Some(roll.clone()),
            _ => None,
        });
        let slot = self.exchange.events.iter().find_map(|event| match event {
            CombatEvent::Cast { slot, .. } => Some(*slot),
            _ => None,
        });
        match (&self.step, slot) {
            (FightStep::Cast { spell, .. }, Some(slot)) => deltas.push(StateDelta::CastSpell {
                spell: spell.clone(),
                slot,
                roll: healed,
            }),
            (FightStep::Feature { feature, .. }, _) => deltas.push(StateDelta::UseFeature {
                feature: *feature,
                roll: healed,
            }),
            _ => {}
        }
        let damage = self.exchange.damage_to_hero;
        if damage > 0 {
            deltas.push(StateDelta::ChangeHp {
                amount: -i32::try_from(damage).unwrap_or(i32::MAX),
            });
        }
        let lost = self
            .exchange
            .events
            .iter()
            .any(|event| matches!(event, CombatEvent::Concentration { kept: false, .. }));
        if lost || self.exchange.end.is_some() {
            deltas.push(StateDelta::EndConcentration);
        }
        if let Some(end) = &self.exchange.end {
            if end.xp > 0 {
                deltas.push(StateDelta::GainExperience {
                    amount: end.xp.min(MAX_AWARD),
                });
            }
        }
        deltas
    }
}
