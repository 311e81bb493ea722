//! A running fight: the initiative order, the round, whose turn it is, the foes, the allies.
//!
//! Between calls an encounter always waits on a player's turn: the hero's or a seat ally's. One
//! action plays that turn, then every companion's and foe's turn up to the next player's (a new
//! round when the order wraps); a player at 0 HP is passed over. The fight ends when every foe
//! is down, the hero gets away, the hero and every seat ally are at 0 HP, or after round
//! [`MAX_ROUNDS`] when the foes still standing run.
//!
//! This file holds the encounter itself: its beginning, what it shows, the foe a name means, and
//! the checks a stored encounter passes when read back. The hero's turn is played in
//! `hero_turn.rs`, the foes' turns and the round's end in `rounds.rs`, a spell in `cast.rs`.

use serde::{Deserialize, Serialize};

use super::ally::{Ally, AllyState};
use super::bounds::{CombatError, MAX_ALLIES, MAX_FOES, MAX_ROUNDS};
use super::exchange::{CombatEvent, InitiativeRoll};
use super::foe::{Foe, FoeCondition, FoeLabel};
use super::hero::Hero;
use super::initiative::{initiative_cmp, initiative_with, Combatant, InitiativeEntry};
use super::roller::Roller;
use super::spell_cast::{Held, SpellHold};
use crate::game::attributes::{Attribute, AttributeBonus};
use crate::game::bestiary::{normalise, Creature};
use crate::game::dice::DiceExpr;
use crate::game::text::excerpt;

