//! The model's part of the settings ([`ModelSettings`]): which model tells the story
//! (`DICEBOUND_LLM`, or an endpoint's `DICEBOUND_LLM_BASE_URL`, `DICEBOUND_LLM_API_KEY`,
//! `OPENAI_API_KEY`), how it gets its tools, the prompt's token limits and the endpoint settings
//! the environment fixes.

use std::path::PathBuf;

use crate::llm::bounds::PromptLimits;
use crate::llm::bundled::BundledSettings;
use crate::llm::choice::{LlmChoice, ToolMode};
use crate::llm::discover::usual_local_servers;
use crate::llm::endpoint_settings::EndpointEnv;
use crate::llm::openai::OpenAiSettings;

use super::error::{ConfigError, MIN_PROMPT_TOKENS};

/// The model's part of the settings: which model, how it gets its tools, its prompt's limits.
/// The playtest bench reads only this part, to play against whatever model an operator set.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSettings {
    /// The model.
    pub llm: LlmChoice,
    /// How tools reach the model, when set.
    pub tools: Option<ToolMode>,
    /// The prompt's token limits, where set.
    pub prompt: PromptLimits,
    /// The endpoint settings the environment fixes.
    pub endpoint_env: EndpointEnv,
}

impl ModelSettings {
    /// Reads the model settings from the environment (empty values count as unset).
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok().filter(|value| !value.is_empty()))
    }

    /// Reads the model settings from `lookup` (see
    /// [`Config::from_lookup`](super::Config::from_lookup)).
    pub(super) fn from_lookup(
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
            Some(other) => match other.split_once(':') {
                Some(("scripted", path)) if !path.is_empty() => {
                    LlmChoice::Scripted(PathBuf::from(path))
                }
                Some(("record", path)) if !path.is_empty() => LlmChoice::Record {
                    path: PathBuf::from(path),
                    bundled: BundledSettings::from_lookup(&lookup),
                },
                Some(("replay", path)) if !path.is_empty() => {
                    LlmChoice::Replay(PathBuf::from(path))
                }
                _ => return Err(ConfigError::LlmChoice(other.to_owned())),
            },
        };
        let tools = match lookup("DICEBOUND_LLM_TOOLS").as_deref().map(str::trim) {
            None => None,
            Some(name) => Some(
                ToolMode::from_name(name).ok_or_else(|| ConfigError::ToolMode(name.to_owned()))?,
            ),
        };
        let prompt = PromptLimits {
            context_tokens: tokens(&lookup, "DICEBOUND_LLM_CONTEXT_TOKENS")?,
            max_tokens: tokens(&lookup, "DICEBOUND_PROMPT_MAX_TOKENS")?,
        };
        let endpoint_env = EndpointEnv::from_lookup(&lookup, tools, prompt.context_tokens)?;
        Ok(Self {
            llm,
            tools,
            prompt,
            endpoint_env,
        })
    }
}

/// A token limit from `name`, if set.
fn tokens(
    lookup: impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u32>, ConfigError> {
    lookup(name)
        .map(|value| match value.trim().parse::<u32>() {
            Ok(tokens) if tokens >= MIN_PROMPT_TOKENS => Ok(tokens),
            _ => Err(ConfigError::Tokens { name, value }),
        })
        .transpose()
}
