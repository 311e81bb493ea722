//! The game master the game takes, made from a started provider or from an endpoint set on the
//! settings page: the model within the server's bound on calls at once, the turn limits with
//! the operator's prompt limits and phase deadline over the model's own.

use std::sync::Arc;

use app::gm::{GmSettings, LlmPort};
use app::service::game_master::ActiveMaster;
use app::wire::view::GameMasterView;

use super::bounds::{PromptLimits, Spend};
use super::endpoint_settings::Endpoint;
use super::limited::Limited;
use super::openai::{LlmConfigError, OpenAiSettings};
use super::provider::{endpoint, Provider};

/// Model calls at once to a remote endpoint, unless configured.
pub const ENDPOINT_CALLS: usize = 8;

/// What the server says about every game master it runs.
#[derive(Clone, Copy, Debug)]
pub struct MasterRecipe {
    /// The operator's prompt limits.
    pub prompt: PromptLimits,
    /// The operator's spending bounds.
    pub spend: Spend,
}

impl MasterRecipe {
    /// The game master of a started provider; `calls` is its own bound on calls at once.
    pub fn provided(&self, provider: &Provider, calls: usize) -> ActiveMaster {
        let mut gm = provider.gm.clone();
        self.limit(&mut gm);
        ActiveMaster {
            llm: Arc::new(Limited::new(
                provider.llm.clone(),
                self.spend.model_calls.unwrap_or(calls),
            )),
            gm: Arc::new(gm),
            view: Arc::new(provider.master.clone()),
        }
    }

    /// The game master of an endpoint set on the settings page.
    pub fn endpoint(
        &self,
        settings: OpenAiSettings,
        saved: &Endpoint,
    ) -> Result<ActiveMaster, LlmConfigError> {
        let here = reqwest::Url::parse(&settings.base_url)
            .ok()
            .is_some_and(|url| super::openai::is_loopback(&url));
        let llm: Arc<dyn LlmPort> = endpoint(settings, saved.tools)?;
        let mut gm = GmSettings {
            context_tokens: saved.context_tokens,
            ..GmSettings::default()
        };
        self.limit(&mut gm);
        let calls = if here { 1 } else { ENDPOINT_CALLS };
        Ok(ActiveMaster {
            llm: Arc::new(Limited::new(llm, self.spend.model_calls.unwrap_or(calls))),
            gm: Arc::new(gm),
            view: Arc::new(GameMasterView {
                model: saved.model.clone(),
                // The URL stays off the page: it may name a private host.
                source: "the endpoint set on the settings page".to_owned(),
                advice: None,
            }),
        })
    }

    /// `gm` within the operator's prompt limits and phase deadline.
    fn limit(&self, gm: &mut GmSettings) {
        self.prompt.apply(gm);
        if let Some(deadline) = self.spend.phase_deadline {
            gm.phase_deadline = deadline;
        }
    }
}
