//! The ledger check: what a narration's prose asserts, held against what the turn's events
//! did. A cheap, deterministic baseline for an honest game master (issue 27): no model, only
//! patterns over the rules' own vocabulary.
//!
//! The rules' side ([`RulesRecord`]) comes from the turn's [`TurnEvent`]s: the hero's hit points
//! lost and regained (tools' deltas, the rules' own changes, a fight's blows), the hero's blows
//! and the foes who fell or fled in a fight, items gained and lost, conditions, experience and
//! level, and the verdicts of the player's checks (an escape from a fight among them).
//!
//! The prose's side ([`Claim`]s) comes from clauses that assert something of the hero or of a
//! foe the fight named: `you take 12 damage`, `the potion heals you for 7`, `you pocket the
//! silver key`, `you hand over the letter`, `the goblin collapses`, `you are poisoned`, `you gain
//! 50 XP`, `you reach level 2`, `you fail to pick the lock`. Quoted speech, questions, and
//! clauses that only suppose (`if`, `could`, `not`, `try to`, `before you can`) claim nothing,
//! and neither does a thing merely named (`the silver key glints on the table`, `the goblin's
//! blade`).
//!
//! Each claim the record plainly denies is a [`Contradiction`], whose [`describe`] is the note
//! for the player: `the rules say: 5 damage, not 12`. What the record cannot speak to passes.
//!
//! [`describe`]: Contradiction::describe

mod claims;
mod foes;
mod items;
mod judge;
mod numbers;
mod reader;
mod rules;
mod states;
mod text;
mod vocabulary;

#[cfg(test)]
mod scenes;
#[cfg(test)]
mod tests;

pub use claims::{Claim, FoeRef, Verdict};
pub use rules::{Amounts, CheckRecord, FoeRecord, ItemMove, RulesRecord};

use crate::campaign::turn_event::TurnEvent;
use crate::game::CharacterSheet;

use vocabulary::Vocabulary;

/// One thing the prose says that the rules' record of the turn denies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Contradiction {
    /// Damage to the hero (`claimed` 0: the prose says none was taken).
    Damage {
        /// What the prose says.
        claimed: u32,
        /// The hit points the hero lost.
        rules: u32,
    },
    /// Hit points the hero regained.
    Healing {
        /// What the prose says.
        claimed: u32,
        /// The hit points regained.
        rules: u32,
    },
    /// The hit points the hero has left.
    HitPointsLeft {
        /// What the prose says.
        claimed: u32,
        /// The hit points after the turn.
        rules: u16,
    },
    /// Damage the hero dealt.
    Dealt {
        /// The foe struck, if the prose names one.
        foe: Option<String>,
        /// What the prose says.
        claimed: u32,
        /// The damage the rules dealt (to that foe).
        rules: u32,
    },
    /// A foe the prose kills is still standing.
    FoeDown {
        /// The foe (`Goblin 2`, `the goblin`).
        foe: String,
        /// Its hit points left, when it took a blow this turn.
        hp_left: Option<u16>,
    },
    /// A foe the prose keeps standing went down.
    FoeStanding {
        /// The foe.
        foe: String,
    },
    /// A foe the prose has run did not.
    FoeFled {
        /// The foe.
        foe: String,
        /// Whether it is down instead.
        down: bool,
    },
    /// An item the prose gives the hero was not gained.
    ItemGained {
        /// The item, as the prose names it.
        item: String,
    },
    /// An item gained in another number.
    ItemQuantity {
        /// The item, as the rules name it.
        item: String,
        /// How many the prose says.
        claimed: u32,
        /// How many were gained.
        rules: u32,
    },
    /// An item the prose takes from the hero was not lost.
    ItemLost {
        /// The item, as the prose names it.
        item: String,
    },
    /// A condition the prose puts on the hero is not on the sheet.
    ConditionGained {
        /// The condition, lower case.
        condition: String,
    },
    /// A condition the prose lifts is still on the sheet.
    ConditionLost {
        /// The condition, lower case.
        condition: String,
    },
    /// Experience earned.
    Experience {
        /// What the prose says.
        claimed: u32,
        /// The experience gained.
        rules: u32,
    },
    /// A level the hero did not reach.
    Level {
        /// The level the prose says (none: "you level up").
        claimed: Option<u8>,
        /// The hero's level after the turn.
        rules: u8,
    },
    /// A check's verdict.
    Verdict {
        /// What the check was for.
        check: String,
        /// What the prose says.
        claimed: Verdict,
        /// What the dice said.
        rules: Verdict,
    },
}

impl Contradiction {
    /// The note for the player, in the form `the rules say: 5 damage, not 12`.
    pub fn describe(&self) -> String {
        format!("the rules say: {}", self.ruling())
    }

