//! A running fight: the initiative order, the round, whose turn it is, the foes.
//!
//! Between calls an encounter always waits on the hero's turn. One hero action plays the hero's
//! turn, then every foe's turn up to the hero's next one (a new round when the order wraps). The
//! fight ends when every foe is down, the hero gets away or drops to 0 HP, or after round
//! [`MAX_ROUNDS`] when the foes still standing run.

use serde::{Deserialize, Serialize};

use super::attack::{strike, Party, Swing};
use super::cast::{Held, SpellCast, SpellHold};
use super::exchange::{CombatEvent, EncounterEnd, Exchange, InitiativeRoll, Outcome};
use super::foe::{Foe, FoeCondition, FoeLabel};
use super::initiative::{initiative_cmp, initiative_with, Combatant, InitiativeEntry};
use super::roller::Roller;
use super::{CombatError, Hero, MAX_FOES, MAX_ROUNDS};
use crate::game::attributes::{Attribute, AttributeBonus};
use crate::game::bestiary::{normalise, ArmorClass, AttackName, Creature, Damage};
use crate::game::dice::Edge;
use crate::game::dice::{Check, DiceExpr};
use crate::game::text::excerpt;

/// A running fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "EncounterData", into = "EncounterData")]
pub struct Encounter {
    round: u16,
    turn: usize,
    order: Vec<InitiativeEntry>,
    foes: Vec<Foe>,
    hero_dodging: bool,
    /// The spell the hero holds in this fight, if any.
    pub(super) concentration: Option<Held>,
    /// Conditions spells put on foes, until they end.
    pub(super) holds: Vec<SpellHold>,
    /// The hero's armour class bonus until their next turn (Shield).
    pub(super) hero_ward: u8,
}

/// An encounter as stored in the snapshot, checked when read back.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EncounterData {
    round: u16,
    turn: usize,
    order: Vec<InitiativeEntry>,
    foes: Vec<Foe>,
    #[serde(default)]
    hero_dodging: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    concentration: Option<Held>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    holds: Vec<SpellHold>,
    #[serde(default, skip_serializing_if = "is_zero")]
    hero_ward: u8,
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

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
    /// Attack with a feature's help (see [`HeroAction::Strike`](super::HeroAction::Strike)).
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

/// Labels for `creatures`: the name alone, or numbered in order when several share it.
fn labels(creatures: &[Creature]) -> Result<Vec<FoeLabel>, CombatError> {
    let keys: Vec<String> = creatures
        .iter()
        .map(|c| normalise(c.name().as_str()))
        .collect();
    creatures
        .iter()
        .enumerate()
        .map(|(i, creature)| {
            let same = |k: &&String| **k == keys[i];
            let label = if keys.iter().filter(same).count() > 1 {
                let number = keys[..i].iter().filter(same).count() + 1;
                format!("{} {number}", creature.name())
            } else {
                creature.name().to_string()
            };
            Ok(FoeLabel::new(&label)?)
        })
        .collect()
}

impl Encounter {
    /// A new fight against `creatures`, initiative rolled: the encounter, set on the first turn,
    /// and the initiative event.
    pub(super) fn begin(
        creatures: Vec<Creature>,
        hero: &Hero,
        roller: &mut dyn Roller,
    ) -> Result<(Self, CombatEvent), CombatError> {
        match creatures.len() {
            0 => return Err(CombatError::NoFoes),
            count if count > MAX_FOES => return Err(CombatError::TooManyFoes { count }),
            _ => {}
        }
        let labels = labels(&creatures)?;
        let dex: Vec<i8> = creatures
            .iter()
            .map(|c| c.abilities().get(Attribute::Dexterity))
            .collect();
        let order = initiative_with(hero.initiative, &dex, roller);
        let foes: Vec<Foe> = labels
            .into_iter()
            .zip(creatures)
            .map(|(l, c)| Foe::new(l, c))
            .collect();
        let shown = order
            .iter()
            .map(|entry| InitiativeRoll {
                foe: match entry.combatant() {
                    Combatant::Hero => None,
                    Combatant::Foe(i) => Some(foes[i].label().clone()),
                },
                roll: entry.roll().clone(),
            })
            .collect();
        let encounter = Self {
            round: 1,
            turn: 0,
            order,
            foes,
            hero_dodging: false,
            concentration: None,
            holds: Vec::new(),
            hero_ward: 0,
        };
        Ok((encounter, CombatEvent::Initiative { order: shown }))
    }

    /// The round, from 1 to [`MAX_ROUNDS`].
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Everyone in the order they act.
    pub fn order(&self) -> &[InitiativeEntry] {
        &self.order
    }

    /// The place in [`Encounter::order`] whose turn it is (between calls, the hero's).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Every foe, in the order they were brought in, the defeated and fled included.
    pub fn foes(&self) -> &[Foe] {
        &self.foes
    }

