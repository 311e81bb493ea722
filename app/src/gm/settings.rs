//! The game master's limits for one model: reply lengths, tool rounds, the prompt's token
//! budget and how the action schema is shaped. Each provider picks the set that suits its model.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use serde_json::Value;

use super::llm::ToolDefinition;
use super::tools::{
    EndChapter, EndEncounter, GameTool, HazardCall, Rest, SanityCheckCall, StartEncounter,
    UpdateCharacter, WritePlan,
};
use crate::campaign::state::CampaignState;
use crate::game::combat::Combat;

/// `update_character`'s argument for a change of sanity.
const SANITY_CHANGE: &str = "sanityChange";

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
    pub fn tools(&self) -> Vec<ToolDefinition> {
        if self.full_prompt {
            super::tools::definitions()
        } else {
            Vec::new()
        }
    }

    /// The tools for a turn of `state` with `combat` as the player's move left it, only those
    /// the state can use: `sanity_check` and `update_character`'s `sanityChange` only when the
    /// game tracks sanity, `write_plan` until the story has a plan, `end_chapter` while a
    /// chapter is under way; outside a fight `start_encounter`, `hazard` and `rest`, during one
    /// `end_encounter` (the rules refuse each of them otherwise). The list is byte-identical
    /// from call to call while these do not change (a fight starting or ending changes it).
    ///
    /// The list is made once for each [`ToolShape`] and shared by every call that sends it.
    pub fn tools_for(&self, state: &CampaignState, combat: &Combat) -> Arc<[ToolDefinition]> {
        static MADE: LazyLock<Mutex<HashMap<ToolShape, Arc<[ToolDefinition]>>>> =
            LazyLock::new(Mutex::default);
        let spine = &state.spine;
        let shape = ToolShape {
            full_prompt: self.full_prompt,
            sanity: state.sheet.sanity().is_some(),
            unplanned: spine.plan.is_none(),
            chapter_under_way: spine
                .plan
                .as_ref()
                .is_some_and(|plan| spine.chapter < plan.chapters().len()),
            fighting: combat.is_running(),
            party: !state.party.is_empty(),
        };
        let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(
            made.entry(shape)
                .or_insert_with(|| self.tools_of(shape, state).into()),
        )
    }

    /// The tools of `shape` (`state` names the party's members).
    fn tools_of(&self, shape: ToolShape, state: &CampaignState) -> Vec<ToolDefinition> {
        let mut tools = self.tools();
        tools.retain(|tool| match tool.name.as_str() {
            SanityCheckCall::NAME => shape.sanity,
            WritePlan::NAME => shape.unplanned,
            EndChapter::NAME => shape.chapter_under_way,
            StartEncounter::NAME | HazardCall::NAME | Rest::NAME => !shape.fighting,
            EndEncounter::NAME => shape.fighting,
            _ => true,
        });
        if !shape.sanity {
            without_argument(&mut tools, UpdateCharacter::NAME, SANITY_CHANGE);
        }
        super::tools::whose::name_the_characters(&mut tools, &state.party);
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

/// What decides which tools a turn is shown, and how: two turns of the same shape are shown the
/// same list (the party's names are not in it: `character` is a plain string).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ToolShape {
    full_prompt: bool,
    sanity: bool,
    unplanned: bool,
    chapter_under_way: bool,
    fighting: bool,
    party: bool,
}

/// Removes `argument` from the schema of the tool named `tool` (its properties and its
/// required list).
fn without_argument(tools: &mut [ToolDefinition], tool: &str, argument: &str) {
    let Some(schema) = tools
        .iter_mut()
        .find(|definition| definition.name == tool)
        .and_then(|definition| definition.parameters.as_object_mut())
    else {
        return;
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.remove(argument);
    }
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|name| name != argument);
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

#[cfg(test)]
mod tests {
    use rand::{rngs::StdRng, SeedableRng};

    use super::*;
    use crate::game::combat::Hero;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::{ArmorClass, Bestiary, CharacterSheet, Sanity};

    fn state() -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Wren").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("The road").unwrap(),
        );
        CampaignState::start("A road to a barrow.", sheet)
    }

    fn names(tools: &[ToolDefinition]) -> Vec<&str> {
        tools.iter().map(|tool| tool.name.as_str()).collect()
    }

    fn arguments(tools: &[ToolDefinition], tool: &str) -> String {
        let tool = tools.iter().find(|t| t.name == tool).expect("the tool");
        tool.parameters.to_string()
    }

    #[test]
    fn the_tools_are_those_the_state_uses() {
        let settings = GmSettings::default();
        let mut state = state();
        let calm = settings.tools_for(&state, &state.combat);
        let listed = names(&calm);
        assert!(listed.contains(&StartEncounter::NAME) && listed.contains(&Rest::NAME));
        assert!(!listed.contains(&EndEncounter::NAME) && !listed.contains(&SanityCheckCall::NAME));
        assert!(!arguments(&calm, UpdateCharacter::NAME).contains(SANITY_CHANGE));
        assert_eq!(
            calm,
            settings.tools_for(&state, &state.combat),
            "the same bytes"
        );
        assert!(
            Arc::ptr_eq(&calm, &settings.tools_for(&state, &state.combat)),
            "made once, shared"
        );

        state.sheet = state.sheet.clone().with_sanity(Sanity::new(80).unwrap());
        let sane = settings.tools_for(&state, &state.combat);
        assert!(names(&sane).contains(&SanityCheckCall::NAME));
        assert!(arguments(&sane, UpdateCharacter::NAME).contains(SANITY_CHANGE));

        let mut combat = Combat::default();
        let goblin = Bestiary::srd().get("Goblin").unwrap().clone();
        let hero = Hero::new(ArmorClass::new(13).unwrap(), 20, 2);
        combat
            .start(vec![goblin], &hero, &mut StdRng::seed_from_u64(1))
            .unwrap();
        let during = settings.tools_for(&state, &combat);
        let fighting = names(&during);
        assert!(fighting.contains(&EndEncounter::NAME), "{fighting:?}");
        for refused in [StartEncounter::NAME, HazardCall::NAME, Rest::NAME] {
            assert!(!fighting.contains(&refused), "{refused} in {fighting:?}");
        }
    }
}
