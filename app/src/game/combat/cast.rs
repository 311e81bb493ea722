//! A spell cast in a fight, resolved by the rules: a spell attack against each target's armour
//! class, each target's saving throw against the caster's DC (half damage on a success where the
//! spell says so), or no roll at all; the damage, the healing, the pool of hit points that puts
//! foes to sleep, the condition and how long it lasts; and the concentration that holds a spell,
//! which a blow to the caster may break (a CON save against half the damage, at least DC 10).

use super::attack::{strike, DamageRoll, Party, Swing};
use super::bounds::CombatError;
use super::encounter::Encounter;
use super::exchange::{CombatEvent, Exchange};
use super::foe::FoeCondition;
use super::hero::Hero;
use super::roller::Roller;
use super::spell_cast::{CastEffect, Held, SpellCast, SpellHold};
use crate::game::attributes::AttributeBonus;
use crate::game::bestiary::Damage;
use crate::game::dice::{DiceExpr, Edge, Roll};
use crate::game::spells::{Delivery, OnSave, RiderOn, SpellCondition};

/// Half of `amount`, rounded down, when `halved`.
fn halve(amount: u32, halved: bool) -> u32 {
    if halved {
        amount / 2
    } else {
        amount
    }
}

impl Encounter {
    /// The foes `names` mean for `cast` (each found once, at most its reach, or one a strike for a
    /// spell of several); with none named, the first foes standing it can reach, for a spell
    /// that needs foes.
    pub(super) fn cast_targets(
        &self,
        cast: &SpellCast,
        names: &[String],
    ) -> Result<Vec<usize>, CombatError> {
        let needs_foes = matches!(
            cast.effect,
            CastEffect::Damage { .. } | CastEffect::Condition | CastEffect::Pool { .. }
        ) || matches!(
            cast.effect,
            CastEffect::Rider {
                on: RiderOn::Damage,
                ..
            }
        );
        if !needs_foes {
            return Ok(Vec::new());
        }
        let mut found = Vec::new();
        for name in names {
            let index = self.find(name)?;
            if !found.contains(&index) {
                found.push(index);
            }
        }
        // Each strike of a spell of several (Magic Missile's darts) may go to a foe named for it.
        let strikes = match cast.effect {
            CastEffect::Damage { beams, .. } if !found.is_empty() => beams,
            _ => 1,
        };
        if found.is_empty() {
            found = (0..self.foes().len())
                .filter(|&i| self.foes()[i].is_standing())
                .collect();
        }
        found.truncate(usize::from(cast.reach.max(strikes).max(1)));
        Ok(found)
    }

