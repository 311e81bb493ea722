//! What one call into a fight produced, in order: initiative, the hero's or a seat ally's action,
//! the companions' and foes' turns, new rounds, and the end of the fight if it came. Each event
//! describes itself in one line for the model and the story log; the exchange also carries what
//! the caller applies to the sheets (the hero's damage, the allies' hit points).

use serde::{Deserialize, Serialize};

use super::attack::{AttackResolution, DamageRoll};
use super::bounds::MAX_ROUNDS;
use super::foe::{FoeCondition, FoeLabel, HpChange};
use crate::game::dice::{Check, Roll};
use crate::game::spells::{RiderOn, SpellLevel};
use crate::game::text::CharacterName;

/// One place in the initiative order as shown: who and their roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRoll {
    /// The foe's label; none for the hero or an ally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foe: Option<FoeLabel>,
    /// The ally's name; none for the hero or a foe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ally: Option<CharacterName>,
    /// The roll.
    pub roll: Roll,
}

/// Something that happened in a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "camelCase")]
pub enum CombatEvent {
    /// The fight began; everyone in the order they act.
    Initiative {
        /// The order.
        order: Vec<InitiativeRoll>,
    },
    /// A new round began.
    Round {
        /// Its number, from 2.
        round: u16,
    },
    /// An attack, the hero's or a foe's.
    Attack(AttackResolution),
    /// The hero took the Dodge action.
    Dodge,
    /// The hero spent the turn on something the fight does not resolve.
    Pass,
    /// The hero tried to get away.
    Flee {
        /// The check the caller rolled.
        check: Check,
    },
    /// A prone foe got up at the start of its turn.
    StandsUp {
        /// Which foe.
        foe: FoeLabel,
    },
    /// A foe lost its turn to a condition.
    LosesTurn {
        /// Which foe.
        foe: FoeLabel,
        /// The condition.
        condition: FoeCondition,
    },
    /// The round cap came: the foes still standing ran.
    FoesFlee {
        /// Who ran.
        foes: Vec<FoeLabel>,
    },
    /// The hero cast a spell.
    Cast {
        /// The spell.
        spell: String,
        /// The slot spent (0: a cantrip).
        slot: SpellLevel,
    },
    /// A foe's saving throw against the hero's spell or feature.
    SpellSave {
        /// Which foe.
        foe: FoeLabel,
        /// The d20 and its modifier.
        roll: Roll,
        /// The DC.
        dc: u8,
        /// Whether it saved.
        saved: bool,
    },
    /// A spell landed on a foe: its damage and the condition it put on it.
    SpellHit {
        /// The spell.
        spell: String,
        /// Which foe.
        foe: FoeLabel,
        /// The damage roll, if it deals damage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<DamageRoll>,
        /// The damage dealt (halved on a save where the spell says so).
        dealt: u32,
        /// The foe's hit points before and after.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hp: Option<HpChange>,
        /// The condition put on it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        condition: Option<FoeCondition>,
    },
    /// The hero healed (a spell, Second Wind).
    Healed {
        /// The dice.
        roll: Roll,
    },
    /// A pool of hit points rolled (Sleep).
    Pool {
        /// The spell.
        spell: String,
        /// The pool.
        roll: Roll,
    },
    /// Dice now ride on the hero's rolls while they concentrate.
    Rider {
        /// The dice (`1d6`).
        dice: String,
        /// On which rolls.
        on: RiderOn,
        /// The foe a damage rider is bound to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        foe: Option<FoeLabel>,
    },
    /// The hero's armour class rose.
    Ward {
        /// By how much.
        bonus: u8,
    },
    /// The CON save a blow made the hero roll to keep concentrating.
    Concentration {
        /// The spell held (none: one cast before the fight).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
        /// The save.
        roll: Roll,
        /// Its DC.
        dc: u8,
        /// Whether the spell held.
        kept: bool,
    },
    /// A spell's condition ended on a foe.
    ConditionEnds {
        /// Which foe.
        foe: FoeLabel,
        /// The condition.
        condition: FoeCondition,
    },
    /// The hero hid first (Cunning Action).
    Hide {
        /// The Stealth check against the foes' best Perception.
        check: Check,
    },
    /// Bless's die on the hero's attack roll.
    Blessed {
        /// The die.
        roll: Roll,
    },
    /// Sneak Attack's dice rode on that hit.
    SneakAttack {
        /// How many d6s.
        dice: u8,
    },
    /// The hero presented their holy symbol (Turn Undead).
    Turning,
    /// An undead foe was turned and fled.
    Turned {
        /// Which foe.
        foe: FoeLabel,
    },
    /// An ally's attack on a foe.
    AllyAttack(AttackResolution),
    /// A seat ally took the Dodge action.
    AllyDodge {
        /// Which ally.
        ally: CharacterName,
    },
    /// A seat ally spent the turn on something the fight does not resolve.
    AllyPass {
        /// Which ally.
        ally: CharacterName,
    },
    /// A companion healed the hero or an ally.
    AllyHeals {
        /// The healer.
        ally: CharacterName,
        /// The ally healed; none for the hero.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<CharacterName>,
        /// The healing dice.
        roll: Roll,
        /// The healed one's hit points after.
        hp: u16,
        /// Their maximum.
        max: u16,
    },
    /// An ally dropped to 0 HP; the fight goes on.
    AllyFalls {
        /// Which ally.
        ally: CharacterName,
    },
    /// The hero dropped to 0 HP while a seat ally still stands; the fight goes on.
    HeroFalls,
}

