//! Configuration, read once at start from the environment.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `LEPTOS_SITE_ADDR` | address and port to listen on (`127.0.0.1:0` picks a free port) | `127.0.0.1:3000` |
//! | `LEPTOS_SITE_ROOT` | folder with the built site (`pkg/`, assets) | `target/site` |
//! | `DICEBOUND_DATABASE_URL` | the campaign database | `sqlite://dicebound.db` |
//! | `DICEBOUND_LLM` | `scripted:PATH` plays a scenario file (tests, demos) | unset |
//! | `DICEBOUND_LLM_BASE_URL`, `DICEBOUND_LLM_API_KEY`, ... | an OpenAI-compatible endpoint (see `llm::openai`) | unset |
//! | `DICEBOUND_COOKIE_SECRET` | key signing the player cookie (else a key file beside the database) | unset |
//! | `DICEBOUND_SECURE_COOKIES` | `true` behind HTTPS | `false` |
//!
//! Without an endpoint or a scenario, the built-in demo story plays.

use std::path::PathBuf;

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};

use crate::llm::openai::{LlmConfigError, OpenAiSettings};

/// Which model tells the story.
#[derive(Clone, Debug)]
pub enum LlmChoice {
    /// An OpenAI-compatible endpoint.
    OpenAi(OpenAiSettings),
    /// A scripted scenario file.
    Scripted(PathBuf),
    /// The built-in demo story (no endpoint configured).
    Demo,
}

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Leptos' own options: site address, site root, output name, environment.
    pub leptos: LeptosOptions,
    /// The campaign database URL.
    pub database_url: String,
    /// The model.
    pub llm: LlmChoice,
    /// Whether the player cookie is marked `Secure`.
    pub secure_cookies: bool,
}

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
    #[error("DICEBOUND_LLM must be scripted:PATH, not {0:?}")]
    LlmChoice(String),
}

impl Settings {
    /// Reads the settings from the environment (cargo-leptos sets the `LEPTOS_*` variables).
    pub fn from_env() -> Result<Self, ConfigError> {
        let leptos = get_configuration(None)?.leptos_options;
        Self::from_lookup(leptos, |name| {
            std::env::var(name).ok().filter(|v| !v.is_empty())
        })
    }

    /// Reads the settings other than Leptos' from `lookup` (tests pass their own).
    pub fn from_lookup(
        leptos: LeptosOptions,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let llm = match lookup("DICEBOUND_LLM") {
            Some(choice) => match choice.strip_prefix("scripted:") {
                Some(path) if !path.is_empty() => LlmChoice::Scripted(PathBuf::from(path)),
                _ => return Err(ConfigError::LlmChoice(choice)),
            },
            None if [
                "DICEBOUND_LLM_BASE_URL",
                "DICEBOUND_LLM_API_KEY",
                "OPENAI_API_KEY",
            ]
            .iter()
            .any(|name| lookup(name).is_some()) =>
            {
                LlmChoice::OpenAi(OpenAiSettings::from_lookup(&lookup)?)
            }
            None => LlmChoice::Demo,
        };
        Ok(Self {
            leptos,
            database_url: lookup("DICEBOUND_DATABASE_URL")
                .unwrap_or_else(|| "sqlite://dicebound.db".to_owned()),
            llm,
            secure_cookies: lookup("DICEBOUND_SECURE_COOKIES").is_some_and(|v| v == "true"),
        })
    }
}
