//! Why a game request failed, with everything the log needs; the server functions turn it into
//! the browser's [`AppError`](crate::wire::errors::AppError) at the edge.

use crate::campaign::state::ProjectionError;
use crate::campaign::store::StoreError;
use crate::gm::TurnError;

/// Why a game request failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The campaign does not exist (or is someone else's).
    #[error("campaign not found")]
    NotFound,
    /// The campaign moved on (another tab played).
    #[error("the campaign has moved on to turn {current}")]
    Stale {
        /// Its turn now.
        current: u32,
    },
    /// The player's input is not usable.
    #[error("{field}: {reason}")]
    Invalid {
        /// Which field.
        field: &'static str,
        /// Why, in words for the player.
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The character has fallen: the story is over and takes no more moves.
    #[error("the story has ended")]
    Ended,
    /// A move or the actions of this campaign are being generated already.
    #[error("a turn of this campaign is in progress")]
    Busy,
    /// The player goes faster than the server allows.
    #[error("rate limited for {retry_after:?}")]
    RateLimited {
        /// How long until the next request is allowed.
        retry_after: std::time::Duration,
    },
    /// The player has as many campaigns as the server keeps for one player.
    #[error("the player already has {limit} campaigns")]
    TooManyCampaigns {
        /// The most campaigns a player may have.
        limit: u32,
    },
    /// A phase took longer than its deadline and was stopped; nothing was saved.
    #[error("the phase took longer than {after:?}")]
    Deadline {
        /// The deadline.
        after: std::time::Duration,
    },
    /// The game master failed; nothing was saved.
    #[error("the game master failed: {0}")]
    Gm(#[from] TurnError),
    /// The database failed.
    #[error("storage failed: {0}")]
    Store(#[source] StoreError),
    /// The stored log cannot be replayed.
    #[error("the campaign's log cannot be replayed: {0}")]
    Corrupt(#[from] ProjectionError),
    /// The request may change the server's settings, and its sender may not.
    #[error(transparent)]
    NotAllowed(#[from] super::operator::NotAllowed),
}

impl ServiceError {
    /// An invalid-input error.
    pub fn invalid(
        field: &'static str,
        reason: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self::Invalid {
            field,
            reason: reason.into(),
        }
    }
}

impl From<StoreError> for ServiceError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound => Self::NotFound,
            StoreError::Stale { current } => Self::Stale { current },
            StoreError::Database(_) => Self::Store(error),
        }
    }
}