impl CombatEvent {
    /// The event in one line: `Initiative: Goblin 2 17, you 15, Goblin 1 9`.
    pub fn describe(&self) -> String {
        match self {
            CombatEvent::Initiative { order } => {
                let places: Vec<String> = order
                    .iter()
                    .map(|p| match (&p.foe, &p.ally) {
                        (Some(label), _) => format!("{label} {}", p.roll.total()),
                        (None, Some(name)) => format!("{name} {}", p.roll.total()),
                        (None, None) => format!("you {}", p.roll.total()),
                    })
                    .collect();
                format!("Initiative: {}", places.join(", "))
            }
            CombatEvent::Round { round } => format!("Round {round}"),
            CombatEvent::Attack(attack) => attack.describe(),
            CombatEvent::Dodge => {
                "You dodge: attacks against you have disadvantage until your next turn".into()
            }
            CombatEvent::Pass => "You spend your turn".into(),
            CombatEvent::Flee { check } => {
                let outcome = if check.is_success() {
                    "you get away"
                } else {
                    "you do not get away"
                };
                format!("{}; {outcome}", check.describe("Flee"))
            }
            CombatEvent::StandsUp { foe } => format!("{foe} gets up"),
            CombatEvent::LosesTurn { foe, condition } => {
                format!("{foe} is {condition} and loses its turn")
            }
            CombatEvent::FoesFlee { foes } => format!(
                "After {MAX_ROUNDS} rounds the fight breaks up: {} {}",
                join(foes),
                if foes.len() == 1 { "flees" } else { "flee" }
            ),
            other => describe_power(other),
        }
    }
}

/// The line of an event of a spell or class feature.
fn describe_power(event: &CombatEvent) -> String {
    match event {
        CombatEvent::Cast { spell, slot } if slot.is_cantrip() => format!("You cast {spell}"),
        CombatEvent::Cast { spell, slot } => {
            format!("You cast {spell} with a {} slot", slot.ordinal())
        }
        CombatEvent::SpellSave {
            foe,
            roll,
            dc,
            saved,
        } => format!(
            "{foe} saves: {} vs DC {dc}, {}",
            roll_line(roll),
            if *saved { "success" } else { "failure" }
        ),
        CombatEvent::SpellHit {
            spell,
            foe,
            damage,
            dealt,
            hp,
            condition,
        } => spell_hit(spell, foe, damage.as_ref(), *dealt, *hp, *condition),
        CombatEvent::Healed { roll } => {
            format!("You heal {}: {}", roll.total().max(0), roll_line(roll))
        }
        CombatEvent::Pool { spell, roll } => {
            format!("{spell}: {} hit points of foes", roll_line(roll))
        }
        CombatEvent::Rider { dice, on, foe } => match (on, foe) {
            (RiderOn::Damage, Some(foe)) => {
                format!("{foe} is marked: +{dice} damage on each of your hits on it")
            }
            _ => format!("+{dice} on each of your attack rolls while you concentrate"),
        },
        CombatEvent::Ward { bonus } => format!("Your armour class rises by {bonus}"),
        CombatEvent::Concentration {
            spell,
            roll,
            dc,
            kept,
        } => format!(
            "Concentration{}: CON save {} vs DC {dc}, {}",
            spell.as_ref().map_or(String::new(), |s| format!(" on {s}")),
            roll_line(roll),
            if *kept { "held" } else { "lost" }
        ),
        CombatEvent::ConditionEnds { foe, condition } => {
            format!("{foe} is no longer {condition}")
        }
        CombatEvent::Hide { check } => {
            let outcome = if check.is_success() {
                "hidden: your next attack has advantage"
            } else {
                "seen"
            };
            format!("{}; {outcome}", check.describe("Hide (Cunning Action)"))
        }
        CombatEvent::Blessed { roll } => format!("Bless: {}", roll_line(roll)),
        CombatEvent::SneakAttack { dice } => format!("Sneak Attack: +{dice}d6 on that hit"),
        CombatEvent::Turning => "You present your holy symbol: Turn Undead".into(),
        CombatEvent::Turned { foe } => format!("{foe} is turned and flees"),
        other => describe_party(other),
    }
}

