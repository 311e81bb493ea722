//! Outcome tables: an uncertain event with several outcomes, each on a range of one die.
//!
//! The game master names the event and lists up to [`MAX_OUTCOMES`] outcomes with ranges on a
//! d6, a d20 or a d100; the rules accept the table only if its ranges cover every face of the
//! die exactly once (no gap, no overlap, nothing past the die). The server then rolls the die
//! and the outcome whose range holds the face is what happens. A table and its roll read back
//! from the log are checked the same way, so a stored table can never cover a face twice.

use std::fmt;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::text::{OutcomeText, TableName};

/// The most outcomes one table may list.
pub const MAX_OUTCOMES: usize = 10;

/// The die a table is rolled on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TableDie {
    /// Six sides.
    D6,
    /// Twenty sides.
    D20,
    /// A hundred sides (percentile).
    D100,
}

impl TableDie {
    /// Its faces, 1 up to this.
    pub fn sides(self) -> u8 {
        match self {
            TableDie::D6 => 6,
            TableDie::D20 => 20,
            TableDie::D100 => 100,
        }
    }
}

impl fmt::Display for TableDie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

/// An outcome on faces from..=to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// Lowest face.
    pub from: u8,
    /// Highest face.
    pub to: u8,
    /// What happens.
    pub outcome: OutcomeText,
}

impl Outcome {
    /// Its faces in words: `4` or `4–5`.
    pub fn range(&self) -> String {
        if self.from == self.to {
            self.from.to_string()
        } else {
            format!("{}–{}", self.from, self.to)
        }
    }

    /// How many faces bring it.
    pub fn width(&self) -> u8 {
        self.to - self.from + 1
    }

    fn holds(&self, face: u8) -> bool {
        (self.from..=self.to).contains(&face)
    }
}

/// Why a table was refused, in words the game master can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// No outcome at all.
    #[error("a table needs at least two outcomes")]
    TooFew,
    /// More outcomes than a table may list.
    #[error("a table lists at most {MAX_OUTCOMES} outcomes (got {0})")]
    TooMany(usize),
    /// A range that ends before it starts.
    #[error("the range {from}–{to} ends before it starts")]
    Reversed {
        /// Its start.
        from: u8,
        /// Its end.
        to: u8,
    },
    /// A range with a face the die does not have.
    #[error("the range {from}–{to} is past the {die}, whose faces are 1 to {}", die.sides())]
    PastTheDie {
        /// Its start.
        from: u8,
        /// Its end.
        to: u8,
        /// The die.
        die: TableDie,
    },
    /// Faces no outcome covers.
    #[error("no outcome covers {from}–{to} of the {die}; the ranges must cover every face")]
    Gap {
        /// The first face left out.
        from: u8,
        /// The last face left out.
        to: u8,
        /// The die.
        die: TableDie,
    },
    /// A face two outcomes cover.
    #[error("{face} is in two ranges; each face of the die may bring one outcome only")]
    Overlap {
        /// The face.
        face: u8,
    },
}

/// A table whose ranges cover its die exactly once, outcomes in the order of their faces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TableParts")]
pub struct OutcomeTable {
    name: TableName,
    die: TableDie,
    outcomes: Vec<Outcome>,
}

/// A table as written, before the rules checked it.
#[derive(Deserialize)]
struct TableParts {
    name: TableName,
    die: TableDie,
    outcomes: Vec<Outcome>,
}

impl TryFrom<TableParts> for OutcomeTable {
    type Error = TableError;

    fn try_from(parts: TableParts) -> Result<Self, TableError> {
        Self::new(parts.name, parts.die, parts.outcomes)
    }
}

