//! A step played: with fresh dice (and applied to the sheet, both or neither), or again from its
//! recorded faces, refused unless that gives the recorded exchange; and the deltas a played step
//! makes on the sheet.

use super::allies::allies;
use super::hero::{escape_check, hero, weapon_profile};
use super::powers::{feature_action, spell_cast};
use super::{FightError, FightRecord, FightStep, FoeSpec};
use crate::game::combat::{
    Combat, CombatError, CombatEvent, Exchange, FightDice, HeroAction, MAX_FOES,
};
use crate::game::delta::{AppliedChanges, StateDelta};
use crate::game::party::{Party, Seat};
use crate::game::progression::MAX_AWARD;
use crate::game::sheet::CharacterSheet;
use crate::game::spells::CastingTime;

impl FightStep {
    /// Plays the step on `combat` for the character of `sheet` with `dice`: the exchange.
    fn play_with(
        &self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        party: &Party,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, FightError> {
        let hero = hero(sheet);
        let action = match self {
            FightStep::Seat { seat, target } => {
                let (ally, action) = seat_action(combat, party, *seat, target.as_ref())?;
                return Ok(combat.act_as_ally_rolled(ally, action, &hero, dice)?);
            }
            FightStep::Start { foes } => {
                if foes.len() > MAX_FOES {
                    return Err(CombatError::TooManyFoes { count: foes.len() }.into());
                }
                let creatures = foes
                    .iter()
                    .map(FoeSpec::creature)
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(combat.start_with_allies_rolled(
                    creatures,
                    &hero,
                    allies(party),
                    dice,
                )?);
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
        self.play_at_table(combat, sheet, &Party::default(), rng)
    }

    /// [`FightStep::play`] with the `party` fighting beside the hero.
    pub fn play_at_table(
        self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        party: &Party,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<FightRecord, FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::fresh(rng);
        let exchange = self.play_with(&mut after, sheet, party, &mut dice)?;
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
        self.play_on_table(combat, sheet, &mut Party::default(), rng)
    }

    /// [`FightStep::play_on`] with the `party` fighting beside the hero: what it does to their
    /// sheets is applied too, all or nothing.
    pub fn play_on_table(
        self,
        combat: &mut Combat,
        sheet: &mut CharacterSheet,
        party: &mut Party,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<(FightRecord, AppliedChanges), FightError> {
        let mut after = combat.clone();
        let record = self.play_at_table(&mut after, sheet, party, rng)?;
        let mut hero_after = sheet.clone();
        let changes = StateDelta::apply_all(&record.deltas(), &mut hero_after)?;
        let mut party_after = party.clone();
        record.apply_to_party(&mut party_after)?;
        *combat = after;
        *sheet = hero_after;
        *party = party_after;
        Ok((record, changes))
    }
}

impl FightRecord {
    /// Plays the record's step again on `combat` with its recorded faces; refused, changing
    /// nothing, unless that gives exactly the recorded exchange.
    pub fn replay(&self, combat: &mut Combat, sheet: &CharacterSheet) -> Result<(), FightError> {
        self.replay_at_table(combat, sheet, &Party::default())
    }

    /// [`FightRecord::replay`] with the `party` that fought beside the hero.
    pub fn replay_at_table(
        &self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        party: &Party,
    ) -> Result<(), FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::recorded(&self.faces);
        let exchange = self.step.play_with(&mut after, sheet, party, &mut dice)?;
        dice.finish()?;
        if exchange != self.exchange {
            return Err(FightError::Differs);
        }
        *combat = after;
        Ok(())
    }

    /// Applies what the step does to the party members' sheets, all or nothing.
    pub fn apply_to_party(&self, party: &mut Party) -> Result<(), FightError> {
        let mut after = party.clone();
        for (index, deltas) in self.member_deltas(party) {
            if let Some(member) = after.member_mut(index) {
                StateDelta::apply_all(&deltas, &mut member.sheet)?;
            }
        }
        *party = after;
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
        if let Some(hp) = self.exchange.hero_hit_points {
            deltas.push(StateDelta::SetHp { hp: i32::from(hp) });
        } else if damage > 0 {
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

/// The ally the friend at `seat` is in the running fight, and their action: an attack on
/// `target` with their weapon in hand (on the first foe standing when `target` has fallen
/// since they chose it), or holding.
fn seat_action(
    combat: &Combat,
    party: &Party,
    seat: Seat,
    target: Option<&String>,
) -> Result<(usize, HeroAction), FightError> {
    let member = party
        .at(seat)
        .ok_or(FightError::NotInTheFight(seat.number()))?;
    let encounter = combat.current().ok_or(CombatError::NoEncounter)?;
    let ally = encounter
        .allies()
        .iter()
        .position(|ally| ally.name().as_str().eq_ignore_ascii_case(member.name()))
        .ok_or(FightError::NotInTheFight(seat.number()))?;
    let standing = |label: &str| {
        encounter
            .standing()
            .any(|foe| foe.label().as_str().eq_ignore_ascii_case(label))
    };
    let target = target.map(|target| {
        if standing(target) {
            target.clone()
        } else {
            encounter
                .standing()
                .next()
                .map_or_else(|| target.clone(), |foe| foe.label().to_string())
        }
    });
    let action = match target {
        Some(target) => HeroAction::Attack {
            target,
            weapon: weapon_profile(&member.sheet, None)?,
        },
        None => HeroAction::Pass,
    };
    Ok((ally, action))
}
