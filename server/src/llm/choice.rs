//! Which model tells the story ([`LlmChoice`]) and how it is given its tools ([`ToolMode`]):
//! what the configuration reads from the environment and [`Provider`](super::provider::Provider)
//! starts.

use std::path::PathBuf;

use super::bundled::BundledSettings;
use super::discover::LocalServer;
use super::openai::OpenAiSettings;

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
    /// The bundled model, every exchange recorded to a cassette file.
    Record {
        /// The cassette file written.
        path: PathBuf,
        /// The bundled model.
        bundled: BundledSettings,
    },
    /// A recorded cassette played back.
    Replay(PathBuf),
    /// The built-in demo story.
    Demo,
}

/// How the model is given its tools (the settings page's word for it too).
pub use app::wire::model_settings::ToolsMode as ToolMode;
