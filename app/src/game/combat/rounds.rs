//! The turns after the hero's: each foe's turn in the initiative order (getting up, losing the
//! turn to a condition, its attacks against the hero's armour class and the concentration they
//! may break), the next turn and round, the foes running after round [`MAX_ROUNDS`], and the
//! end of the fight with its experience.

use super::attack::{strike, Party, Swing};
use super::bounds::MAX_ROUNDS;
use super::encounter::Encounter;
use super::exchange::{CombatEvent, EncounterEnd, Exchange, Outcome};
use super::foe::{Foe, FoeCondition};
use super::hero::Hero;
use super::initiative::Combatant;
use super::roller::Roller;
use crate::game::bestiary::ArmorClass;
use crate::game::dice::Edge;

impl Encounter {
    /// Runs the foes' turns from the current one until the hero's comes round; the outcome if
    /// the fight ended. Stops at once when the hero drops to 0 HP.
    pub(super) fn run_foes(
        &mut self,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> Option<Outcome> {
        self.adopt(hero);
        let mut hp = hero.hit_points;
        // The hero is in the order, so this ends within one pass of it (or at the round cap).
        loop {
            match self.order[self.turn].combatant() {
                Combatant::Hero => return None,
                Combatant::Foe(i) => self.foe_turn(i, hero, &mut hp, roller, exchange),
            }
            if hp == 0 {
                return Some(Outcome::HeroDown);
            }
            if let Some(outcome) = self.next_turn(exchange) {
                return Some(outcome);
            }
        }
    }

    /// The foe at `index` takes its turn: it gets up if prone, loses the turn if paralyzed or
    /// stunned, else makes its attacks against the hero while the hero stands.
    fn foe_turn(
        &mut self,
        index: usize,
        hero: &Hero,
        hp: &mut u16,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let dodging = self.hero_dodging;
        let foe = &mut self.foes[index];
        if !foe.is_standing() {
            return;
        }
        let label = foe.label().clone();
        if foe.remove_condition(FoeCondition::Prone) {
            exchange
                .events
                .push(CombatEvent::StandsUp { foe: label.clone() });
        }
        if let Some(condition) = foe.conditions().find(|c| c.incapacitates()) {
            exchange.events.push(CombatEvent::LosesTurn {
                foe: label,
                condition,
            });
            return;
        }
        let hampered = foe.conditions().any(FoeCondition::hampers);
        let edge = Edge::combine([
            hero.defence_edge,
            edge_if(dodging, Edge::Disadvantage),
            edge_if(hampered, Edge::Disadvantage),
        ]);
        let attacks = foe.creature().attacks().to_vec();
        let ward = self.hero_ward.saturating_add(
            self.concentration
                .as_ref()
                .map_or(0, |held| held.armor_bonus),
        );
        let armor_class = ArmorClass::new(i64::from(hero.armor_class.value()) + i64::from(ward))
            .unwrap_or(hero.armor_class);
        for attack in &attacks {
            if *hp == 0 {
                break;
            }
            let swing = Swing {
                attacker: Party::Foe(label.clone()),
                weapon: attack.name(),
                to_hit: attack.to_hit(),
                damage: std::iter::once(attack.damage())
                    .chain(attack.extra())
                    .collect(),
                target: Party::Hero,
                armor_class,
                edge,
            };
            let resolution = strike(swing, roller);
            let dealt = resolution.total_damage();
            *hp = hp.saturating_sub(u16::try_from(dealt).unwrap_or(u16::MAX));
            exchange.damage_to_hero = exchange.damage_to_hero.saturating_add(dealt);
            exchange.events.push(CombatEvent::Attack(resolution));
            if *hp > 0 {
                self.concentration_check(dealt, hero, roller, exchange);
            }
        }
    }

    /// Moves to the next turn: past the last, a new round; past round [`MAX_ROUNDS`], the foes
    /// still standing run and the fight ends.
    pub(super) fn next_turn(&mut self, exchange: &mut Exchange) -> Option<Outcome> {
        self.turn += 1;
        if self.turn < self.order.len() {
            return None;
        }
        if self.round >= MAX_ROUNDS {
            let mut fled = Vec::new();
            for foe in self.foes.iter_mut().filter(|f| f.is_standing()) {
                foe.flee();
                fled.push(foe.label().clone());
            }
            exchange.events.push(CombatEvent::FoesFlee { foes: fled });
            return Some(Outcome::FoesFled);
        }
        self.round += 1;
        self.turn = 0;
        exchange
            .events
            .push(CombatEvent::Round { round: self.round });
        self.expire_holds(exchange);
        None
    }

    /// The end of the fight with `outcome`: the defeated foes and their experience.
    pub(super) fn finish(&self, outcome: Outcome) -> EncounterEnd {
        let defeated: Vec<&Foe> = self.foes.iter().filter(|f| f.is_defeated()).collect();
        EncounterEnd {
            outcome,
            rounds: self.round,
            xp: defeated
                .iter()
                .map(|f| f.creature().xp())
                .fold(0, u32::saturating_add),
            defeated: defeated.into_iter().map(|f| f.label().clone()).collect(),
        }
    }
}

/// `edge` when `cond` holds, else no edge.
pub(super) fn edge_if(cond: bool, edge: Edge) -> Edge {
    if cond {
        edge
    } else {
        Edge::Normal
    }
}
