//! The hero's turn in a running fight: the [`Move`] the hero makes (its target found, its weapon
//! worked out), played against the foes (an attack with its riders and Sneak Attack, a spell and
//! the strike a bonus-action spell leaves room for, a feature's strikes, Turn Undead, a dodge, an
//! escape), and then the companions' and foes' turns up to the next player's.

use std::ops::ControlFlow;

use super::attack::{strike, Party, Swing};
use super::encounter::Encounter;
use super::exchange::{CombatEvent, Exchange, Outcome};
use super::foe::Foe;
use super::hero::Hero;
use super::roller::Roller;
use super::rounds::edge_if;
use super::spell_cast::{Held, SpellCast};
use crate::game::attributes::Attribute;
use crate::game::bestiary::{normalise, AttackName, Damage};
use crate::game::dice::{Check, DiceExpr, Edge};

/// The hero's weapon in hand: its name, attack bonus and damage (bonus included).
pub(super) struct Wielded<'a> {
    /// The weapon's name.
    pub weapon: &'a AttackName,
    /// Its attack bonus.
    pub to_hit: i8,
    /// Its damage, bonus included.
    pub damage: Damage,
}

/// What the hero does on a turn, its target found and its weapon's damage worked out.
pub(super) enum Move<'a> {
    /// Attack the foe at index `foe`.
    Attack {
        /// The foe's index.
        foe: usize,
        /// With what.
        with: Wielded<'a>,
    },
    /// Take the Dodge action.
    Dodge,
    /// Try to get away; the check is already rolled.
    Flee(Check),
    /// Do something the fight does not resolve.
    Pass,
    /// Cast a spell at the foes at these indices (a bonus-action spell, then a strike).
    Cast {
        /// The spell.
        cast: &'a SpellCast,
        /// The foes.
        targets: Vec<usize>,
        /// The weapon that strikes after a bonus-action spell.
        strike: Option<Wielded<'a>>,
    },
    /// Attack with a feature's help (see [`HeroAction::Strike`](super::hero::HeroAction::Strike)).
    Strike {
        /// The foe's index.
        foe: usize,
        /// With what.
        with: Wielded<'a>,
        /// How many attacks.
        strikes: u8,
        /// Healing dice rolled first.
        heal: Option<&'a DiceExpr>,
        /// The hiding check.
        hide: Option<Check>,
    },
    /// Turn Undead against `dc`.
    TurnUndead(u8),
}

impl Encounter {
    /// Plays the hero's turn, then the companions' and foes' up to the next player's; the
    /// outcome if it ended. A hero at 0 HP ends the fight, or with a seat ally standing is passed
    /// over.
    pub(super) fn play(
        &mut self,
        action: Move<'_>,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> Option<Outcome> {
        if hero.hit_points == 0 {
            if let Some(outcome) = self.fight_over(0) {
                return Some(outcome);
            }
            self.pass_over_hero();
            return self
                .next_turn(exchange)
                .or_else(|| self.run_turns(hero, roller, exchange));
        }
        self.hero_dodging = false;
        self.hero_ward = 0;
        self.adopt(hero);
        let healed = match self.hero_move(action, hero, roller, exchange) {
            ControlFlow::Continue(healed) => healed,
            ControlFlow::Break(outcome) => return Some(outcome),
        };
        if self.standing().next().is_none() {
            return Some(Outcome::Victory);
        }
        let after = healed_by(hero, healed);
        self.next_turn(exchange)
            .or_else(|| self.run_turns(&after, roller, exchange))
    }

    /// The hero's move itself: the hit points it heals, or the outcome when the hero gets away.
    fn hero_move(
        &mut self,
        action: Move<'_>,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> ControlFlow<Outcome, u32> {
        let mut sneak = hero.sneak_attack_dice;
        match action {
            Move::Attack { foe, with } => {
                self.hero_attack(foe, &with, hero, Edge::Normal, &mut sneak, roller, exchange);
            }
            Move::Cast {
                cast,
                targets,
                strike,
            } => {
                let healed = self.hero_cast(cast, &targets, hero, roller, exchange);
                if let Some(with) = strike {
                    self.strike_after_cast(&targets, &with, hero, roller, exchange);
                }
                return ControlFlow::Continue(healed);
            }
            Move::Strike {
                foe,
                with,
                strikes,
                heal,
                hide,
            } => {
                let healed = heal.map_or(0, |dice| heal_roll(dice, roller, exchange));
                let edge = hide.map_or(Edge::Normal, |check| hidden_edge(check, exchange));
                for _ in 0..strikes {
                    let Some(target) = self.standing_index(foe) else {
                        break;
                    };
                    self.hero_attack(target, &with, hero, edge, &mut sneak, roller, exchange);
                }
                return ControlFlow::Continue(healed);
            }
            Move::TurnUndead(dc) => self.turn_undead(dc, roller, exchange),
            Move::Dodge => {
                self.hero_dodging = true;
                exchange.events.push(CombatEvent::Dodge);
            }
            Move::Flee(check) => {
                let escaped = check.is_success();
                exchange.events.push(CombatEvent::Flee { check });
                if escaped {
                    return ControlFlow::Break(Outcome::Escaped);
                }
            }
            Move::Pass => exchange.events.push(CombatEvent::Pass),
        }
        ControlFlow::Continue(0)
    }

