//! The allies' turns: a seat ally's move as its player chose it ([`Combat::act_as_ally`]: an
//! attack, a dodge or a pass), a companion's turn as the rules play it (a heal for the weakest of
//! the party when one is at or below half their hit points, else an attack on the foe that last
//! hurt the party, else on the first foe standing), and the allies' hit points as each exchange
//! reports them.

use rand::Rng;

use super::attack::{strike, Party, Swing};
use super::bounds::CombatError;
use super::encounter::Encounter;
use super::exchange::{AllyChange, CombatEvent, Exchange, Outcome};
use super::foe::Foe;
use super::hero::{Hero, HeroAction};
use super::hero_turn::Wielded;
use super::initiative::Combatant;
use super::roller::{FightDice, RngRoller, Roller};
use super::Combat;
use crate::game::dice::DiceExpr;

/// What a seat ally does on its turn, its target found and its weapon worked out.
enum AllyMove<'a> {
    /// Attack the foe at index `foe`.
    Attack {
        /// The foe's index.
        foe: usize,
        /// With what.
        with: Wielded<'a>,
    },
    /// Take the Dodge action.
    Dodge,
    /// Do something the fight does not resolve.
    Pass,
}

impl Combat {
    /// Plays the turn of the seat ally at `ally` (its place in [`Encounter::allies`]) with
    /// `action` (an attack with the weapon it names, a dodge or a pass), then the companions' and
    /// foes' turns up to the next player's. `hero` is the hero as the caller's sheet has them now.
    /// Refused, changing nothing, when the fight does not wait on that ally, for another action,
    /// or for a target not in the fight.
    pub fn act_as_ally<R: Rng + ?Sized>(
        &mut self,
        ally: usize,
        action: HeroAction,
        hero: &Hero,
        rng: &mut R,
    ) -> Result<Exchange, CombatError> {
        self.act_as_ally_with(ally, action, hero, &mut RngRoller(rng))
    }

    /// [`Combat::act_as_ally`] with `dice` that keep (or read back) every face.
    pub fn act_as_ally_rolled(
        &mut self,
        ally: usize,
        action: HeroAction,
        hero: &Hero,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, CombatError> {
        self.act_as_ally_with(ally, action, hero, dice)
    }

    pub(super) fn act_as_ally_with(
        &mut self,
        ally: usize,
        action: HeroAction,
        hero: &Hero,
        roller: &mut dyn Roller,
    ) -> Result<Exchange, CombatError> {
        let encounter = self.encounter.as_mut().ok_or(CombatError::NoEncounter)?;
        encounter.expect_turn(Combatant::Ally(ally))?;
        let chosen = match &action {
            HeroAction::Attack { target, weapon } => AllyMove::Attack {
                foe: encounter.find(target)?,
                with: Wielded {
                    weapon: weapon.name(),
                    to_hit: weapon.to_hit_bonus(),
                    damage: weapon.total_damage()?,
                },
            },
            HeroAction::Dodge => AllyMove::Dodge,
            HeroAction::Pass => AllyMove::Pass,
            HeroAction::Flee { .. } => return Err(CombatError::NotForAllies { action: "fleeing" }),
            HeroAction::Cast { .. } => return Err(CombatError::NotForAllies { action: "a spell" }),
            HeroAction::Strike { .. } => {
                return Err(CombatError::NotForAllies {
                    action: "a feature's strike",
                })
            }
            HeroAction::TurnUndead { .. } => {
                return Err(CombatError::NotForAllies {
                    action: "Turn Undead",
                })
            }
        };
        let before = encounter.ally_hit_points();
        let mut exchange = Exchange::default();
        let outcome = encounter.play_ally(ally, chosen, hero, roller, &mut exchange);
        exchange.ally_changes = encounter.ally_changes(&before);
        if let Some(outcome) = outcome {
            exchange.end = Some(encounter.finish(outcome));
            self.encounter = None;
        }
        Ok(exchange)
    }
}

impl Encounter {
    /// Plays the seat ally at `ally`'s move, then the companions' and foes' turns up to the next
    /// player's; the outcome if the fight ended.
    fn play_ally(
        &mut self,
        ally: usize,
        action: AllyMove<'_>,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> Option<Outcome> {
        self.allies[ally].set_dodging(false);
        match action {
            AllyMove::Attack { foe, with } => self.ally_attack(ally, foe, &with, roller, exchange),
            AllyMove::Dodge => {
                self.allies[ally].set_dodging(true);
                let ally = self.allies[ally].name().clone();
                exchange.events.push(CombatEvent::AllyDodge { ally });
            }
            AllyMove::Pass => {
                let ally = self.allies[ally].name().clone();
                exchange.events.push(CombatEvent::AllyPass { ally });
            }
        }
        self.fight_over(hero.hit_points)
            .or_else(|| self.next_turn(exchange))
            .or_else(|| self.run_turns(hero, roller, exchange))
    }

