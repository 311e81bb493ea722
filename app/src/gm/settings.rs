//! The game master's limits for one model: reply lengths, tool rounds, the prompt's token
//! budget and how the action schema is shaped. Each provider picks the set that suits its model.

use super::tools::{EndChapter, GameTool, SanityCheckCall, WritePlan};
use crate::campaign::state::CampaignState;
/// Limits of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct GmSettings {
    /// Model calls with tools per narration; past that one last call is made without tools.
    pub max_tool_rounds: usize,
    /// Tool calls honoured per model reply; the rest are refused.
    pub max_calls_per_round: usize,
    /// Token limit of a narration reply.
    pub narrative_max_tokens: u32,
    /// Token limit of an action-list reply.
    pub actions_max_tokens: u32,
    /// The model's context size in tokens (prompt and reply).
    pub context_tokens: u32,
    /// The most tokens a prompt may have (a cost cap below the context size).
    pub prompt_max_tokens: u32,
    /// Token limit of a summary reply.
    pub summary_max_tokens: u32,
    /// Whether the action list's schema carries length and range bounds (for a local server
    /// that samples by the schema's grammar; OpenAI's strict mode refuses them).
    pub bounded_schema: bool,
    /// The most time one phase may take, every model call, retry and tool round included.
    pub phase_deadline: std::time::Duration,
    /// Whether the model is told the full rules and shown the tools; without, it gets a few
    /// plain lines and one example (a very small model loses its way in a long prompt), and
    /// the rules alone change the sheet.
    pub full_prompt: bool,
}

impl GmSettings {
    /// Limits for a model server found running on this computer (Ollama, llama.cpp), whose
    /// context may be as small as 4k tokens.
    pub fn local_server() -> Self {
        Self {
            context_tokens: 4_096,
            ..Self::default()
        }
    }

    /// The rules every request starts with.
    pub fn rules(&self) -> &'static str {
        if self.full_prompt {
            super::prompt::messages::GM_RULES
        } else {
            super::prompt::messages::SMALL_GM_RULES
        }
    }

    /// The tools the model is shown (none without the full prompt).
    pub fn tools(&self) -> Vec<super::llm::ToolDefinition> {
        if self.full_prompt {
            super::tools::definitions()
        } else {
            Vec::new()
        }
    }

    /// The tools for a turn of `state`: [`tools`](Self::tools) without `sanity_check` when
    /// the game does not track sanity, `write_plan` once the story has a plan, and
    /// `end_chapter` while it has no chapter under way.
    pub fn tools_for(&self, state: &CampaignState) -> Vec<super::llm::ToolDefinition> {
        let mut tools = self.tools();
        let spine = &state.spine;
        let chapter_under_way = spine
            .plan
            .as_ref()
            .is_some_and(|plan| spine.chapter < plan.chapters().len());
        tools.retain(|tool| match tool.name.as_str() {
            SanityCheckCall::NAME => state.sheet.sanity().is_some(),
            WritePlan::NAME => spine.plan.is_none(),
            EndChapter::NAME => chapter_under_way,
            _ => true,
        });
        super::tools::whose::name_the_characters(
            &mut tools,
            state.sheet.name().as_str(),
            &state.party,
        );
        tools
    }

    /// The tokens a prompt may have: the cap, or less if the model's context is smaller than
    /// the cap plus the longest reply.
    pub fn prompt_budget(&self) -> usize {
        let longest_reply = self
            .narrative_max_tokens
            .max(self.actions_max_tokens)
            .max(self.summary_max_tokens);
        self.prompt_max_tokens
            .min(self.context_tokens.saturating_sub(longest_reply)) as usize
    }

    /// Limits for a very small local model (an 8k-token context, slow on one thread): short
    /// replies, few tool rounds, a short history.
    pub fn small_model() -> Self {
        Self {
            max_tool_rounds: 2,
            max_calls_per_round: 3,
            narrative_max_tokens: 240,
            actions_max_tokens: 600,
            context_tokens: 8_192,
            prompt_max_tokens: 3_500,
            summary_max_tokens: 300,
            bounded_schema: true,
            full_prompt: false,
            ..Self::default()
        }
    }
}

impl Default for GmSettings {
    fn default() -> Self {
        Self {
            max_tool_rounds: 4,
            max_calls_per_round: 6,
            narrative_max_tokens: 700,
            actions_max_tokens: 500,
            context_tokens: 128_000,
            prompt_max_tokens: 2_700,
            summary_max_tokens: 400,
            bounded_schema: false,
            phase_deadline: std::time::Duration::from_secs(180),
            full_prompt: true,
        }
    }
}