    /// The strike a bonus-action spell leaves the action for: at the first target if it still
    /// stands, else at the first foe standing (none when every foe is down).
    fn strike_after_cast(
        &mut self,
        targets: &[usize],
        with: &Wielded<'_>,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let target = targets
            .first()
            .copied()
            .and_then(|first| self.standing_index(first))
            .or_else(|| self.foes.iter().position(Foe::is_standing));
        if let Some(target) = target {
            let mut sneak = hero.sneak_attack_dice;
            self.hero_attack(
                target,
                with,
                hero,
                Edge::Normal,
                &mut sneak,
                roller,
                exchange,
            );
        }
    }

    /// A spell the hero held before this call is held in the fight too.
    pub(super) fn adopt(&mut self, hero: &Hero) {
        if hero.concentrating && self.concentration.is_none() {
            self.concentration = Some(Held::default());
        }
    }

    /// The foe at `preferred` if it stands, else the first foe standing.
    fn standing_index(&self, preferred: usize) -> Option<usize> {
        if self.foes[preferred].is_standing() {
            return Some(preferred);
        }
        self.foes.iter().position(Foe::is_standing)
    }

    /// Turn Undead: each undead foe standing saves with WIS against `dc`; on a failure it flees.
    fn turn_undead(&mut self, dc: u8, roller: &mut dyn Roller, exchange: &mut Exchange) {
        exchange.events.push(CombatEvent::Turning);
        for index in 0..self.foes.len() {
            let foe = &self.foes[index];
            if !foe.is_standing() || !is_undead(foe.creature().name().as_str()) {
                continue;
            }
            let saved = self.foe_save(index, Attribute::Wisdom, dc, roller, exchange);
            if !saved {
                self.foes[index].flee();
                exchange.events.push(CombatEvent::Turned {
                    foe: self.foes[index].label().clone(),
                });
            }
        }
    }

    /// The hero attacks the foe at `index` with a weapon (`edge` besides the usual ones); the
    /// damage is applied. Bless's die rides on the roll, Hunter's Mark's on the damage, and
    /// Sneak Attack's d6s (while `sneak` holds any) on the first hit with advantage.
    #[allow(clippy::too_many_arguments)]
    fn hero_attack(
        &mut self,
        index: usize,
        with: &Wielded<'_>,
        hero: &Hero,
        edge: Edge,
        sneak: &mut u8,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let blessing = self.attack_rider().map(|dice| roller.roll(&dice, None));
        let marked = self
            .damage_rider(index)
            .and_then(|dice| Damage::new(dice, with.damage.kind()).ok());
        let foe = &mut self.foes[index];
        let edge = Edge::combine([hero.attack_edge, foe.edge_against_it(), edge]);
        let sneaking = (*sneak > 0 && edge == Edge::Advantage)
            .then(|| DiceExpr::parse(&format!("{}d6", *sneak)).ok())
            .flatten()
            .and_then(|dice| Damage::new(dice, with.damage.kind()).ok());
        let bonus = blessing.as_ref().map_or(0, |roll| roll.total());
        let mut damage = vec![&with.damage];
        damage.extend(marked.as_ref());
        damage.extend(sneaking.as_ref());
        let swing = Swing {
            attacker: Party::Hero,
            weapon: with.weapon,
            to_hit: with
                .to_hit
                .saturating_add(i8::try_from(bonus).unwrap_or(i8::MAX)),
            damage,
            target: Party::Foe(foe.label().clone()),
            armor_class: foe.creature().armor_class(),
            edge,
        };
        if let Some(roll) = blessing {
            exchange.events.push(CombatEvent::Blessed { roll });
        }
        let mut attack = strike(swing, roller);
        attack.set_target_hp(foe.take_damage(attack.total_damage()));
        let sneaked = attack.is_hit() && sneaking.is_some();
        exchange.events.push(CombatEvent::Attack(attack));
        if sneaked {
            exchange
                .events
                .push(CombatEvent::SneakAttack { dice: *sneak });
            *sneak = 0;
        }
    }
}

/// The hero after healing `healed` hit points: no higher than the maximum (or than the hit points
/// the hero had, when those were above it).
fn healed_by(hero: &Hero, healed: u32) -> Hero {
    let healed = u16::try_from(healed).unwrap_or(u16::MAX);
    Hero {
        hit_points: hero
            .hit_points
            .saturating_add(healed)
            .min(hero.max_hit_points.max(hero.hit_points)),
        ..*hero
    }
}

/// A feature's healing dice rolled (Second Wind): the hit points they heal.
fn heal_roll(dice: &DiceExpr, roller: &mut dyn Roller, exchange: &mut Exchange) -> u32 {
    let roll = roller.roll(dice, None);
    let healed = u32::try_from(roll.total()).unwrap_or(0);
    exchange.events.push(CombatEvent::Healed { roll });
    healed
}

/// The hiding check (Cunning Action) told: advantage on the strikes when the hero hid.
fn hidden_edge(check: Check, exchange: &mut Exchange) -> Edge {
    let hidden = check.is_success();
    exchange.events.push(CombatEvent::Hide { check });
    edge_if(hidden, Edge::Advantage)
}

/// The creatures of the bestiary that are undead, by name (Turn Undead reaches only them).
const UNDEAD: &[&str] = &[
    "skeleton",
    "zombie",
    "shadow",
    "ghoul",
    "ghast",
    "wight",
    "specter",
    "ghost",
    "mummy",
    "wraith",
    "vampire",
    "lich",
    "banshee",
    "revenant",
    "minotaur skeleton",
    "ogre zombie",
];

/// Whether a creature called `name` is undead.
pub fn is_undead(name: &str) -> bool {
    let key = normalise(name);
    UNDEAD
        .iter()
        .any(|undead| key.split(' ').any(|word| word == *undead) || key == *undead)
}
