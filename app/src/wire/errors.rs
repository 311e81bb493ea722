//! The one error type that crosses the server-function boundary. The play screen acts on its
//! kind (a stale turn is fetched, a retryable failure offers Retry); its texts are for the
//! player and never carry a database's or a provider's own words: the server's log keeps those
//! under the request id the message shows. The server sends each kind with an HTTP status of its
//! own (the server crate's `error_status`); the browser reads the error from the body alone.

use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

/// Why a request failed, as the browser learns it.
///
/// Sent tagged by its kind's name (`"not_found"`, `{"stale": {"current": 3}}`): an enum with the
/// tag inside would make the browser read it through serde's buffered path (issue 50).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
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
    /// The request never reached the game (no connection, no player cookie, a broken answer,
    /// or a request the server could not read: "The request was malformed: …").
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
    type Encoder = crate::wire::codec::WireEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        let message = match value {
            ServerFnErrorErr::Args(detail) | ServerFnErrorErr::MissingArg(detail) => {
                malformed(&detail)
            }
            // On the server, what could not be read is the request; in the browser, the answer.
            ServerFnErrorErr::Deserialization(detail) if cfg!(feature = "ssr") => {
                malformed(&detail)
            }
            ServerFnErrorErr::Request(_) => {
                "The server could not be reached. Check your connection and try again.".to_owned()
            }
            ServerFnErrorErr::Deserialization(_) | ServerFnErrorErr::Response(_) => {
                "The server sent an answer this page cannot read; reload the page.".to_owned()
            }
            _ => "The request could not be made; reload the page and try again.".to_owned(),
        };
        Self::Transport { message }
    }
}

/// The most characters of a decoder's own words a malformed request's message quotes.
const MAX_MALFORMED_DETAIL: usize = 200;

/// What the server says of a request whose arguments it could not read, quoting (at most
/// [`MAX_MALFORMED_DETAIL`] characters of) why.
fn malformed(detail: &str) -> String {
    let detail = detail.trim();
    let mut quoted: String = detail.chars().take(MAX_MALFORMED_DETAIL).collect();
    if quoted.len() < detail.len() {
        quoted.push('…');
    }
    if quoted.is_empty() {
        quoted = "its arguments could not be read".to_owned();
    }
    let detail = quoted;
    format!("The request was malformed: {detail}; reload the page and try again.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(error: ServerFnErrorErr) -> String {
        match AppError::from_server_fn_error(error) {
            AppError::Transport { message } => message,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn arguments_the_server_could_not_read_are_a_malformed_request() {
        let shown = message(ServerFnErrorErr::Args("missing field `id`".into()));
        assert_eq!(
            shown,
            "The request was malformed: missing field `id`; reload the page and try again."
        );
        let shown = message(ServerFnErrorErr::MissingArg("turn".into()));
        assert!(
            shown.starts_with("The request was malformed: turn;"),
            "{shown}"
        );
        let long = message(ServerFnErrorErr::Args("x".repeat(10_000)));
        assert!(long.len() < 300, "{long}");
        let empty = message(ServerFnErrorErr::Args(String::new()));
        assert!(empty.contains("could not be read"), "{empty}");
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn on_the_server_a_body_that_does_not_decode_is_a_malformed_request() {
        let shown = message(ServerFnErrorErr::Deserialization(
            "EOF while parsing an object at line 1 column 9".into(),
        ));
        assert!(
            shown.starts_with("The request was malformed: EOF"),
            "{shown}"
        );
    }

    #[cfg(not(feature = "ssr"))]
    #[test]
    fn in_the_browser_an_answer_that_does_not_decode_is_the_servers() {
        assert_eq!(
            message(ServerFnErrorErr::Deserialization("bad".into())),
            "The server sent an answer this page cannot read; reload the page."
        );
    }

    #[test]
    fn the_browsers_other_messages_are_unchanged() {
        assert_eq!(
            message(ServerFnErrorErr::Request("refused".into())),
            "The server could not be reached. Check your connection and try again."
        );
        assert_eq!(
            message(ServerFnErrorErr::Response("bad".into())),
            "The server sent an answer this page cannot read; reload the page."
        );
        assert_eq!(
            message(ServerFnErrorErr::Serialization("bad".into())),
            "The request could not be made; reload the page and try again."
        );
    }
}
