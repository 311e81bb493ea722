//! The settings page's vocabulary: which model the game master runs on, as the operator sees and
//! changes it. The API key only ever travels towards the server: a view says whether one is set,
//! never what it is.

use serde::{Deserialize, Serialize};

use super::view::GameMasterView;

/// The longest endpoint URL, model name or API key the settings page takes.
pub const MAX_SETTING_CHARS: usize = 500;

/// The smallest and largest context size the settings page takes, in tokens.
pub const CONTEXT_TOKENS_RANGE: std::ops::RangeInclusive<u32> = 2_000..=2_000_000;

/// How the model is given its tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolsMode {
    /// The API's own tool calling.
    #[default]
    Native,
    /// Described in the prompt, the calls written as tags in the reply (models without tool
    /// calling).
    Text,
}

impl ToolsMode {
    /// Its name in a form and in the environment (`native`, `text`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Text => "text",
        }
    }

    /// The mode named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "native" => Some(Self::Native),
            "text" => Some(Self::Text),
            _ => None,
        }
    }
}

/// A setting the environment may fix (the environment wins over the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelField {
    /// `DICEBOUND_LLM_BASE_URL`.
    Endpoint,
    /// `DICEBOUND_LLM_MODEL`.
    Model,
    /// `DICEBOUND_LLM_API_KEY` or `OPENAI_API_KEY`.
    ApiKey,
    /// `DICEBOUND_LLM_TOOLS`.
    Tools,
    /// `DICEBOUND_LLM_CONTEXT_TOKENS`.
    ContextTokens,
}

impl ModelField {
    /// The environment variable that sets it.
    pub fn variable(self) -> &'static str {
        match self {
            Self::Endpoint => "DICEBOUND_LLM_BASE_URL",
            Self::Model => "DICEBOUND_LLM_MODEL",
            Self::ApiKey => "DICEBOUND_LLM_API_KEY",
            Self::Tools => "DICEBOUND_LLM_TOOLS",
            Self::ContextTokens => "DICEBOUND_LLM_CONTEXT_TOKENS",
        }
    }
}

/// The game master's model settings as the settings page shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSettingsView {
    /// The endpoint's base URL (empty while none is set).
    pub endpoint: String,
    /// The model's name (empty while none is set).
    pub model: String,
    /// Whether an API key is set; the key itself is never sent back.
    pub key_set: bool,
    /// How the model is given its tools.
    pub tools: ToolsMode,
    /// The model's context size in tokens.
    pub context_tokens: u32,
    /// The settings the environment fixes (the page cannot change them).
    pub from_environment: Vec<ModelField>,
    /// Whether settings saved on this page are in use (else the server's start-up choice is).
    pub saved: bool,
    /// The game master now in use.
    pub in_use: GameMasterView,
}

/// The settings page's form: an endpoint to test or to save.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSettingsForm {
    /// The endpoint's base URL, up to and including `/v1`.
    pub endpoint: String,
    /// The model's name, one the endpoint lists.
    pub model: String,
    /// A new API key; empty keeps the one set.
    pub api_key: String,
    /// Whether to remove the key set (for an endpoint that wants none).
    pub forget_key: bool,
    /// How the model is given its tools.
    pub tools: ToolsMode,
    /// The model's context size in tokens.
    pub context_tokens: u32,
}

/// What a test of the connection found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionReport {
    /// The models the endpoint lists.
    pub models: Vec<String>,
    /// The start of the model's answer to a one-line request.
    pub reply: String,
    /// How long the request took, in milliseconds.
    pub millis: u64,
}
