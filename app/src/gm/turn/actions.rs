//! Phase 2: the player's next actions. [`offer_actions`] asks for them as strict JSON, repairs
//! once, and falls back to the rules' safe actions.

use super::candidates::{candidate_moves, fallback_actions, with_attitude_dcs, with_rules_checks};
use super::fight_turn::with_fight_moves;
use super::stream::reported;
use super::TurnError;
use crate::campaign::conversation::SentRequest;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::{Phase, TurnEvent};
use crate::game::agreement::TableAgreement;
use crate::game::carried::{lacking, Lacking};
use crate::game::powers::PowerError;
use crate::game::spell_words::checked_cast;
use crate::game::{Action, ActionList, ActionListError, CharacterSheet};
use crate::gm::llm::{LlmPort, Message, Purpose, TokenUsage, ToolChoice};
use crate::gm::prompt::layers;
use crate::gm::prompt::messages::{actions_format, actions_message, repair_message};
use crate::gm::prompt::token_count::tokens;
use crate::gm::prose::scene;
use crate::gm::settings::GmSettings;

/// A completed actions phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offered {
    /// The events to store (usage, the actions offered).
    pub events: Vec<TurnEvent>,
    /// The last request sent.
    pub sent: SentRequest,
}

/// Phase 2: the player's next actions for the scene that ends `state`'s verbatim turns. Falls
/// back to safe actions when the model's answer is unusable twice; fails only when the model
/// cannot be reached on the first call.
pub async fn offer_actions(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    previous: Option<&SentRequest>,
) -> Result<Offered, TurnError> {
    let mut events = Vec::new();
    let ask = [actions_message()];
    // A model small enough to need a bounded schema picks among the rules' moves.
    let candidates = if settings.bounded_schema {
        candidate_moves(state)
    } else {
        Vec::new()
    };
    let described: Vec<String> = candidates.iter().map(|c| c.description.clone()).collect();
    let format = actions_format(settings.bounded_schema, &described);
    let schema = layers::Reserve::Schema(tokens(&format.schema.to_string()));
    // No tools: this phase calls none, and the list would be most of its bytes. Every action
    // list's request starts the same (the rules, the premise, the plan), for the prompt cache.
    let layered = layers::layered(state, settings, &[], &ask, schema, &[]);
    let mut request = layered.request(&ask, Vec::new());
    request.purpose = Purpose::Actions;
    request.tool_choice = ToolChoice::None;
    request.response_format = Some(format);
    request.temperature = Some(0.7);
    request.max_tokens = Some(settings.actions_max_tokens);
    let mut sent = layers::record(Purpose::Actions.label(), &request, &layered, previous);
    let echoes = scene::echoes(state);
    let first = llm.complete(request.clone()).await?;
    sent.reported_tokens = first.usage.and_then(reported);
    events.extend(usage_event(first.usage));
    let first_usable = usable(&first.text, &echoes, &state.agreement)
        .and_then(|actions| carried(actions, &state.sheet));
    let error = match first_usable {
        Ok(actions) => {
            events.push(offered(
                with_rules_checks(&actions, &candidates),
                Answer::First,
                state,
            ));
            return Ok(Offered { events, sent });
        }
        Err(error) => error,
    };
    tracing::warn!(%error, "the action list was invalid; asking for a repair");
    request.messages.push(Message::assistant(first.text));
    request.messages.push(repair_message(&error.to_string()));
    let repaired = match llm.complete(request).await {
        Ok(reply) => {
            events.extend(usage_event(reply.usage));
            usable(&reply.text, &echoes, &state.agreement)
                .map_err(|error| error.to_string())
                .and_then(|actions| carried_only(actions, &state.sheet))
        }
        Err(error) => Err(error.to_string()),
    };
    match repaired {
        Ok(actions) => events.push(offered(
            with_rules_checks(&actions, &candidates),
            Answer::Repaired,
            state,
        )),
        Err(error) => {
            tracing::warn!(%error, "the repaired action list failed too; offering fallback actions");
            events.push(offered(fallback_actions(state), Answer::Fallback, state));
        }
    }
    Ok(Offered { events, sent })
}

/// The model's action list, if it parses, keeps the rules and every action is a move in the
/// scene (no placeholder, no echo of `echoes`).
fn usable(
    text: &str,
    echoes: &[String],
    agreement: &TableAgreement,
) -> Result<ActionList, Unusable> {
    let valid = ActionList::parse_json(text)?;
    valid.actions.check_concrete(echoes)?;
    if let Some(line) = valid.actions.actions().iter().find_map(|action| {
        agreement
            .crossed(action.description().as_str())
            .first()
            .copied()
    }) {
        return Err(Unusable::CrossesALine(line.as_str().to_owned()));
    }
    Ok(valid.actions)
}

/// `actions` if the hero has everything each one uses; else why not, for the repair request.
fn carried(actions: ActionList, sheet: &CharacterSheet) -> Result<ActionList, Unusable> {
    for action in actions.actions() {
        let words = action.description().as_str();
        if let Err(lacking) = lacking(words, sheet.inventory()) {
            return Err(Unusable::Lacks(words.to_owned(), lacking));
        }
        if let Some(Err(refused)) = checked_cast(words, sheet) {
            return Err(Unusable::CannotCast(words.to_owned(), refused));
        }
    }
    Ok(actions)
}

/// The actions of a repaired list that use only what the hero has (the others dropped); an
/// error when none is left.
fn carried_only(actions: ActionList, sheet: &CharacterSheet) -> Result<ActionList, String> {
    let kept: Vec<Action> = actions
        .actions()
        .iter()
        .filter(|action| {
            let words = action.description().as_str();
            lacking(words, sheet.inventory()).is_ok()
                && !matches!(checked_cast(words, sheet), Some(Err(_)))
        })
        .cloned()
        .collect();
    ActionList::try_from(kept)
        .map_err(|_| "every action uses something the hero does not have".to_owned())
}

/// Why an action list cannot be offered.
#[derive(Debug, thiserror::Error)]
enum Unusable {
    /// It breaks the rules of an action list.
    #[error(transparent)]
    List(#[from] ActionListError),
    /// An action crosses a line the table drew.
    #[error("an action crosses a line this table drew ({0}); offer none that touches it")]
    CrossesALine(String),
    /// An action uses something the hero does not carry.
    #[error("\"{0}\": {1}; offer only what the character can do with what the sheet lists")]
    Lacks(String, Lacking),
    /// An action casts a spell the hero cannot cast now.
    #[error("\"{0}\": {1}; offer only spells the sheet lists, with slots left")]
    CannotCast(String, PowerError),
}

/// Which of the model's answers an action list came from.
enum Answer {
    /// Its first.
    First,
    /// Its second, asked for with the reason the first was unusable.
    Repaired,
    /// Neither was usable: the rules' safe actions.
    Fallback,
}

fn offered(actions: ActionList, answer: Answer, state: &CampaignState) -> TurnEvent {
    TurnEvent::ActionsOffered {
        actions: with_fight_moves(
            with_attitude_dcs(actions, &state.spine),
            &state.sheet,
            &state.combat,
        ),
        fallback: matches!(answer, Answer::Fallback),
        repaired: matches!(answer, Answer::Repaired),
    }
}

fn usage_event(usage: Option<TokenUsage>) -> Option<TurnEvent> {
    usage.map(|usage| TurnEvent::Usage {
        phase: Phase::Actions,
        usage,
    })
}
