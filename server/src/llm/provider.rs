//! Turns the configured [`LlmChoice`] into the running game master: the model port, the turn
//! limits that suit it, what the player is told about it, and the bundled server it needs.
//!
//! An explicitly configured endpoint wins; else a model server already running on this computer
//! (Ollama, llama.cpp) is used; else the bundled `llama-server` is started.

use std::{sync::Arc, time::Duration};

use super::text_tools::TextTools;
use app::gm::scripted::ScriptedLlm;
use app::gm::{GmSettings, LlmPort};
use app::wire::view::GameMasterView;

use super::bundled::{BundledError, BundledServer, BundledSettings, BUNDLED_MODEL};
use super::cassette::{Cassette, CassetteError, Recording, Replaying};
use super::choice::{LlmChoice, ToolMode};
use super::discover::find_running;
use super::openai::{LlmConfigError, OpenAiAdapter, OpenAiSettings};
use super::resilient::{Resilient, RetryPolicy};

/// The demo story played with `DICEBOUND_LLM=demo`.
const DEMO_SCENARIO: &str = include_str!("../../scenarios/demo.json");

/// How long a local model server may take to list its models before it is passed over.
const PROBE_WAIT: Duration = Duration::from_millis(800);

/// Discourages the bundled model's loops ("You are trapped. You are trapped.").
const BUNDLED_FREQUENCY_PENALTY: f32 = 0.6;

/// What the player is told about the bundled model.
pub const BUNDLED_ADVICE: &str = "This is a very small model running on your own computer, so \
stories will be rough and it will sometimes forget the rules. For a far better game master, \
connect any OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio) on the \
settings page, or set OPENAI_API_KEY (or DICEBOUND_LLM_BASE_URL and DICEBOUND_LLM_MODEL) in the \
environment and restart. A running Ollama is picked up by itself.";

/// The running game master.
pub struct Provider {
    /// The model.
    pub llm: Arc<dyn LlmPort>,
    /// Turn limits that suit it.
    pub gm: GmSettings,
    /// What the player is told about it.
    pub master: GameMasterView,
    /// The bundled server, when it is the one in use (stopped when dropped).
    pub bundled: Option<BundledServer>,
    /// The seed of the server's dice, when a scripted scenario sets one (tests).
    pub dice_seed: Option<u64>,
}