/// The line of an ally's event: `Mira heals Bran: 1d8+3 → [5] = 8; Bran has 14/20 HP`.
fn describe_party(event: &CombatEvent) -> String {
    match event {
        CombatEvent::AllyAttack(attack) => attack.describe(),
        CombatEvent::AllyDodge { ally } => {
            format!("{ally} dodges: attacks against {ally} have disadvantage until their next turn")
        }
        CombatEvent::AllyPass { ally } => format!("{ally} spends the turn"),
        CombatEvent::AllyHeals {
            ally,
            target,
            roll,
            hp,
            max,
        } => match target {
            Some(target) => format!(
                "{ally} heals {target}: {}; {target} has {hp}/{max} HP",
                roll_line(roll)
            ),
            None => format!(
                "{ally} heals you: {}; you have {hp}/{max} HP",
                roll_line(roll)
            ),
        },
        CombatEvent::AllyFalls { ally } => format!("{ally} falls."),
        CombatEvent::HeroFalls => "You fall.".into(),
        _ => String::new(),
    }
}

/// `1d20+2 → [7]+2 = 9`.
fn roll_line(roll: &Roll) -> String {
    let faces: Vec<String> = roll
        .terms()
        .iter()
        .flat_map(|term| term.dice().iter().map(|die| die.value().to_string()))
        .collect();
    format!(
        "{} → [{}] = {}",
        roll.notation(),
        faces.join(", "),
        roll.total()
    )
}

/// `Magic Missile hits Goblin 1: 1d4+1 → [3] = 4 force; Goblin 1 has 3/7 HP`.
fn spell_hit(
    spell: &str,
    foe: &FoeLabel,
    damage: Option<&DamageRoll>,
    dealt: u32,
    hp: Option<HpChange>,
    condition: Option<FoeCondition>,
) -> String {
    let mut out = format!("{spell} hits {foe}");
    if let Some(damage) = damage {
        out.push_str(&format!(": {} {}", roll_line(damage.roll()), damage.kind()));
        if dealt != damage.amount() {
            out.push_str(&format!(", {dealt} dealt"));
        }
    }
    if let Some(condition) = condition {
        out.push_str(&format!("; {foe} is {condition}"));
    }
    match hp {
        Some(hp) if hp.to == 0 => out.push_str(&format!("; {foe} is down")),
        Some(hp) => out.push_str(&format!("; {foe} has {}/{} HP", hp.to, hp.max)),
        None => {}
    }
    out
}

/// `A`, `A and B`, `A, B and C`.
fn join(labels: &[FoeLabel]) -> String {
    match labels {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(|l| l.as_str()).collect();
            format!("{} and {last}", rest.join(", "))
        }
    }
}

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Every foe is down.
    Victory,
    /// The hero got away.
    Escaped,
    /// The foes still standing ran (the round cap).
    FoesFled,
    /// The hero dropped to 0 HP, and every seat ally with them.
    HeroDown,
    /// The story ended the fight another way (a truce, a surrender).
    Stopped,
}

impl Outcome {
    /// In words: `every foe is down`.
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Victory => "every foe is down",
            Outcome::Escaped => "you got away",
            Outcome::FoesFled => "the foes fled",
            Outcome::HeroDown => "you are down",
            Outcome::Stopped => "the fight was broken off",
        }
    }
}

/// The end of a fight: how, after how many rounds, who was defeated and the experience they are
/// worth (their challenge ratings', whatever the outcome).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterEnd {
    /// How it ended.
    pub outcome: Outcome,
    /// The round it ended in.
    pub rounds: u16,
    /// The foes at 0 HP.
    pub defeated: Vec<FoeLabel>,
    /// The experience for them.
    pub xp: u32,
}

