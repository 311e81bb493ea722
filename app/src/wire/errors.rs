//! The one error type that crosses the server-function boundary. The play screen acts on its
//! kind (a stale turn is fetched, a retryable failure offers Retry); its texts are for the
//! player and never carry a database's or a provider's own words: the server's log keeps those
//! under the request id the message shows.

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

/// Why a request failed, as the browser learns it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AppError {
    /// The campaign does not exist, or is someone else's.
    #[error("This campaign was not found.")]
    NotFound,
    /// The campaign moved on (another tab played) since the browser last saw it.
    #[error("This campaign has moved on to turn {current} in another tab.")]
    Stale {
        /// The campaign's turn now.
        current: u32,
    },
    /// What the player sent is not usable.
    #[error("{field}: {reason}")]
    Invalid {
        /// Which field.
        field: String,
        /// Why, in words for the player.
        reason: String,
    },
    /// A turn of this campaign is already being played.
    #[error(
        "The game master is still busy with this campaign's last move; wait for it to finish."
    )]
    Busy,
    /// The player went faster than the server allows (turns or new campaigns).
    #[error("You are going faster than this server allows; try again in {retry_after_secs} s.")]
    Limited {
        /// Seconds until the next request is allowed.
        retry_after_secs: u64,
    },
    /// A phase took longer than the server allows and was stopped; nothing was saved.
    #[error(
        "The game master took longer than {seconds} s and was stopped; nothing was lost, try again."
    )]
    TooSlow {
        /// The deadline, in seconds.
        seconds: u64,
    },
    /// The model failed; nothing was saved.
    #[error("{}", gm_text(*retryable, request_id))]
    GameMasterUnavailable {
        /// Whether trying again may help (a timeout, a rate limit, a server error).
        retryable: bool,
        /// The id the server's log keeps the details under.
        request_id: String,
    },
    /// The database failed.
    #[error("The game could not be saved or loaded right now; try again in a moment (request {request_id}).")]
    StorageUnavailable {
        /// The id the server's log keeps the details under.
        request_id: String,
    },
    /// The request would change the server's own settings, and its sender may not.
    #[error("{reason}")]
    NotAllowed {
        /// Why, and what would allow it.
        reason: String,
    },
    /// The request never reached the game (no connection, no player cookie, a broken answer).
    #[error("{message}")]
    Transport {
        /// What went wrong, for the player.
        message: String,
    },
}

fn gm_text(retryable: bool, request_id: &str) -> String {
    let advice = if retryable {
        "nothing was lost, try again"
    } else {
        "nothing was lost; trying again will likely fail the same way"
    };
    format!("The game master could not answer ({advice}; request {request_id}).")
}

impl AppError {
    /// Whether Retry may help.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::GameMasterUnavailable { retryable, .. } => *retryable,
            Self::StorageUnavailable { .. }
            | Self::Transport { .. }
            | Self::Busy
            | Self::Limited { .. }
            | Self::TooSlow { .. } => true,
            Self::NotFound
            | Self::Stale { .. }
            | Self::Invalid { .. }
            | Self::NotAllowed { .. } => false,
        }
    }

    /// An invalid-input error.
    pub fn invalid(field: &str, reason: impl ToString) -> Self {
        Self::Invalid {
            field: field.to_owned(),
            reason: reason.to_string(),
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        let message = match value {
            ServerFnErrorErr::Request(_) => {
                "The server could not be reached. Check your connection and try again."
            }
            ServerFnErrorErr::Deserialization(_) | ServerFnErrorErr::Response(_) => {
                "The server sent an answer this page cannot read; reload the page."
            }
            _ => "The request could not be made; reload the page and try again.",
        };
        Self::Transport {
            message: message.to_owned(),
        }
    }
}