    /// The foes, to change.
    pub(super) fn foes_mut(&mut self) -> &mut [Foe] {
        &mut self.foes
    }

    /// The spell the hero concentrates on in this fight (none: one cast before it).
    pub fn held_spell(&self) -> Option<Option<&str>> {
        self.concentration
            .as_ref()
            .map(|held| held.spell.as_deref())
    }

    /// The foes still in the fight.
    pub fn standing(&self) -> impl Iterator<Item = &Foe> {
        self.foes.iter().filter(|f| f.is_standing())
    }

    /// Whether attacks against the hero have disadvantage (the hero dodged this round).
    pub fn is_hero_dodging(&self) -> bool {
        self.hero_dodging
    }

    /// The fight at a glance, for the model:
    /// `Round 2. Order: Goblin 2, you, Goblin 1. Goblin 1 (AC 15): 3/7 HP, prone; Goblin 2: down.`
    pub fn describe(&self) -> String {
        let order: Vec<&str> = self
            .order
            .iter()
            .map(|e| match e.combatant() {
                Combatant::Hero => "you",
                Combatant::Foe(i) => self.foes[i].label().as_str(),
            })
            .collect();
        let foes: Vec<String> = self.foes.iter().map(Foe::status).collect();
        let mut out = format!(
            "Round {}. Order: {}. {}.",
            self.round,
            order.join(", "),
            foes.join("; ")
        );
        if self.hero_dodging {
            out.push_str(" You are dodging.");
        }
        out
    }

    /// The foe `name` means: its label (`Goblin 2`), or its creature's name when one such foe
    /// is standing (`goblin`); ignoring case and spacing.
    pub(super) fn find(&self, name: &str) -> Result<usize, CombatError> {
        let key = normalise(name);
        if let Some(i) = self
            .foes
            .iter()
            .position(|f| normalise(f.label().as_str()) == key)
        {
            return self.available(i);
        }
        let kind: Vec<usize> = (0..self.foes.len())
            .filter(|&i| normalise(self.foes[i].creature().name().as_str()) == key)
            .collect();
        let standing: Vec<usize> = kind
            .iter()
            .copied()
            .filter(|&i| self.foes[i].is_standing())
            .collect();
        match (standing.as_slice(), kind.first()) {
            ([one], _) => Ok(*one),
            ([], Some(&first)) => self.available(first),
            ([], None) => Err(CombatError::NotInFight {
                name: excerpt(name.trim()),
                standing: self.standing().map(|f| f.label().to_string()).collect(),
            }),
            (many, _) => Err(CombatError::Ambiguous {
                name: excerpt(name.trim()),
                candidates: many
                    .iter()
                    .map(|&i| self.foes[i].label().to_string())
                    .collect(),
            }),
        }
    }

    /// The foe at `index` if it is still in the fight, else why not.
    fn available(&self, index: usize) -> Result<usize, CombatError> {
        let foe = &self.foes[index];
        let label = foe.label().to_string();
        if foe.is_defeated() {
            Err(CombatError::FoeDown { label })
        } else if foe.has_fled() {
            Err(CombatError::FoeFled { label })
        } else {
            Ok(index)
        }
    }

    /// Puts the foe at `index` under `condition` or lifts it; whether that changed anything.
    pub(super) fn set_condition(
        &mut self,
        index: usize,
        condition: FoeCondition,
        on: bool,
    ) -> bool {
        let foe = &mut self.foes[index];
        if on {
            foe.add_condition(condition)
        } else {
            foe.remove_condition(condition)
        }
    }