impl EncounterEnd {
    /// `The fight is over after 3 rounds: every foe is down. Defeated: Goblin 1 and Goblin 2
    /// (100 XP).`
    pub fn describe(&self) -> String {
        let rounds = if self.rounds == 1 { "round" } else { "rounds" };
        let mut out = format!(
            "The fight is over after {} {rounds}: {}.",
            self.rounds,
            self.outcome.describe()
        );
        if !self.defeated.is_empty() {
            out.push_str(&format!(
                " Defeated: {} ({} XP).",
                join(&self.defeated),
                self.xp
            ));
        }
        out
    }
}

/// How one ally's hit points changed over an exchange, for the caller to apply to its sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllyChange {
    /// The ally's place in [`Encounter::allies`](super::Encounter::allies).
    pub ally: usize,
    /// Its name.
    pub name: CharacterName,
    /// Its hit points before the exchange.
    pub from: u16,
    /// Its hit points after it: what its sheet shows now.
    pub to: u16,
}

/// What one call into a fight produced.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exchange {
    /// What happened, in order.
    pub events: Vec<CombatEvent>,
    /// The damage the foes' attacks dealt the hero, for the caller to apply to the sheet.
    pub damage_to_hero: u32,
    /// When a companion healed the hero: the hero's hit points at the end, damage and healing
    /// counted in order from the [`Hero`](super::Hero) given; the caller sets the sheet to it
    /// instead of applying `damage_to_hero`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hero_hit_points: Option<u16>,
    /// Each ally whose hit points changed, in the allies' order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ally_changes: Vec<AllyChange>,
    /// The end of the fight, if it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<EncounterEnd>,
}

impl Exchange {
    /// Every event's line, then the end's, one per line.
    pub fn describe(&self) -> String {
        let mut lines: Vec<String> = self.events.iter().map(CombatEvent::describe).collect();
        if let Some(end) = &self.end {
            lines.push(end.describe());
        }
        lines.join("\n")
    }

    /// The hero's and the foes' attacks in it, in order (an ally's are
    /// [`CombatEvent::AllyAttack`]).
    pub fn attacks(&self) -> impl Iterator<Item = &AttackResolution> {
        self.events.iter().filter_map(|e| match e {
            CombatEvent::Attack(attack) => Some(attack),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(names: &[&str]) -> Vec<FoeLabel> {
        names.iter().map(|n| FoeLabel::new(n).unwrap()).collect()
    }

    #[test]
    fn lists_read_naturally() {
        assert_eq!(join(&labels(&["A"])), "A");
        assert_eq!(join(&labels(&["A", "B"])), "A and B");
        assert_eq!(join(&labels(&["A", "B", "C"])), "A, B and C");
    }

    #[test]
    fn the_end_says_how_and_what_it_was_worth() {
        let end = EncounterEnd {
            outcome: Outcome::Victory,
            rounds: 3,
            defeated: labels(&["Goblin 1", "Goblin 2"]),
            xp: 100,
        };
        assert_eq!(
            end.describe(),
            "The fight is over after 3 rounds: every foe is down. \
             Defeated: Goblin 1 and Goblin 2 (100 XP)."
        );
        let end = EncounterEnd {
            outcome: Outcome::Escaped,
            rounds: 1,
            defeated: Vec::new(),
            xp: 0,
        };
        assert_eq!(
            end.describe(),
            "The fight is over after 1 round: you got away."
        );
    }

    #[test]
    fn events_describe_themselves() {
        let foe = FoeLabel::new("Goblin 2").unwrap();
        assert_eq!(
            CombatEvent::LosesTurn {
                foe: foe.clone(),
                condition: FoeCondition::Stunned
            }
            .describe(),
            "Goblin 2 is stunned and loses its turn"
        );
        assert_eq!(CombatEvent::StandsUp { foe }.describe(), "Goblin 2 gets up");
        assert_eq!(
            CombatEvent::FoesFlee {
                foes: labels(&["Orc"])
            }
            .describe(),
            "After 100 rounds the fight breaks up: Orc flees"
        );
        let json = serde_json::to_value(CombatEvent::Round { round: 2 }).unwrap();
        assert_eq!(json, serde_json::json!({"event": "round", "round": 2}));
    }
}
