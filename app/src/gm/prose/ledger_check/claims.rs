//! What a narration claims the rules did, in the rules' own vocabulary. Each claim comes from a
//! clause that asserts it about the hero or a foe of the fight; a thing merely named (`the silver
//! key glints on the table`, `the goblin's blade`) claims nothing.

use std::fmt;

/// A foe as the prose names it: its kind, and its number when the prose picks one out (`Goblin
/// 2`, `the second goblin`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FoeRef {
    /// The kind, lower case (`goblin`).
    pub kind: String,
    /// Which one, when the prose says.
    pub number: Option<u8>,
    /// Whether the prose speaks of every foe of the kind (`the goblins`).
    pub all: bool,
}

impl fmt::Display for FoeRef {
    /// `the goblin`, `Goblin 2`, `the goblins`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.number, self.all) {
            (Some(n), _) => {
                let mut chars = self.kind.chars();
                let first: String = chars
                    .next()
                    .map(|c| c.to_uppercase().collect())
                    .unwrap_or_default();
                write!(f, "{first}{} {n}", chars.as_str())
            }
            (None, true) => write!(f, "the {}s", self.kind),
            (None, false) => write!(f, "the {}", self.kind),
        }
    }
}

/// A check's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It succeeded.
    Success,
    /// It failed.
    Failure,
}

impl Verdict {
    /// The verdict of a check that succeeded or not.
    pub fn of(success: bool) -> Self {
        if success {
            Verdict::Success
        } else {
            Verdict::Failure
        }
    }

    /// `a success`, `a failure`.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Success => "a success",
            Verdict::Failure => "a failure",
        }
    }
}

/// One thing the prose asserts happened this turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The hero took this much damage (0: "you take no damage").
    Damage(u32),
    /// The hero regained this many hit points.
    Healing(u32),
    /// The hero is left with this many hit points.
    HitPointsLeft(u32),
    /// The hero is back to full health.
    FullHealth,
    /// The hero dealt this much damage, to this foe if the prose says which.
    Dealt {
        /// The foe struck, if named.
        foe: Option<FoeRef>,
        /// The damage.
        amount: u32,
    },
    /// A foe of the fight died or went down.
    FoeDown(FoeRef),
    /// A foe of the fight is still standing.
    FoeStanding(FoeRef),
    /// A foe of the fight ran.
    FoeFled(FoeRef),
    /// The hero gained an item (as the prose names it, lower case), this many if said.
    ItemGained {
        /// The item's words (`silver key`).
        item: String,
        /// How many, if the prose says.
        quantity: Option<u32>,
    },
    /// The hero lost, gave away, dropped or used up an item.
    ItemLost {
        /// The item's words.
        item: String,
    },
    /// The hero is under a condition (its name, lower case).
    ConditionGained(String),
    /// The hero is no longer under a condition.
    ConditionLost(String),
    /// The hero earned this much experience.
    Experience(u32),
    /// The hero reached a level (which one, if said).
    Level(Option<u8>),
    /// A check of the player's ended so. `about` holds the words of what was tried (`pick`,
    /// `lock`; `escape` for getting away from a fight), empty when the prose names no task
    /// ("you succeed").
    Verdict {
        /// The outcome claimed.
        claimed: Verdict,
        /// What was tried, in content words.
        about: Vec<String>,
    },
}
