//! Why the configuration could not be read: one error per malformed variable, naming it and,
//! unless it is a secret, its value.

use leptos::config::errors::LeptosConfigError;

use crate::llm::openai::LlmConfigError;
use crate::security::client::BadProxy;
use crate::security::identity::ShortCookieSecret;

/// The fewest tokens a prompt limit may be (the rules and tools alone take about 1,700).
pub(super) const MIN_PROMPT_TOKENS: u32 = 2_000;

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A `LEPTOS_*` variable is malformed.
    #[error("invalid Leptos configuration: {0}")]
    Leptos(#[from] LeptosConfigError),
    /// The model settings are malformed.
    #[error("invalid model configuration: {0}")]
    Llm(#[from] LlmConfigError),
    /// `DICEBOUND_LLM` is not understood.
    #[error(
        "DICEBOUND_LLM must be local, bundled, demo, scripted:PATH, record:PATH or replay:PATH, \
         not {0:?}"
    )]
    LlmChoice(String),
    /// `DICEBOUND_LOG_FORMAT` is not understood.
    #[error("DICEBOUND_LOG_FORMAT must be text or json, not {0:?}")]
    LogFormat(String),
    /// `DICEBOUND_LLM_TOOLS` is not understood.
    #[error("DICEBOUND_LLM_TOOLS must be native or text, not {0:?}")]
    ToolMode(String),
    /// A token limit is not a whole number in range.
    #[error("{name} must be a whole number of tokens from {MIN_PROMPT_TOKENS} up, not {value:?}")]
    Tokens {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A cookie secret is too short.
    #[error("DICEBOUND_COOKIE_SECRET: {0}")]
    CookieSecret(#[from] ShortCookieSecret),
    /// A count or a limit is not a whole number in range.
    #[error("{name} must be a whole number from 1 up, not {value:?}")]
    Count {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `DICEBOUND_TRUSTED_PROXIES` lists something other than addresses and networks.
    #[error(transparent)]
    TrustedProxies(#[from] BadProxy),
    /// A price is not a number of dollars.
    #[error("{name} must be dollars per million tokens (0 or more), not {value:?}")]
    Price {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `DICEBOUND_ADMIN_TOKEN` is too short to resist guessing.
    #[error("DICEBOUND_ADMIN_TOKEN must be at least 16 characters")]
    AdminToken,
    /// A variable's value is not valid Unicode.
    #[error("{0} is not valid Unicode")]
    NotUnicode(&'static str),
}
