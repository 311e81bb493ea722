//! Dice: notation parsed into a bounded [`DiceExpr`], rolled with an injected RNG into a [`Roll`]
//! that keeps every die, and judged against a [`DifficultyClass`] as a [`Check`], whose
//! [`Chance`] of success the rules work out from the dice before they roll.

mod chance;
mod check;
mod edge;
mod notation;
mod roll;

pub use chance::Chance;
pub use check::{Check, DifficultyClass, DifficultyClassError};
pub use edge::Edge;
pub use notation::{
    DiceError, DiceExpr, DiceProblem, DiceTerm, Keep, MAX_DICE_PER_TERM, MAX_MODIFIER,
    MAX_NOTATION_CHARS, MAX_SIDES, MAX_TERMS, MIN_SIDES,
};
pub use roll::{Die, Natural, Roll, RolledTerm};