    /// Casts `cast` at the foes at `targets` (already found, standing); returns the hit points
    /// the caster heals.
    pub(super) fn hero_cast(
        &mut self,
        cast: &SpellCast,
        targets: &[usize],
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> u32 {
        exchange.events.push(CombatEvent::Cast {
            spell: cast.spell.clone(),
            slot: cast.slot,
        });
        if cast.concentration {
            self.end_concentration(exchange, None);
            self.concentration = Some(Held {
                spell: Some(cast.spell.clone()),
                ..Held::default()
            });
        }
        match &cast.effect {
            CastEffect::Damage { damage, beams } => match cast.delivery {
                Delivery::Attack => {
                    self.spell_attacks(cast, damage, *beams, targets, hero, roller, exchange)
                }
                Delivery::Automatic => {
                    self.sure_strikes(cast, damage, *beams, targets, roller, exchange)
                }
                Delivery::Save { .. } => {
                    self.saved_damage(cast, Some(damage), targets, roller, exchange)
                }
            },
            CastEffect::Condition => self.saved_damage(cast, None, targets, roller, exchange),
            CastEffect::Pool { dice } => self.pool(cast, dice, targets, roller, exchange),
            CastEffect::Healing { dice } => {
                let roll = roller.roll(dice, None);
                let healed = u32::try_from(roll.total()).unwrap_or(0);
                exchange.events.push(CombatEvent::Healed { roll });
                return healed;
            }
            CastEffect::Rider { dice, on } => {
                let held = self.concentration.get_or_insert_with(Held::default);
                held.rider = Some((dice.clone(), *on));
                held.marked = targets.first().copied();
                exchange.events.push(CombatEvent::Rider {
                    dice: dice.notation_with_bonus(dice.modifier()),
                    on: *on,
                    foe: targets.first().map(|&i| self.foes()[i].label().clone()),
                });
            }
            CastEffect::Ward { bonus } => {
                match self.concentration.as_mut().filter(|_| cast.concentration) {
                    Some(held) => held.armor_bonus = *bonus,
                    None => self.hero_ward = *bonus,
                }
                exchange.events.push(CombatEvent::Ward { bonus: *bonus });
            }
            CastEffect::Utility => {}
        }
        0
    }

    /// Spell attacks, one a beam, against the targets in turn (a fallen one is skipped).
    #[allow(clippy::too_many_arguments)]
    fn spell_attacks(
        &mut self,
        cast: &SpellCast,
        damage: &Damage,
        beams: u8,
        targets: &[usize],
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        for beam in 0..usize::from(beams) {
            let Some(index) = self.next_target(targets, beam) else {
                return;
            };
            let foe = &mut self.foes_mut()[index];
            let swing = Swing {
                attacker: Party::Hero,
                weapon: &cast.attack_name,
                to_hit: cast.attack_bonus,
                damage: vec![damage],
                target: Party::Foe(foe.label().clone()),
                armor_class: foe.creature().armor_class(),
                edge: Edge::combine([hero.attack_edge, foe.edge_against_it()]),
            };
            let mut attack = strike(swing, roller);
            attack.set_target_hp(foe.take_damage(attack.total_damage()));
            exchange.events.push(CombatEvent::Attack(attack));
        }
    }

    /// Beams that hit without a roll (Magic Missile's darts), each its own damage roll.
    fn sure_strikes(
        &mut self,
        cast: &SpellCast,
        damage: &Damage,
        beams: u8,
        targets: &[usize],
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        for beam in 0..usize::from(beams) {
            let Some(index) = self.next_target(targets, beam) else {
                return;
            };
            let rolled = DamageRoll::new(roller.roll(damage.dice(), None), damage.kind());
            let dealt = rolled.amount();
            let foe = &mut self.foes_mut()[index];
            let hp = foe.take_damage(dealt);
            exchange.events.push(CombatEvent::SpellHit {
                spell: cast.spell.clone(),
                foe: foe.label().clone(),
                damage: Some(rolled),
                dealt,
                hp: Some(hp),
                condition: None,
            });
        }
    }

    /// One damage roll (if any) for every target, each target's save against the DC: the damage
    /// (halved or none on a save, as the spell says) and the condition on a failed save.
    fn saved_damage(
        &mut self,
        cast: &SpellCast,
        damage: Option<&Damage>,
        targets: &[usize],
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let rolled = damage.map(|d| DamageRoll::new(roller.roll(d.dice(), None), d.kind()));
        for &index in targets.iter().take(usize::from(cast.reach)) {
            let saved = match cast.delivery {
                Delivery::Save { ability, .. } => {
                    self.foe_save(index, ability, cast.save_dc, roller, exchange)
                }
                _ => false,
            };
            let halved = matches!(
                cast.delivery,
                Delivery::Save {
                    on_save: OnSave::Half,
                    ..
                }
            );
            let dealt = match (&rolled, saved) {
                (Some(r), false) => r.amount(),
                (Some(r), true) => halve(r.amount(), halved) * u32::from(halved),
                (None, _) => 0,
            };
            let condition = (!saved).then_some(cast.condition).flatten();
            self.land(cast, index, rolled.clone(), dealt, condition, exchange);
        }
    }

    /// The foe at `index` saves with `ability` against `dc`: whether it succeeded.
    pub(super) fn foe_save(
        &mut self,
        index: usize,
        ability: crate::game::attributes::Attribute,
        dc: u8,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> bool {
        let foe = &self.foes()[index];
        let bonus = AttributeBonus {
            attribute: ability,
            modifier: foe.creature().abilities().get(ability),
            proficiency: 0,
        };
        let roll = roller.roll(&DiceExpr::d20(), Some(bonus));
        // A paralysed, stunned or sleeping foe fails STR and DEX saves.
        let helpless = foe.conditions().any(FoeCondition::incapacitates)
            && matches!(
                ability,
                crate::game::attributes::Attribute::Strength
                    | crate::game::attributes::Attribute::Dexterity
            );
        let saved = !helpless && roll.total() >= i32::from(dc);
        exchange.events.push(CombatEvent::SpellSave {
            foe: foe.label().clone(),
            roll,
            dc,
            saved,
        });
        saved
    }

    /// Sleep's pool: the standing targets with the fewest hit points first, each while the pool
    /// covers its hit points.
    fn pool(
        &mut self,
        cast: &SpellCast,
        dice: &DiceExpr,
        targets: &[usize],
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let roll = roller.roll(dice, None);
        let mut left = u32::try_from(roll.total()).unwrap_or(0);
        exchange.events.push(CombatEvent::Pool {
            spell: cast.spell.clone(),
            roll,
        });
        let mut order: Vec<usize> = targets.to_vec();
        order.sort_by_key(|&i| self.foes()[i].hit_points());
        for index in order.into_iter().take(usize::from(cast.reach)) {
            let hp = u32::from(self.foes()[index].hit_points());
            if hp > left {
                break;
            }
            left -= hp;
            self.land(cast, index, None, 0, cast.condition, exchange);
        }
    }

    /// The spell lands on the foe at `index`: `dealt` damage and the condition, if any.
    fn land(
        &mut self,
        cast: &SpellCast,
        index: usize,
        damage: Option<DamageRoll>,
        dealt: u32,
        condition: Option<SpellCondition>,
        exchange: &mut Exchange,
    ) {
        let round = self.round();
        let foe = &mut self.foes_mut()[index];
        let hp = damage.as_ref().map(|_| foe.take_damage(dealt));
        let put = condition.filter(|_| foe.is_standing()).inspect(|c| {
            foe.add_condition(c.condition);
        });
        let event = CombatEvent::SpellHit {
            spell: cast.spell.clone(),
            foe: foe.label().clone(),
            damage,
            dealt,
            hp,
            condition: put.map(|c| c.condition),
        };
        if let Some(c) = put {
            self.holds.push(SpellHold {
                foe: index,
                condition: c.condition,
                until_round: round.saturating_add(c.rounds),
                concentration: cast.concentration,
            });
        }
        exchange.events.push(event);
    }

    /// The target for beam `beam`: the targets in turn, skipping any no longer standing.
    fn next_target(&self, targets: &[usize], beam: usize) -> Option<usize> {
        let standing: Vec<usize> = targets
            .iter()
            .copied()
            .filter(|&i| self.foes()[i].is_standing())
            .collect();
        (!standing.is_empty()).then(|| standing[beam % standing.len()])
    }

    /// Ends the spell held (if any) and what hangs on it; `save` is the failed save that broke it.
    pub(super) fn end_concentration(&mut self, exchange: &mut Exchange, save: Option<(Roll, u8)>) {
        let Some(held) = self.concentration.take() else {
            return;
        };
        let (ended, kept): (Vec<SpellHold>, Vec<SpellHold>) =
            self.holds.drain(..).partition(|hold| hold.concentration);
        self.holds = kept;
        if let Some((roll, dc)) = save {
            exchange.events.push(CombatEvent::Concentration {
                spell: held.spell.clone(),
                roll,
                dc,
                kept: false,
            });
        }
        for hold in ended {
            self.lift(hold, exchange);
        }
    }

    /// Lifts a spell's condition from its foe, if it still stands under it.
    pub(super) fn lift(&mut self, hold: SpellHold, exchange: &mut Exchange) {
        let foe = &mut self.foes_mut()[hold.foe];
        if foe.is_standing() && foe.remove_condition(hold.condition) {
            exchange.events.push(CombatEvent::ConditionEnds {
                foe: foe.label().clone(),
                condition: hold.condition,
            });
        }
    }

    /// The hero took `dealt` damage while concentrating: the CON save the rules roll for it.
    pub(super) fn concentration_check(
        &mut self,
        dealt: u32,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        if dealt == 0 || self.concentration.is_none() {
            return;
        }
        let dc = u8::try_from((dealt / 2).max(10)).unwrap_or(u8::MAX);
        let roll = roller.roll(&DiceExpr::d20(), Some(hero.concentration_save));
        if roll.total() >= i32::from(dc) {
            let spell = self.concentration.as_ref().and_then(|h| h.spell.clone());
            exchange.events.push(CombatEvent::Concentration {
                spell,
                roll,
                dc,
                kept: true,
            });
        } else {
            self.end_concentration(exchange, Some((roll, dc)));
        }
    }

    /// Conditions whose rounds ran out at the start of the current round, lifted.
    pub(super) fn expire_holds(&mut self, exchange: &mut Exchange) {
        let round = self.round();
        let (ended, kept): (Vec<SpellHold>, Vec<SpellHold>) = self
            .holds
            .drain(..)
            .partition(|hold| hold.until_round <= round);
        self.holds = kept;
        for hold in ended {
            self.lift(hold, exchange);
        }
    }

    /// The rider's dice on a hit against the foe at `index`, if one rides.
    pub(super) fn damage_rider(&self, index: usize) -> Option<DiceExpr> {
        let held = self.concentration.as_ref()?;
        match (&held.rider, held.marked) {
            (Some((dice, RiderOn::Damage)), Some(marked)) if marked == index => Some(dice.clone()),
            _ => None,
        }
    }

    /// The rider's dice on the caster's attack rolls (Bless), if one rides.
    pub(super) fn attack_rider(&self) -> Option<DiceExpr> {
        match &self.concentration.as_ref()?.rider {
            Some((dice, RiderOn::AttackRolls)) => Some(dice.clone()),
            _ => None,
        }
    }
}
