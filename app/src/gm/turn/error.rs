//! Why a phase of the turn failed ([`TurnError`]).

use crate::gm::llm::LlmError;

/// Why a phase failed. A failed phase changes nothing and can be tried again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The model could not be reached or failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The model wrote no story at all.
    #[error("the game master wrote nothing; try again")]
    EmptyNarrative,
    /// The model wrote an empty summary.
    #[error("the game master wrote an empty summary")]
    EmptySummary,
    /// The model answered a question with nothing.
    #[error("the game master gave no answer; ask again")]
    EmptyAnswer,
}

impl TurnError {
    /// Whether trying the phase again may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Llm(error) => error.is_retryable(),
            Self::EmptyNarrative | Self::EmptySummary | Self::EmptyAnswer => true,
        }
    }
}