/// A running fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "EncounterData", into = "EncounterData")]
pub struct Encounter {
    pub(super) round: u16,
    pub(super) turn: usize,
    pub(super) order: Vec<InitiativeEntry>,
    pub(super) foes: Vec<Foe>,
    pub(super) hero_dodging: bool,
    /// The spell the hero holds in this fight, if any.
    pub(super) concentration: Option<Held>,
    /// Conditions spells put on foes, until they end.
    pub(super) holds: Vec<SpellHold>,
    /// The hero's armour class bonus until their next turn (Shield).
    pub(super) hero_ward: u8,
    /// The hero's allies, in the order the caller gave them.
    pub(super) allies: Vec<AllyState>,
    /// The foe that last hurt the hero or an ally (kept only in a fight with allies).
    pub(super) party_foe: Option<usize>,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    allies: Vec<AllyState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    party_foe: Option<usize>,
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// The allies as the fight keeps them, each with its DEX modifier: at most [`MAX_ALLIES`], each
/// with a name of its own.
fn party(allies: Vec<Ally>) -> Result<Vec<(AllyState, i8)>, CombatError> {
    if allies.len() > MAX_ALLIES {
        return Err(CombatError::TooManyAllies {
            count: allies.len(),
        });
    }
    for (i, ally) in allies.iter().enumerate() {
        if allies[..i]
            .iter()
            .any(|a| a.name.eq_ignore_case(&ally.name))
        {
            return Err(CombatError::SameAllyName {
                name: ally.name.to_string(),
            });
        }
    }
    allies
        .into_iter()
        .map(|ally| {
            let dex = ally.initiative;
            Ok((AllyState::new(ally)?, dex))
        })
        .collect()
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
    /// A new fight against `creatures` beside `allies`, initiative rolled: the encounter, set on
    /// the first turn, and the initiative event.
    pub(super) fn begin(
        creatures: Vec<Creature>,
        hero: &Hero,
        allies: Vec<Ally>,
        roller: &mut dyn Roller,
    ) -> Result<(Self, CombatEvent), CombatError> {
        match creatures.len() {
            0 => return Err(CombatError::NoFoes),
            count if count > MAX_FOES => return Err(CombatError::TooManyFoes { count }),
            _ => {}
        }
        let allies = party(allies)?;
        let labels = labels(&creatures)?;
        let dex: Vec<i8> = creatures
            .iter()
            .map(|c| c.abilities().get(Attribute::Dexterity))
            .collect();
        let ally_dex: Vec<i8> = allies.iter().map(|(_, dex)| *dex).collect();
        let allies: Vec<AllyState> = allies.into_iter().map(|(ally, _)| ally).collect();
        let order = initiative_with(hero.initiative, &ally_dex, &dex, roller);
        let foes: Vec<Foe> = labels
            .into_iter()
            .zip(creatures)
            .map(|(l, c)| Foe::new(l, c))
            .collect();
        let shown = order
            .iter()
            .map(|entry| InitiativeRoll {
                foe: match entry.combatant() {
                    Combatant::Foe(i) => Some(foes[i].label().clone()),
                    _ => None,
                },
                ally: match entry.combatant() {
                    Combatant::Ally(i) => Some(allies[i].name().clone()),
                    _ => None,
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
            allies,
            party_foe: None,
        };
        Ok((encounter, CombatEvent::Initiative { order: shown }))
    }

    /// The player whose turn the fight waits on: the hero, or a seat ally.
    pub fn waiting_on(&self) -> Combatant {
        self.order[self.turn].combatant()
    }

    /// The hero's allies, in the order the caller gave them, with their hit points now.
    pub fn allies(&self) -> &[AllyState] {
        &self.allies
    }

    /// Who `combatant` is, as a line says it: `you`, an ally's name, a foe's label.
    pub(super) fn name_of(&self, combatant: Combatant) -> &str {
        match combatant {
            Combatant::Hero => "you",
            Combatant::Ally(i) => self.allies[i].name().as_str(),
            Combatant::Foe(i) => self.foes[i].label().as_str(),
        }
    }

    /// Refused unless the fight waits on `player`'s turn.
    pub(super) fn expect_turn(&self, player: Combatant) -> Result<(), CombatError> {
        let waiting = self.waiting_on();
        if waiting == player {
            Ok(())
        } else {
            Err(CombatError::NotYourTurn {
                waiting: self.name_of(waiting).to_owned(),
            })
        }
    }

    /// The round, from 1 to [`MAX_ROUNDS`].
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Everyone in the order they act.
    pub fn order(&self) -> &[InitiativeEntry] {
        &self.order
    }

    /// The place in [`Encounter::order`] whose turn it is (between calls, a player's: see
    /// [`Encounter::waiting_on`]).
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
    /// With allies, theirs follow: ` Allies: Bran (AC 16): 12/20 HP; Mira: down.`
    pub fn describe(&self) -> String {
        let order: Vec<&str> = self
            .order
            .iter()
            .map(|e| self.name_of(e.combatant()))
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
        if !self.allies.is_empty() {
            let allies: Vec<String> = self.allies.iter().map(AllyState::status).collect();
            out.push_str(&format!(" Allies: {}.", allies.join("; ")));
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
        check_party(&data)?;
        check_order(&data)?;
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
            allies: data.allies,
            party_foe: data.party_foe,
        })
    }
}

/// The allies' checks: at most [`MAX_ALLIES`], names of their own, and every foe's grudge and
/// the party's foe within the lists.
fn check_party(data: &EncounterData) -> Result<(), InvalidEncounter> {
    let allies = &data.allies;
    if allies.len() > MAX_ALLIES {
        return Err(InvalidEncounter("it holds at most 4 allies"));
    }
    if (1..allies.len()).any(|i| {
        allies[..i]
            .iter()
            .any(|a| a.name().eq_ignore_case(allies[i].name()))
    }) {
        return Err(InvalidEncounter("two allies share a name"));
    }
    if data
        .foes
        .iter()
        .any(|f| f.hurt_by().is_some_and(|a| a >= allies.len()))
        || data.party_foe.is_some_and(|f| f >= data.foes.len())
    {
        return Err(InvalidEncounter("a grudge names no one in the fight"));
    }
    Ok(())
}

/// The order's checks: everyone once, sorted, rolled fairly, waiting on a player (a seat ally
/// only while it stands).
fn check_order(data: &EncounterData) -> Result<(), InvalidEncounter> {
    let fail = |why| Err(InvalidEncounter(why));
    let mut seen: Vec<Combatant> = data.order.iter().map(InitiativeEntry::combatant).collect();
    let mut expected: Vec<Combatant> = std::iter::once(Combatant::Hero)
        .chain((0..data.allies.len()).map(Combatant::Ally))
        .chain((0..data.foes.len()).map(Combatant::Foe))
        .collect();
    seen.sort_by_key(|c| c.place());
    expected.sort_by_key(|c| c.place());
    if seen != expected {
        return if data.allies.is_empty() {
            fail("the order must hold the hero and each foe once")
        } else {
            fail("the order must hold the hero, each ally and each foe once")
        };
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
    match data.order.get(data.turn).map(InitiativeEntry::combatant) {
        Some(Combatant::Hero) => Ok(()),
        Some(Combatant::Ally(i)) if data.allies[i].is_seat() && data.allies[i].is_standing() => {
            Ok(())
        }
        _ if data.allies.is_empty() => fail("it must wait on the hero's turn"),
        _ => fail("it must wait on the hero's or a standing seat ally's turn"),
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
            allies: encounter.allies,
            party_foe: encounter.party_foe,
        }
    }
}
