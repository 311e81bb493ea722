//! The turns the rules run between the players' moves: the loop up to the next player's turn
//! (passing over players at 0 HP), each foe's turn in the initiative order (getting up, losing
//! the turn to a condition, its attacks on the hero or an ally and the concentration they may
//! break), the next turn and round, the foes running after round [`MAX_ROUNDS`], and the end of
//! the fight with its experience.

use super::attack::{strike, Party, Swing};
use super::bounds::MAX_ROUNDS;
use super::encounter::Encounter;
use super::exchange::{CombatEvent, EncounterEnd, Exchange, Outcome};
use super::foe::{Foe, FoeCondition, FoeLabel, HpChange};
use super::hero::Hero;
use super::initiative::Combatant;
use super::roller::Roller;
use crate::game::bestiary::{ArmorClass, Attack};
use crate::game::dice::Edge;

/// One of a foe's attacks about to be made: the foe, its label, the attack, and whether its
/// conditions hamper it.
struct Blow<'a> {
    foe: usize,
    label: &'a FoeLabel,
    attack: &'a Attack,
    hampered: bool,
}

impl Blow<'_> {
    /// The swing at `target` behind `armor_class` with `edge`.
    fn swing(&self, target: Party, armor_class: ArmorClass, edge: Edge) -> Swing<'_> {
        Swing {
            attacker: Party::Foe(self.label.clone()),
            weapon: self.attack.name(),
            to_hit: self.attack.to_hit(),
            damage: std::iter::once(self.attack.damage())
                .chain(self.attack.extra())
                .collect(),
            target,
            armor_class,
            edge,
        }
    }
}