impl OutcomeTable {
    /// The table, if `outcomes` cover every face of `die` exactly once.
    pub fn new(
        name: TableName,
        die: TableDie,
        mut outcomes: Vec<Outcome>,
    ) -> Result<Self, TableError> {
        if outcomes.len() < 2 {
            return Err(TableError::TooFew);
        }
        if outcomes.len() > MAX_OUTCOMES {
            return Err(TableError::TooMany(outcomes.len()));
        }
        for outcome in &outcomes {
            let (from, to) = (outcome.from, outcome.to);
            if from > to {
                return Err(TableError::Reversed { from, to });
            }
            if from == 0 || to > die.sides() {
                return Err(TableError::PastTheDie { from, to, die });
            }
        }
        outcomes.sort_by_key(|outcome| outcome.from);
        let mut next = 1u8;
        for outcome in &outcomes {
            if outcome.from > next {
                let (from, to) = (next, outcome.from - 1);
                return Err(TableError::Gap { from, to, die });
            }
            if outcome.from < next {
                return Err(TableError::Overlap { face: outcome.from });
            }
            next = outcome.to.saturating_add(1);
        }
        if outcomes.last().is_some_and(|last| last.to < die.sides()) {
            let from = next;
            return Err(TableError::Gap {
                from,
                to: die.sides(),
                die,
            });
        }
        Ok(Self {
            name,
            die,
            outcomes,
        })
    }

    /// What it decides.
    pub fn name(&self) -> &TableName {
        &self.name
    }

    /// The die it is rolled on.
    pub fn die(&self) -> TableDie {
        self.die
    }

    /// The outcomes, lowest faces first.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The index of the outcome `face` brings (every face of the die brings exactly one).
    pub fn index_of(&self, face: u8) -> Option<usize> {
        self.outcomes.iter().position(|outcome| outcome.holds(face))
    }

    /// The table in one line: `Who answers? (d6): 1–3 nobody; 4–5 a ghoul; 6 the priest`.
    pub fn describe(&self) -> String {
        let rows: Vec<String> = self
            .outcomes
            .iter()
            .map(|outcome| format!("{} {}", outcome.range(), outcome.outcome))
            .collect();
        format!("{} ({}): {}", self.name, self.die, rows.join("; "))
    }
}

/// A table rolled: the face the server's die showed, and so its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RollParts")]
pub struct TableRoll {
    table: OutcomeTable,
    face: u8,
}

/// A table roll as stored, before its face is checked against the die.
#[derive(Deserialize)]
struct RollParts {
    table: OutcomeTable,
    face: u8,
}

/// A face the table's die does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {die} shows 1 to {} (got {face})", die.sides())]
pub struct FaceError {
    die: TableDie,
    face: u8,
}

impl TryFrom<RollParts> for TableRoll {
    type Error = FaceError;

    fn try_from(parts: RollParts) -> Result<Self, FaceError> {
        Self::with_face(parts.table, parts.face)
    }
}

impl TableRoll {
    /// Rolls the table's die with the server's dice.
    pub fn roll<R: Rng + ?Sized>(table: OutcomeTable, rng: &mut R) -> Self {
        let face = rng.random_range(1..=table.die.sides());
        Self { table, face }
    }

    /// The table read with a face already rolled.
    pub fn with_face(table: OutcomeTable, face: u8) -> Result<Self, FaceError> {
        if (1..=table.die.sides()).contains(&face) {
            Ok(Self { table, face })
        } else {
            Err(FaceError {
                die: table.die,
                face,
            })
        }
    }

    /// The table.
    pub fn table(&self) -> &OutcomeTable {
        &self.table
    }

    /// The face the die showed.
    pub fn face(&self) -> u8 {
        self.face
    }

    /// The index of the outcome the face brought.
    pub fn chosen(&self) -> usize {
        self.table.index_of(self.face).unwrap_or_default()
    }

    /// The outcome the face brought.
    pub fn outcome(&self) -> &Outcome {
        &self.table.outcomes[self.chosen()]
    }

    /// The line for the story and the ledger: `Table: Who answers? d6 [4]: a ghoul`.
    pub fn describe(&self) -> String {
        format!(
            "Table: {} {} [{}]: {}",
            self.table.name,
            self.table.die,
            self.face,
            self.outcome().outcome
        )
    }
}

#[cfg(test)]
mod tests;
