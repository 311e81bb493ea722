//! The operator's bounds on every game master the server runs: the prompt's token limits
//! ([`PromptLimits`]) and what the server spends ([`Spend`]). The configuration reads them from
//! the environment; [`MasterRecipe`](super::master::MasterRecipe) applies them.

use std::time::Duration;

/// Bounds on what the server spends: model calls at once, a phase's time, each player's and each
/// client address's share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spend {
    /// Model calls running at once (`DICEBOUND_LLM_CONCURRENCY`; else the model's own default).
    pub model_calls: Option<usize>,
    /// The most time a phase may take (`DICEBOUND_PHASE_DEADLINE_SECS`).
    pub phase_deadline: Option<Duration>,
    /// Each player's and each client address's rate limits, and each player's campaign count.
    pub limits: app::service::LimitSettings,
}

/// Token limits of the prompt that override the game master's defaults for its model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PromptLimits {
    /// The model's context size (`DICEBOUND_LLM_CONTEXT_TOKENS`).
    pub context_tokens: Option<u32>,
    /// The most tokens a prompt may have (`DICEBOUND_PROMPT_MAX_TOKENS`).
    pub max_tokens: Option<u32>,
}

impl PromptLimits {
    /// `gm` with these limits where they are set.
    pub fn apply(&self, gm: &mut app::gm::GmSettings) {
        if let Some(tokens) = self.context_tokens {
            gm.context_tokens = tokens;
        }
        if let Some(tokens) = self.max_tokens {
            gm.prompt_max_tokens = tokens;
        }
    }
}