impl Encounter {
    /// Runs the companions' and foes' turns from the current one until a player's comes round
    /// (the hero's or a standing seat ally's); the outcome if the fight ended. `hero` is the hero
    /// as the caller gave them, their hit points counted on through the foes' blows.
    pub(super) fn run_turns(
        &mut self,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> Option<Outcome> {
        self.adopt(hero);
        let mut hero = *hero;
        // A standing player is in the order, so this ends within one pass of it (or when every
        // player is down, or at the round cap).
        loop {
            match self.order[self.turn].combatant() {
                Combatant::Hero if hero.hit_points > 0 => return None,
                Combatant::Hero => self.pass_over_hero(),
                Combatant::Ally(i) if self.allies[i].is_seat() && self.allies[i].is_standing() => {
                    return None
                }
                Combatant::Ally(i) => self.companion_turn(i, &mut hero, roller, exchange),
                Combatant::Foe(i) => self.foe_turn(i, &mut hero, roller, exchange),
            }
            if let Some(outcome) = self.fight_over(hero.hit_points) {
                return Some(outcome);
            }
            if let Some(outcome) = self.next_turn(exchange) {
                return Some(outcome);
            }
        }
    }

    /// The hero's turn passed over at 0 HP: their dodge and ward end.
    pub(super) fn pass_over_hero(&mut self) {
        self.hero_dodging = false;
        self.hero_ward = 0;
    }

    /// The outcome if the fight is over: every foe down, or the hero (at `hero_hp`) and every
    /// seat ally at 0 HP.
    pub(super) fn fight_over(&self, hero_hp: u16) -> Option<Outcome> {
        if self.standing().next().is_none() {
            return Some(Outcome::Victory);
        }
        let players_up = hero_hp > 0 || self.allies.iter().any(|a| a.is_seat() && a.is_standing());
        (!players_up).then_some(Outcome::HeroDown)
    }

    /// The foe at `index` takes its turn: it gets up if prone, loses the turn if paralyzed or
    /// stunned, else makes its attacks, each at the one it picks (see [`Encounter::foe_target`]).
    fn foe_turn(
        &mut self,
        index: usize,
        hero: &mut Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let Some(hampered) = self.foe_ready(index, exchange) else {
            return;
        };
        let edge = Edge::combine([
            hero.defence_edge,
            edge_if(self.hero_dodging, Edge::Disadvantage),
            edge_if(hampered, Edge::Disadvantage),
        ]);
        let ward = self.hero_ward.saturating_add(
            self.concentration
                .as_ref()
                .map_or(0, |held| held.armor_bonus),
        );
        let armor_class = ArmorClass::new(i64::from(hero.armor_class.value()) + i64::from(ward))
            .unwrap_or(hero.armor_class);
        let label = self.foes[index].label().clone();
        let attacks = self.foes[index].creature().attacks().to_vec();
        for attack in &attacks {
            let blow = Blow {
                foe: index,
                label: &label,
                attack,
                hampered,
            };
            match self.foe_target(index, hero.hit_points) {
                Some(Combatant::Ally(ally)) => self.strike_ally(&blow, ally, roller, exchange),
                Some(_) => {
                    let swing = blow.swing(Party::Hero, armor_class, edge);
                    self.strike_hero(swing, index, hero, roller, exchange);
                }
                None => break,
            }
        }
    }

    /// The start of the foe at `index`'s turn: it gets up if prone; none when it is out of the
    /// fight or loses the turn to a condition, else whether its conditions hamper its attacks.
    fn foe_ready(&mut self, index: usize, exchange: &mut Exchange) -> Option<bool> {
        let foe = &mut self.foes[index];
        if !foe.is_standing() {
            return None;
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
            return None;
        }
        Some(foe.conditions().any(FoeCondition::hampers))
    }

    /// Who the foe at `index` attacks: the ally who last hurt it if that ally stands, else the
    /// hero (at `hero_hp`) if standing, else the first ally standing; none when all are down.
    fn foe_target(&self, index: usize, hero_hp: u16) -> Option<Combatant> {
        let grudge = self.foes[index]
            .hurt_by()
            .filter(|&ally| self.allies[ally].is_standing());
        if let Some(ally) = grudge {
            return Some(Combatant::Ally(ally));
        }
        if hero_hp > 0 {
            return Some(Combatant::Hero);
        }
        self.allies
            .iter()
            .position(|a| a.is_standing())
            .map(Combatant::Ally)
    }

    /// A foe's `swing` at the hero: the damage counted (for the caller) and on the hero's hit
    /// points, then the concentration it may break, or the hero's fall.
    fn strike_hero(
        &mut self,
        swing: Swing<'_>,
        foe: usize,
        hero: &mut Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let resolution = strike(swing, roller);
        let dealt = resolution.total_damage();
        hero.hit_points = hero
            .hit_points
            .saturating_sub(u16::try_from(dealt).unwrap_or(u16::MAX));
        exchange.damage_to_hero = exchange.damage_to_hero.saturating_add(dealt);
        if let Some(hp) = exchange.hero_hit_points.as_mut() {
            *hp = hero.hit_points;
        }
        exchange.events.push(CombatEvent::Attack(resolution));
        if dealt > 0 {
            self.note_party_foe(foe);
        }
        if hero.hit_points > 0 {
            self.concentration_check(dealt, hero, roller, exchange);
        } else if self.allies.iter().any(|a| a.is_seat() && a.is_standing()) {
            exchange.events.push(CombatEvent::HeroFalls);
        }
    }

    /// A foe's `blow` at the ally at `ally`: the damage applied to it, and its fall.
    fn strike_ally(
        &mut self,
        blow: &Blow<'_>,
        ally: usize,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) {
        let target = &self.allies[ally];
        let edge = Edge::combine([
            edge_if(target.is_dodging(), Edge::Disadvantage),
            edge_if(blow.hampered, Edge::Disadvantage),
        ]);
        let swing = blow.swing(
            Party::Ally(target.name().clone()),
            target.armor_class(),
            edge,
        );
        let mut resolution = strike(swing, roller);
        let dealt = resolution.total_damage();
        let target = &mut self.allies[ally];
        let (from, to) = target.change_hp(dealt, false);
        let max = target.max_hit_points();
        let name = target.name().clone();
        resolution.set_target_hp(HpChange { from, to, max });
        exchange.events.push(CombatEvent::Attack(resolution));
        if dealt > 0 {
            self.note_party_foe(blow.foe);
        }
        if from > 0 && to == 0 {
            exchange.events.push(CombatEvent::AllyFalls { ally: name });
        }
    }

    /// The foe at `index` hurt the hero or an ally: a companion's next target (kept only in a
    /// fight with allies, so a fight without is stored as before).
    fn note_party_foe(&mut self, index: usize) {
        if !self.allies.is_empty() {
            self.party_foe = Some(index);
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
