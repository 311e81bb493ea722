//! Why a tool call is refused, typed: what is wrong with its arguments ([`ArgumentError`], the
//! call never reaches the rules) or what the rules will not do with them ([`RunError`]). Each
//! error's message is the tool result the model reads, written here once; a
//! [`super::ToolRejection`] carries it to the model.

use crate::game::bestiary::ChallengeError;
use crate::game::fight::FightError;
use crate::game::map::MapError;
use crate::game::outcome_table::TableError;
use crate::game::spine::plan::PlanError;
use crate::game::spine::SpineError;
use crate::game::{DeltaError, DiceError, JournalError, TextError};

/// What is wrong with a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentError {
    /// No tool has that name.
    #[error("there is no tool named \"{name}\"; the tools are {known}")]
    UnknownTool {
        /// The name called.
        name: String,
        /// The registered names, as a sentence.
        known: String,
    },
    /// The arguments are not JSON, even read leniently.
    #[error("{0}")]
    NotJson(String),
    /// The arguments do not fit the tool's schema (serde's words).
    #[error("invalid arguments: {0}")]
    Invalid(String),
    /// A number outside its bounds.
    #[error("{field} must be {min} to {max}, not {given}")]
    OutOfRange {
        /// The argument, as the model writes it.
        field: &'static str,
        /// The least it may be.
        min: i64,
        /// The most it may be.
        max: i64,
        /// What was given.
        given: i64,
    },
    /// A list with too few or too many entries for one call.
    #[error("give {min} to {max} {what} per call, not {given}")]
    PerCall {
        /// What the list holds.
        what: &'static str,
        /// The fewest.
        min: usize,
        /// The most.
        max: usize,
        /// How many were given.
        given: usize,
    },
    /// Two arguments that say the same thing two ways.
    #[error("give either {0} or {1}, not both")]
    EitherOr(&'static str, &'static str),
    /// A call that asks for nothing.
    #[error("nothing to update: give at least one field")]
    Nothing,
    /// An argument this kind of call needs.
    #[error("give {0}")]
    Missing(&'static str),
    /// Something the rules decide, not the model; the message says what to do instead.
    #[error("{0}")]
    TheRules(&'static str),
    /// Advantage asked for on dice other than one d20.
    #[error("advantage applies to a single d20 roll, not \"{0}\"")]
    AdvantageNeedsD20(String),
    /// A plan past the rules' bounds.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Dice notation the rules cannot read.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// A foe the rules cannot field.
    #[error("\"{text}\": {problem}")]
    Foe {
        /// The foe as the model named it.
        text: String,
        /// What is wrong with it.
        problem: FoeProblem,
    },
    /// A foe the bestiary lacks, named without a challenge rating.
    #[error(transparent)]
    Fight(#[from] FightError),
    /// An outcome table whose ranges do not cover its die exactly once.
    #[error(transparent)]
    Table(#[from] TableError),
    /// An item's name with nothing to key it by.
    #[error(transparent)]
    Item(#[from] TextError),
}

/// What is wrong with a foe's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FoeProblem {
    /// Its challenge rating is not one.
    #[error(transparent)]
    Rating(#[from] ChallengeError),
    /// Its name is empty, too long or unprintable.
    #[error(transparent)]
    Name(#[from] TextError),
}

/// What the rules will not do with a valid call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// Hit points changed by the model while the rules run a fight.
    #[error(
        "a fight is under way: the rules roll every attack and its damage and change hit points \
         themselves; narrate the exchange you were given"
    )]
    InAFight,
    /// Hit points changed by a number no roll of the rules backs.
    #[error(
        "{amount:+} HP is not backed by a roll the rules made this turn: a foe's attack is a \
         fight (start_encounter, even for a single ambush); a trap, fall, fire or poison is a \
         hazard (hazard, with its severity); any other damage or healing needs roll_dice first, \
         and no more than its total"
    )]
    Unbacked {
        /// The change asked for.
        amount: i32,
    },
    /// A check for a hero who cannot act.
    #[error("{name} is at 0 HP and cannot act, so there is no check to make")]
    CannotAct {
        /// The hero's name.
        name: String,
    },
    /// A change the sheet refuses.
    #[error(transparent)]
    Sheet(#[from] DeltaError),
    /// A journal change the journal refuses.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A place the map refuses.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A fight's step the rules refuse.
    #[error(transparent)]
    Fight(#[from] FightError),
    /// A change of the story's plan the rules refuse.
    #[error(transparent)]
    Spine(#[from] SpineError),
}
