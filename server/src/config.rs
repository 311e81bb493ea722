//! Configuration, read once at start from the environment.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `LEPTOS_SITE_ADDR` | address and port to listen on (`127.0.0.1:0` picks a free port) | `127.0.0.1:3000` |
//! | `LEPTOS_SITE_ROOT` | folder with the built site (`pkg/`, assets) | `target/site` |
//! | `DICEBOUND_DATABASE_URL` | the campaign database | `sqlite://dicebound.db` |
//! | `DICEBOUND_LLM_BASE_URL`, `DICEBOUND_LLM_API_KEY`, `OPENAI_API_KEY`, ... | an OpenAI-compatible endpoint (see `llm::openai`) | unset |
//! | `DICEBOUND_LLM` | `local` (the default without an endpoint: a running Ollama/llama.cpp server, else the bundled model), `bundled` (the bundled model only), `demo` (the built-in demo story), `scripted:PATH` (a scenario file, for tests) | `local` |
//! | `DICEBOUND_LLM_TOOLS` | `native` (the API's tool calling) or `text` (tools described in the prompt, calls parsed from the reply) | `native` for an endpoint, `text` for local servers |
//! | `DICEBOUND_LLM_HOME` | where `scripts/setup-llm.sh` installed `llama-server` and `model.gguf` | `~/.cache/dicebound/tools/llm` |
//! | `DICEBOUND_COOKIE_SECRET` | key signing the player cookie (else a key file beside the database) | unset |
//! | `DICEBOUND_SECURE_COOKIES` | `true` behind HTTPS | `false` |
//!
//! Without an endpoint, the game master is a model server already running on this computer, or
//! else the bundled one (see `llm::provider`). A `.env` file in the working folder is read first.

use std::path::PathBuf;

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};

use crate::llm::bundled::BundledSettings;
use crate::llm::discover::{usual_local_servers, LocalServer};
use crate::llm::openai::{LlmConfigError, OpenAiSettings};

/// Which model tells the story.
#[derive(Clone, Debug, PartialEq)]
pub enum LlmChoice {
    /// A configured OpenAI-compatible endpoint.
    Endpoint(OpenAiSettings),
    /// A model on this computer: the first of `probe` that is running, else the bundled model.
    Local {
        /// Model servers to look for first (Ollama, llama.cpp), in order of preference.
        probe: Vec<LocalServer>,
        /// The bundled model.
        bundled: BundledSettings,
    },
    /// A scripted scenario file.
    Scripted(PathBuf),
    /// The built-in demo story.
    Demo,
}

/// How the model is given its tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolMode {
    /// The API's own tool calling.
    Native,
    /// Described in the prompt; calls are tags in the reply (for models without tool calling).
    Text,
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
    /// How tools reach the model, when set (else the choice's own default).
    pub tools: Option<ToolMode>,
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
    #[error("DICEBOUND_LLM must be local, bundled, demo or scripted:PATH, not {0:?}")]
    LlmChoice(String),
    /// `DICEBOUND_LLM_TOOLS` is not understood.
    #[error("DICEBOUND_LLM_TOOLS must be native or text, not {0:?}")]
    ToolMode(String),
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
        let local = |probe: bool| LlmChoice::Local {
            probe: if probe {
                usual_local_servers()
            } else {
                Vec::new()
            },
            bundled: BundledSettings::from_lookup(&lookup),
        };
        let endpoint_configured = [
            "DICEBOUND_LLM_BASE_URL",
            "DICEBOUND_LLM_API_KEY",
            "OPENAI_API_KEY",
        ]
        .iter()
        .any(|name| lookup(name).is_some());
        let llm = match lookup("DICEBOUND_LLM").as_deref().map(str::trim) {
            None if endpoint_configured => {
                LlmChoice::Endpoint(OpenAiSettings::from_lookup(&lookup)?)
            }
            None | Some("local") => local(true),
            Some("bundled") => local(false),
            Some("demo") => LlmChoice::Demo,
            Some(other) => match other.strip_prefix("scripted:") {
                Some(path) if !path.is_empty() => LlmChoice::Scripted(PathBuf::from(path)),
                _ => return Err(ConfigError::LlmChoice(other.to_owned())),
            },
        };
        let tools = match lookup("DICEBOUND_LLM_TOOLS").as_deref().map(str::trim) {
            None => None,
            Some("native") => Some(ToolMode::Native),
            Some("text") => Some(ToolMode::Text),
            Some(other) => return Err(ConfigError::ToolMode(other.to_owned())),
        };
        Ok(Self {
            tools,
            leptos,
            database_url: lookup("DICEBOUND_DATABASE_URL")
                .unwrap_or_else(|| "sqlite://dicebound.db".to_owned()),
            llm,
            secure_cookies: lookup("DICEBOUND_SECURE_COOKIES").is_some_and(|v| v == "true"),
        })
    }
}

/// A stand-in environment of `pairs`, for tests of the `from_lookup` readers.
#[cfg(test)]
pub(crate) fn fake_env<'a>(
    pairs: &'a [(&'a str, &'a str)],
) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        Settings::from_lookup(
            LeptosOptions::builder().output_name("t").build(),
            fake_env(pairs),
        )
    }

    #[test]
    fn without_an_endpoint_a_local_model_is_used() {
        let chosen = settings(&[("DICEBOUND_LLM_HOME", "/llm")]).unwrap();
        assert_eq!(
            chosen.llm,
            LlmChoice::Local {
                probe: usual_local_servers(),
                bundled: BundledSettings::in_dir(std::path::Path::new("/llm")),
            }
        );
        assert_eq!(chosen.tools, None);
        let bundled = settings(&[("DICEBOUND_LLM", "bundled")]).unwrap();
        assert!(matches!(bundled.llm, LlmChoice::Local { ref probe, .. } if probe.is_empty()));
    }

    #[test]
    fn a_configured_endpoint_wins() {
        let chosen = settings(&[("OPENAI_API_KEY", "sk-test")]).unwrap();
        assert!(matches!(chosen.llm, LlmChoice::Endpoint(ref s) if s.model == "gpt-4o-mini"));
        let chosen = settings(&[
            ("DICEBOUND_LLM_BASE_URL", "http://10.0.0.2:8000/v1"),
            ("DICEBOUND_LLM_TOOLS", "text"),
        ])
        .unwrap();
        assert!(
            matches!(chosen.llm, LlmChoice::Endpoint(ref s) if s.base_url.starts_with("http://10.0.0.2"))
        );
        assert_eq!(chosen.tools, Some(ToolMode::Text));
    }

    #[test]
    fn an_explicit_choice_beats_an_endpoint() {
        let demo = settings(&[("DICEBOUND_LLM", "demo"), ("OPENAI_API_KEY", "sk")]).unwrap();
        assert_eq!(demo.llm, LlmChoice::Demo);
        let scripted = settings(&[("DICEBOUND_LLM", "scripted:/tmp/s.json")]).unwrap();
        assert_eq!(
            scripted.llm,
            LlmChoice::Scripted(PathBuf::from("/tmp/s.json"))
        );
    }

    #[test]
    fn unknown_values_are_refused_with_the_allowed_ones() {
        let error = settings(&[("DICEBOUND_LLM", "gpt5")]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("local, bundled, demo or scripted:PATH"),
            "{error}"
        );
        let error = settings(&[("DICEBOUND_LLM", "scripted:")]).unwrap_err();
        assert!(matches!(error, ConfigError::LlmChoice(_)));
        let error = settings(&[("DICEBOUND_LLM_TOOLS", "smoke")]).unwrap_err();
        assert!(error.to_string().contains("native or text"), "{error}");
    }
}