    /// Plays the hero's turn, then the foes' up to the hero's next; the outcome if it ended.
    pub(super) fn play(
        &mut self,
        action: Move<'_>,
        hero: &Hero,
        roller: &mut dyn Roller,
        exchange: &mut Exchange,
    ) -> Option<Outcome> {
        if hero.hit_points == 0 {
            return Some(Outcome::HeroDown);
        }
        self.hero_dodging = false;
        self.hero_ward = 0;
        self.adopt(hero);
        let mut sneak = hero.sneak_attack_dice;
        let mut healed = 0;
        match action {
            Move::Attack { foe, with } => {
                self.hero_attack(foe, &with, hero, Edge::Normal, &mut sneak, roller, exchange);
                if self.standing().next().is_none() {
                    return Some(Outcome::Victory);
                }
            }
            Move::Cast {
                cast,
                targets,
                strike,
            } => {
                healed = self.hero_cast(cast, &targets, hero, roller, exchange);
                let target = targets
                    .first()
                    .copied()
                    .and_then(|first| self.standing_index(first))
                    .or_else(|| self.foes.iter().position(Foe::is_standing));
                if let (Some(with), Some(target)) = (strike, target) {
                    let edge = Edge::Normal;
                    self.hero_attack(target, &with, hero, edge, &mut sneak, roller, exchange);
                }
                if self.standing().next().is_none() {
                    return Some(Outcome::Victory);
                }
            }
            Move::Strike {
                foe,
                with,
                strikes,
                heal,
                hide,
            } => {
                if let Some(dice) = heal {
                    let roll = roller.roll(dice, None);
                    healed = u32::try_from(roll.total()).unwrap_or(0);
                    exchange.events.push(CombatEvent::Healed { roll });
                }
                let edge = match hide {
                    Some(check) => {
                        let hidden = check.is_success();
                        exchange.events.push(CombatEvent::Hide { check });
                        edge_if(hidden, Edge::Advantage)
                    }
                    None => Edge::Normal,
                };
                for _ in 0..strikes {
                    let Some(target) = self.standing_index(foe) else {
                        break;
                    };
                    self.hero_attack(target, &with, hero, edge, &mut sneak, roller, exchange);
                }
                if self.standing().next().is_none() {
                    return Some(Outcome::Victory);
                }
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
                    return Some(Outcome::Escaped);
                }
            }
            Move::Pass => exchange.events.push(CombatEvent::Pass),
        }
        let healed = u16::try_from(healed).unwrap_or(u16::MAX);
        let after = Hero {
            hit_points: hero
                .hit_points
                .saturating_add(healed)
                .min(hero.max_hit_points.max(hero.hit_points)),
            ..*hero
        };
        if self.standing().next().is_none() {
            return Some(Outcome::Victory);
        }
        self.next_turn(exchange)
            .or_else(|| self.run_foes(&after, roller, exchange))
    }

    /// A spell the hero held before this call is held in the fight too.
    fn adopt(&mut self, hero: &Hero) {
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
    fn next_turn(&mut self, exchange: &mut Exchange) -> Option<Outcome> {
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

/// `edge` when `cond` holds, else no edge.
fn edge_if(cond: bool, edge: Edge) -> Edge {
    if cond {
        edge
    } else {
        Edge::Normal
    }
}

/// A stored encounter that breaks the rules' invariants.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stored encounter: {0}")]
pub struct InvalidEncounter(&'static str);

impl TryFrom<EncounterData> for Encounter {
    type Error = InvalidEncounter;

    fn try_from(data: EncounterData) -> Result<Self, Self::Error> {
        let fail = |why| Err(InvalidEncounter(why));
        if data.foes.is_empty() || data.foes.len() > MAX_FOES {
            return fail("it must hold 1 to 12 foes");
        }
        if !data.foes.iter().any(Foe::is_standing) {
            return fail("no foe is standing");
        }
        let keys: Vec<String> = data
            .foes
            .iter()
            .map(|f| normalise(f.label().as_str()))
            .collect();
        if (1..keys.len()).any(|i| keys[..i].contains(&keys[i])) {
            return fail("two foes share a label");
        }
        let mut seen: Vec<Combatant> = data.order.iter().map(InitiativeEntry::combatant).collect();
        let mut expected: Vec<Combatant> = std::iter::once(Combatant::Hero)
            .chain((0..data.foes.len()).map(Combatant::Foe))
            .collect();
        let rank = |c: &Combatant| match c {
            Combatant::Hero => 0,
            Combatant::Foe(i) => i.saturating_add(1),
        };
        seen.sort_by_key(rank);
        expected.sort_by_key(rank);
        if seen != expected {
            return fail("the order must hold the hero and each foe once");
        }
        if !data
            .order
            .windows(2)
            .all(|w| initiative_cmp(&w[0], &w[1]).is_le())
        {
            return fail("the order is not sorted by initiative");
        }
        if !data.order.iter().all(rolled_fairly) {
            return fail("an initiative roll is not a d20 plus DEX");
        }
        if data.order.get(data.turn).map(InitiativeEntry::combatant) != Some(Combatant::Hero) {
            return fail("it must wait on the hero's turn");
        }
        if !(1..=MAX_ROUNDS).contains(&data.round) {
            return fail("the round must be 1..=100");
        }
        Ok(Self {
            round: data.round,
            turn: data.turn,
            order: data.order,
            foes: data.foes,
            hero_dodging: data.hero_dodging,
            concentration: data.concentration,
            holds: data.holds,
            hero_ward: data.hero_ward,
        })
    }
}

/// Whether an initiative entry's roll is a d20 plus its DEX modifier, as rolled.
fn rolled_fairly(entry: &InitiativeEntry) -> bool {
    let dex = AttributeBonus {
        attribute: Attribute::Dexterity,
        modifier: entry.dex(),
        proficiency: 0,
    };
    entry.roll().attribute() == Some(dex) && DiceExpr::d20().explains(entry.roll())
}

impl From<Encounter> for EncounterData {
    fn from(encounter: Encounter) -> Self {
        Self {
            round: encounter.round,
            turn: encounter.turn,
            order: encounter.order,
            foes: encounter.foes,
            hero_dodging: encounter.hero_dodging,
            concentration: encounter.concentration,
            holds: encounter.holds,
            hero_ward: encounter.hero_ward,
        }
    }
}