    /// The companion at `index` takes its turn (none at 0 HP): a heal for the weakest of the
    /// party while it has one and someone is at or below half their hit points, else an attack on
    /// the foe that last hurt the party if it stands, else on the first foe standing.
    pub(super) fn companion_turn(
        &mut self,
        index: usize,
        hero: &mut Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let companion = &self.allies[index];
        if !companion.is_standing() {
            return;
        }
        if let Some(dice) = companion.heal().cloned() {
            if let Some(target) = self.weakest(hero) {
                self.heal(index, target, &dice, hero, roller, exchange);
                return;
            }
        }
        let foe = self
            .party_foe
            .filter(|&foe| self.foes[foe].is_standing())
            .or_else(|| self.foes.iter().position(Foe::is_standing));
        let Some(foe) = foe else {
            return;
        };
        let companion = &self.allies[index];
        let weapon = companion.attack().name().clone();
        let with = Wielded {
            weapon: &weapon,
            to_hit: companion.attack().to_hit_bonus(),
            damage: companion.damage().clone(),
        };
        self.ally_attack(index, foe, &with, roller, exchange);
    }

    /// The one of the party (the hero, then the allies) with the lowest share of their hit
    /// points, if that share is half or less; the first of them on a tie.
    fn weakest(&self, hero: &Hero) -> Option<Combatant> {
        let hero_max = hero.max_hit_points.max(hero.hit_points).max(1);
        std::iter::once((Combatant::Hero, hero.hit_points, hero_max))
            .chain(
                self.allies
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (Combatant::Ally(i), a.hit_points(), a.max_hit_points())),
            )
            .filter(|&(_, hp, max)| u32::from(hp) * 2 <= u32::from(max))
            .min_by(|a, b| {
                (u32::from(a.1) * u32::from(b.2)).cmp(&(u32::from(b.1) * u32::from(a.2)))
            })
            .map(|(who, _, _)| who)
    }

    /// The companion at `healer` heals `target` with `dice`, spending one of its heals.
    fn heal(
        &mut self,
        healer: usize,
        target: Combatant,
        dice: &DiceExpr,
        hero: &mut Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let roll = roller.roll(dice, None);
        let amount = u32::try_from(roll.total()).unwrap_or(0);
        self.allies[healer].spend_heal();
        let (healed, hp, max) = match target {
            Combatant::Ally(i) => {
                let (_, to) = self.allies[i].change_hp(amount, true);
                let ally = &self.allies[i];
                (Some(ally.name().clone()), to, ally.max_hit_points())
            }
            _ => {
                let max = hero.max_hit_points.max(hero.hit_points);
                let amount = u16::try_from(amount).unwrap_or(u16::MAX);
                hero.hit_points = hero.hit_points.saturating_add(amount).min(max);
                exchange.hero_hit_points = Some(hero.hit_points);
                (None, hero.hit_points, max)
            }
        };
        exchange.events.push(CombatEvent::AllyHeals {
            ally: self.allies[healer].name().clone(),
            target: healed,
            roll,
            hp,
            max,
        });
    }

    /// The ally at `ally` attacks the foe at `foe` with a weapon; the damage is applied, and the
    /// foe remembers who hurt it.
    fn ally_attack(
        &mut self,
        ally: usize,
        foe: usize,
        with: &Wielded<'_>,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let name = self.allies[ally].name().clone();
        let target = &mut self.foes[foe];
        let swing = Swing {
            attacker: Party::Ally(name),
            weapon: with.weapon,
            to_hit: with.to_hit,
            damage: vec![&with.damage],
            target: Party::Foe(target.label().clone()),
            armor_class: target.creature().armor_class(),
            edge: target.edge_against_it(),
        };
        let mut attack = strike(swing, roller);
        attack.set_target_hp(target.take_damage_from(attack.total_damage(), Some(ally)));
        exchange.events.push(CombatEvent::AllyAttack(attack));
    }

    /// Every ally's hit points now, in order.
    pub(super) fn ally_hit_points(&self) -> Vec<u16> {
        self.allies.iter().map(|a| a.hit_points()).collect()
    }

    /// The allies whose hit points differ from `before` (from
    /// [`Encounter::ally_hit_points`]).
    pub(super) fn ally_changes(&self, before: &[u16]) -> Vec<AllyChange> {
        self.allies
            .iter()
            .zip(before)
            .enumerate()
            .filter(|(_, (ally, &from))| ally.hit_points() != from)
            .map(|(i, (ally, &from))| AllyChange {
                ally: i,
                name: ally.name().clone(),
                from,
                to: ally.hit_points(),
            })
            .collect()
    }
}