/// Why no game master could be started.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The endpoint settings are unusable.
    #[error(transparent)]
    Config(#[from] LlmConfigError),
    /// The bundled model could not be started.
    #[error(transparent)]
    Bundled(#[from] BundledError),
    /// The scenario file could not be read.
    #[error("cannot read the scenario file: {0}")]
    ScenarioFile(#[from] std::io::Error),
    /// The scenario is not valid.
    #[error("cannot read the scenario: {0}")]
    Scenario(#[from] serde_json::Error),
    /// The cassette cannot be used.
    #[error(transparent)]
    Cassette(#[from] CassetteError),
}

impl Provider {
    /// Starts the game master `choice` names; `tools` overrides how tools reach the model.
    pub async fn start(choice: &LlmChoice, tools: Option<ToolMode>) -> Result<Self, ProviderError> {
        match choice {
            LlmChoice::Endpoint(settings) => {
                let llm = endpoint(settings.clone(), tools.unwrap_or(ToolMode::Native))?;
                let info = llm.model_info();
                Ok(Self {
                    llm,
                    gm: GmSettings::default(),
                    master: GameMasterView {
                        model: info.model,
                        // The URL stays in the log: it may name a private host.
                        source: "the configured OpenAI-compatible endpoint".to_owned(),
                        advice: None,
                    },
                    bundled: None,
                    dice_seed: None,
                })
            }
            LlmChoice::Scripted(path) => Ok(Self::scripted(
                ScriptedLlm::from_json(&std::fs::read_to_string(path)?)?,
                "a scripted scenario, not a model",
                None,
            )),
            LlmChoice::Demo => Ok(Self::scripted(
                ScriptedLlm::from_json(DEMO_SCENARIO)?,
                "the built-in demo story, not a model",
                Some(
                    "Every game plays the same short demo story. Unset DICEBOUND_LLM to use the \
                     bundled model, or set OPENAI_API_KEY for a real game master.",
                ),
            )),
            LlmChoice::Record { path, bundled } => Self::recording(path, bundled, tools).await,
            LlmChoice::Replay(path) => Self::replaying(path),
            LlmChoice::Local { probe, bundled } => {
                if !probe.is_empty() {
                    if let Some(running) = find_running(probe, PROBE_WAIT).await {
                        let settings =
                            OpenAiSettings::new(&running.server.base_url, &running.model);
                        return Ok(Self {
                            llm: endpoint(settings, tools.unwrap_or(ToolMode::Text))?,
                            gm: GmSettings::local_server(),
                            master: GameMasterView {
                                model: running.model,
                                source: format!("{} on this computer", running.server.name),
                                advice: None,
                            },
                            bundled: None,
                            dice_seed: None,
                        });
                    }
                }
                let server = BundledServer::start(bundled).await?;
                let settings = OpenAiSettings {
                    frequency_penalty: Some(BUNDLED_FREQUENCY_PENALTY),
                    ..OpenAiSettings::new(server.base_url(), BUNDLED_MODEL)
                };
                Ok(Self {
                    llm: endpoint(settings, tools.unwrap_or(ToolMode::Text))?,
                    gm: GmSettings::small_model(),
                    master: GameMasterView {
                        model: BUNDLED_MODEL.to_owned(),
                        source: "the bundled model, running on this computer (llama.cpp, one CPU \
                                 thread)"
                            .to_owned(),
                        advice: Some(BUNDLED_ADVICE.to_owned()),
                    },
                    bundled: Some(server),
                    dice_seed: None,
                })
            }
        }
    }

    /// The bundled model, every exchange recorded to the cassette at `path`.
    async fn recording(
        path: &std::path::Path,
        bundled: &BundledSettings,
        tools: Option<ToolMode>,
    ) -> Result<Self, ProviderError> {
        let local = LlmChoice::Local {
            probe: Vec::new(),
            bundled: bundled.clone(),
        };
        let mut provider = Box::pin(Self::start(&local, tools)).await?;
        provider.llm = Arc::new(Recording::new(provider.llm, Some(path.to_owned())));
        provider.master.source.push_str(", recorded to a cassette");
        Ok(provider)
    }

    /// The cassette at `path`, played back.
    fn replaying(path: &std::path::Path) -> Result<Self, ProviderError> {
        let cassette = Cassette::load(path)?;
        Ok(Self {
            master: GameMasterView {
                model: cassette.model.clone(),
                source: "a recorded cassette, not a model".to_owned(),
                advice: None,
            },
            llm: Arc::new(Replaying::new(cassette)),
            // Cassettes are recorded from the bundled model (`record:PATH`).
            gm: GmSettings::small_model(),
            bundled: None,
            dice_seed: None,
        })
    }

    fn scripted(llm: ScriptedLlm, source: &str, advice: Option<&str>) -> Self {
        Self {
            master: GameMasterView {
                model: llm.model_info().model,
                source: source.to_owned(),
                advice: advice.map(str::to_owned),
            },
            dice_seed: llm.dice_seed(),
            llm: Arc::new(llm),
            gm: GmSettings::default(),
            bundled: None,
        }
    }
}

/// An OpenAI-compatible endpoint with retries, its tools native or in the text.
pub(super) fn endpoint(
    settings: OpenAiSettings,
    tools: ToolMode,
) -> Result<Arc<dyn LlmPort>, LlmConfigError> {
    let resilient = Resilient::new(
        Arc::new(OpenAiAdapter::new(settings)?),
        RetryPolicy::default(),
    );
    Ok(match tools {
        ToolMode::Native => Arc::new(resilient),
        ToolMode::Text => Arc::new(TextTools::new(resilient)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_scenario_parses() {
        assert!(ScriptedLlm::from_json(DEMO_SCENARIO).is_ok());
    }
}