    /// What the rules say, against what the prose said.
    fn ruling(&self) -> String {
        match self {
            Contradiction::Damage { claimed: 0, rules } => format!("{rules} damage, not none"),
            Contradiction::Damage { claimed, rules: 0 } => format!("no damage, not {claimed}"),
            Contradiction::Damage { claimed, rules } => format!("{rules} damage, not {claimed}"),
            Contradiction::Healing { claimed, rules: 0 } => {
                format!("no hit points regained, not {claimed}")
            }
            Contradiction::Healing { claimed, rules } => {
                format!("{rules} hit points regained, not {claimed}")
            }
            Contradiction::HitPointsLeft { claimed, rules } => {
                format!("{rules} hit points left, not {claimed}")
            }
            Contradiction::Dealt {
                foe,
                claimed,
                rules,
            } => match (foe, rules) {
                (_, 0) => format!("no damage dealt, not {claimed}"),
                (Some(foe), _) => format!("{rules} damage to {foe}, not {claimed}"),
                (None, _) => format!("{rules} damage dealt, not {claimed}"),
            },
            Contradiction::FoeDown {
                foe,
                hp_left: Some(hp),
            } => format!("{foe} still stands with {hp} HP, not slain"),
            Contradiction::FoeDown { foe, hp_left: None } => {
                format!("{foe} still stands, not slain")
            }
            Contradiction::FoeStanding { foe } => format!("{foe} is down, not standing"),
            Contradiction::FoeFled { foe, down: true } => format!("{foe} is down, not fled"),
            Contradiction::FoeFled { foe, down: false } => {
                format!("{foe} stands its ground, not fled")
            }
            Contradiction::ItemGained { item } => format!("no {item} gained"),
            Contradiction::ItemQuantity {
                item,
                claimed,
                rules,
            } => format!("{rules} {item} gained, not {claimed}"),
            Contradiction::ItemLost { item } => format!("no {item} lost"),
            Contradiction::ConditionGained { condition } => format!("not {condition}"),
            Contradiction::ConditionLost { condition } => format!("still {condition}"),
            Contradiction::Experience { claimed, rules: 0 } => {
                format!("no experience, not {claimed} XP")
            }
            Contradiction::Experience { claimed, rules } => {
                format!("{rules} XP, not {claimed}")
            }
            Contradiction::Level {
                claimed: Some(n),
                rules,
            } => format!("level {rules}, not {n}"),
            Contradiction::Level {
                claimed: None,
                rules,
            } => format!("still level {rules}, no new level"),
            Contradiction::Verdict {
                check,
                claimed,
                rules,
            } => format!(
                "{check} was {}, not {}",
                rules.describe(),
                claimed.describe()
            ),
        }
    }
}

/// A narration checked against its turn: what it claims, and which claims the rules deny.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerCheck {
    claims: Vec<Claim>,
    contradictions: Vec<Contradiction>,
}

impl LedgerCheck {
    /// Checks `narration` against the turn's `events`, for the hero as the sheet `before` the
    /// turn shows them (what they carried, their conditions, level and hit points).
    pub fn new(narration: &str, events: &[TurnEvent], before: &CharacterSheet) -> Self {
        let rules = RulesRecord::from_events(events);
        let vocabulary = Vocabulary::new(&rules, before);
        let claims = reader::read(narration, &vocabulary);
        let mut contradictions: Vec<Contradiction> = Vec::new();
        for claim in &claims {
            if let Some(found) = judge::judge(claim, &rules, before) {
                if !contradictions.contains(&found) {
                    contradictions.push(found);
                }
            }
        }
        Self {
            claims,
            contradictions,
        }
    }

    /// Checks the turn's own narration (its last [`TurnEvent::Narration`]); a turn without one
    /// claims nothing.
    pub fn of_turn(events: &[TurnEvent], before: &CharacterSheet) -> Self {
        let narration = events.iter().rev().find_map(|event| match event {
            TurnEvent::Narration { text, .. } => Some(text.as_str()),
            _ => None,
        });
        Self::new(narration.unwrap_or_default(), events, before)
    }

    /// What the narration claims, in order.
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The claims the rules deny, in order, each once.
    pub fn contradictions(&self) -> &[Contradiction] {
        &self.contradictions
    }

    /// Whether the rules deny nothing the narration claims.
    pub fn is_consistent(&self) -> bool {
        self.contradictions.is_empty()
    }

    /// The notes for the player, one per contradiction.
    pub fn notes(&self) -> Vec<String> {
        self.contradictions
            .iter()
            .map(Contradiction::describe)
            .collect()
    }
}
