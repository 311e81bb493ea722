//! The two-phase turn (DESIGN.md §2): narrate with tools, then propose actions.
//!
//! [`narrate`] resolves the player's roll, streams the scene, runs the model's tool calls through
//! the rules and returns everything that happened; [`offer_actions`] asks for the next actions
//! as strict JSON, repairs once, and falls back to safe actions. Neither touches storage: the
//! caller commits each phase's events when the phase has completed.

use futures::StreamExt;
use rand::Rng;

use super::llm::{FinishReason, LlmChunk, LlmError, LlmPort, Message, TokenUsage, ToolCall};
use super::prompt::{
    actions_request, move_message, narration_request, recent_history, repair_message,
};
use super::tools::{self, ToolCommand, ToolRejection};
use crate::campaign::turn_event::{Phase, ToolEffect, TurnEvent};
use crate::game::action::{ActionDraft, ActionListDraft};
use crate::game::{Action, ActionList, CharacterSheet};

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
    /// The most characters of earlier turns sent with a request: older turns are left out
    /// (the latest one is always sent), so a long campaign fits the model's context.
    pub history_max_chars: usize,
    /// Whether the action list's schema carries length and range bounds (for a local server
    /// that samples by the schema's grammar; OpenAI's strict mode refuses them).
    pub bounded_schema: bool,
}

impl GmSettings {
    /// Limits for a model server found running on this computer (Ollama, llama.cpp), whose
    /// context may be as small as 4k tokens: the defaults with a short history.
    pub fn local_server() -> Self {
        Self {
            history_max_chars: 8_000,
            ..Self::default()
        }
    }

    /// Limits for a very small local model (an 8k-token context, slow on one thread): short
    /// replies, few tool rounds, a short history.
    pub fn small_model() -> Self {
        Self {
            max_tool_rounds: 2,
            max_calls_per_round: 3,
            narrative_max_tokens: 240,
            actions_max_tokens: 600,
            history_max_chars: 5_000,
            bounded_schema: true,
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
            history_max_chars: 60_000,
            bounded_schema: false,
        }
    }
}

/// The most characters a typed move may have.
pub const MAX_MOVE_CHARS: usize = 2000;

/// What the player typed, trimmed: 1 to [`MAX_MOVE_CHARS`] characters, no control characters
/// other than line breaks and tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText(String);

/// Why typed text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing but whitespace.
    #[error("write what you do first")]
    Empty,
    /// Longer than [`MAX_MOVE_CHARS`].
    #[error("that is {0} characters; a move may have at most {MAX_MOVE_CHARS}")]
    TooLong(usize),
    /// A control character.
    #[error("the text contains a control character")]
    ControlCharacter,
}

impl MoveText {
    /// Parses what the player typed.
    pub fn parse(raw: &str) -> Result<Self, MoveTextError> {
        let text = raw.trim();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(MoveTextError::Empty);
        }
        if chars > MAX_MOVE_CHARS {
            return Err(MoveTextError::TooLong(chars));
        }
        if text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            return Err(MoveTextError::ControlCharacter);
        }
        Ok(Self(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The player's move: an offered action (as the server stored it) or their own words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerMove {
    /// They clicked an action button.
    Action(Action),
    /// They typed what they do.
    Text(MoveText),
    /// The campaign begins from this premise (the opening scene; not shown as a move).
    Opening(MoveText),
}

/// What the narrator is asked for the opening scene.
fn opening_move(premise: &str) -> String {
    format!(
        "Begin the adventure with this premise: {premise}\nSet the opening scene and give the \
         character's location with update_character if it matters."
    )
}

/// Why a phase failed. A failed phase changes nothing and can be tried again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The model could not be reached or failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The model wrote no story at all.
    #[error("the game master wrote nothing; try again")]
    EmptyNarrative,
}

impl TurnError {
    /// Whether trying the phase again may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Llm(error) => error.is_retryable(),
            Self::EmptyNarrative => true,
        }
    }
}

/// A completed narration phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    /// What happened, in order (transient stream events left out).
    pub events: Vec<TurnEvent>,
    /// The messages this turn adds to the model's history.
    pub messages: Vec<Message>,
    /// The character sheet after the turn's tool calls.
    pub sheet: CharacterSheet,
    /// The scene's narrative.
    pub text: String,
}

/// Phase 1: narrates the outcome of `player_move`. `on_event` sees every event as it happens,
/// streamed text included.
pub async fn narrate<R: Rng + Send>(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    sheet: &CharacterSheet,
    history: &[Message],
    player_move: &PlayerMove,
    rng: &mut R,
    on_event: &mut (dyn FnMut(&TurnEvent) + Send),
) -> Result<Narration, TurnError> {
    let mut log = EventLog {
        events: Vec::new(),
        on_event,
    };
    let mut sheet = sheet.clone();
    let (move_text, roll_line) = record_move(player_move, &sheet, rng, &mut log);

    let recent = recent_history(history, settings.history_max_chars);
    let mut turn = vec![move_message(&move_text, roll_line.as_deref())];
    let mut kept: Vec<String> = Vec::new();
    for round in 0..=settings.max_tool_rounds {
        let tools = if round < settings.max_tool_rounds {
            tools::definitions()
        } else {
            Vec::new()
        };
        let offered_tools = !tools.is_empty();
        let request =
            narration_request(&sheet, recent, &turn, tools, settings.narrative_max_tokens);
        let reply = stream_reply(llm, request, &mut log).await?;
        log.push(TurnEvent::Usage {
            phase: Phase::Narrate,
            usage: reply.usage,
        });
        let text = reply.prose();

        if reply.tool_calls.is_empty() || !offered_tools {
            if !text.is_empty() {
                kept.push(text);
            }
            break;
        }

        let commands: Vec<_> = reply.tool_calls.iter().map(tools::parse_call).collect();
        let preempts = commands
            .iter()
            .any(|command| command.as_ref().is_ok_and(ToolCommand::decides_an_outcome));
        let content = if preempts || text.is_empty() {
            None
        } else {
            Some(text.clone())
        };
        if preempts && !text.is_empty() {
            log.push(TurnEvent::NarrativeReplaced {
                text: kept.join("\n\n"),
            });
        }
        if let Some(text) = &content {
            kept.push(text.clone());
        }
        turn.push(Message::Assistant {
            content,
            tool_calls: reply.tool_calls.clone(),
        });
        let calls = reply.tool_calls.into_iter().zip(commands);
        let max_calls = settings.max_calls_per_round;
        run_calls(calls, max_calls, &mut sheet, rng, &mut turn, &mut log);
    }

    let text = kept.join("\n\n");
    if text.is_empty() {
        return Err(TurnError::EmptyNarrative);
    }
    turn.push(Message::assistant(text.clone()));
    log.push(TurnEvent::narration(text.clone()));
    Ok(Narration {
        events: log.events,
        messages: turn,
        sheet,
        text,
    })
}

/// Logs the player's move (not an opening) and resolves the roll of a chosen action: the move as
/// the narrator reads it, and the roll's line if there was one.
fn record_move<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    sheet: &CharacterSheet,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> (String, Option<String>) {
    let (move_text, action_id) = match player_move {
        PlayerMove::Action(action) => (
            action.description().as_str().to_owned(),
            Some(action.id().to_string()),
        ),
        PlayerMove::Text(text) => (text.as_str().to_owned(), None),
        PlayerMove::Opening(premise) => (opening_move(premise.as_str()), None),
    };
    if !matches!(player_move, PlayerMove::Opening(_)) {
        log.push(TurnEvent::Move {
            text: move_text.clone(),
            action_id,
        });
    }
    let roll_line = match player_move {
        PlayerMove::Action(action) => action.resolve(sheet.attributes(), rng).map(|resolution| {
            let reason = action.roll_reason().to_owned();
            let description = resolution.describe(&reason);
            log.push(TurnEvent::PlayerRoll {
                reason,
                resolution,
                description: description.clone(),
            });
            description
        }),
        PlayerMove::Text(_) | PlayerMove::Opening(_) => None,
    };
    (move_text, roll_line)
}

/// Phase 2: the player's next actions for the scene now at the end of `history`, with the
/// events to store (usage, the actions offered). Falls back to safe actions when the model's
/// answer is unusable twice; fails only when the model cannot be reached on the first call.
pub async fn offer_actions(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    sheet: &CharacterSheet,
    history: &[Message],
) -> Result<Vec<TurnEvent>, TurnError> {
    let mut events = Vec::new();
    let recent = recent_history(history, settings.history_max_chars);
    let mut request = actions_request(
        sheet,
        recent,
        settings.actions_max_tokens,
        settings.bounded_schema,
    );
    let first = llm.complete(request.clone()).await?;
    events.extend(usage_event(first.usage));
    let error = match ActionList::parse_json(&first.text) {
        Ok(valid) => {
            events.push(offered(valid.actions, false));
            return Ok(events);
        }
        Err(error) => error,
    };
    tracing::warn!(%error, "the action list was invalid; asking for a repair");
    request.messages.push(Message::assistant(first.text));
    request.messages.push(repair_message(&error.to_string()));
    let repaired = match llm.complete(request).await {
        Ok(reply) => {
            events.extend(usage_event(reply.usage));
            ActionList::parse_json(&reply.text).map_err(|error| error.to_string())
        }
        Err(error) => Err(error.to_string()),
    };
    match repaired {
        Ok(valid) => events.push(offered(valid.actions, false)),
        Err(error) => {
            tracing::warn!(%error, "the repaired action list failed too; offering fallback actions");
            events.push(offered(fallback_actions(), true));
        }
    }
    Ok(events)
}

/// The actions offered when the model cannot produce valid ones.
pub fn fallback_actions() -> ActionList {
    let draft = |id: &str, description: &str| ActionDraft {
        id: id.to_owned(),
        description: description.to_owned(),
        ..ActionDraft::default()
    };
    ActionListDraft {
        actions: vec![
            draft("look-around", "Look around carefully"),
            draft("continue-carefully", "Continue carefully"),
            draft("check-your-gear", "Check your gear"),
        ],
    }
    .validate()
    .map(|valid| valid.actions)
    .expect("the fallback actions are valid (tested)")
}

fn offered(actions: ActionList, fallback: bool) -> TurnEvent {
    TurnEvent::ActionsOffered { actions, fallback }
}

fn usage_event(usage: Option<TokenUsage>) -> Option<TurnEvent> {
    usage.map(|usage| TurnEvent::Usage {
        phase: Phase::Actions,
        usage,
    })
}

/// Runs one reply's parsed calls in order, refusing those past `max_calls`; each call and its
/// result go to the log and to the turn's messages.
fn run_calls<R: Rng + ?Sized>(
    calls: impl IntoIterator<Item = (ToolCall, Result<ToolCommand, ToolRejection>)>,
    max_calls: usize,
    sheet: &mut CharacterSheet,
    rng: &mut R,
    turn: &mut Vec<Message>,
    log: &mut EventLog<'_>,
) {
    for (index, (call, command)) in calls.into_iter().enumerate() {
        log.push(TurnEvent::ToolCalled { call: call.clone() });
        let (result, effect) = if index >= max_calls {
            (
                format!("refused: at most {max_calls} tool calls per reply"),
                None,
            )
        } else {
            run_tool(command, sheet, rng)
        };
        turn.push(Message::tool(call.id.clone(), result.clone()));
        log.push(TurnEvent::ToolResult {
            call_id: call.id,
            tool: call.name,
            result,
            effect,
        });
    }
}

/// Runs a parsed call: its result text for the model, and its effect if it ran.
fn run_tool<R: Rng + ?Sized>(
    command: Result<ToolCommand, ToolRejection>,
    sheet: &mut CharacterSheet,
    rng: &mut R,
) -> (String, Option<ToolEffect>) {
    let outcome = command
        .map_err(|rejection| rejection.reason)
        .and_then(|command| tools::execute(command, sheet, rng));
    match outcome {
        Ok(outcome) => (outcome.result, Some(outcome.effect)),
        Err(reason) => (format!("refused: {reason}"), None),
    }
}

/// `text` up to its last complete sentence (a scene the token limit cut off mid-sentence); all
/// of it when no sentence ends.
fn up_to_last_sentence(text: &str) -> &str {
    let closers = ['"', '\'', '”', '’', ')', '*', '_'];
    let mut end = None;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?' | '…') {
            let mut after = index + c.len_utf8();
            while let Some(&(next_index, next)) = chars.peek() {
                if !closers.contains(&next) {
                    break;
                }
                after = next_index + next.len_utf8();
                chars.next();
            }
            if chars.peek().is_none_or(|&(_, next)| next.is_whitespace()) {
                end = Some(after);
            }
        }
    }
    end.map_or(text, |end| &text[..end])
}

/// A streamed reply, collected.
struct Reply {
    text: String,
    tool_calls: Vec<ToolCall>,
    usage: TokenUsage,
    /// Whether the token limit cut it off.
    cut_off: bool,
}

impl Reply {
    /// The reply's prose, trimmed; up to its last full sentence if the token limit cut it off.
    fn prose(&self) -> String {
        let text = self.text.trim();
        if self.cut_off {
            up_to_last_sentence(text).to_owned()
        } else {
            text.to_owned()
        }
    }
}

async fn stream_reply(
    llm: &dyn LlmPort,
    request: super::llm::LlmRequest,
    log: &mut EventLog<'_>,
) -> Result<Reply, LlmError> {
    let mut stream = llm.stream(request);
    let mut reply = Reply {
        text: String::new(),
        tool_calls: Vec::new(),
        usage: TokenUsage::default(),
        cut_off: false,
    };
    while let Some(chunk) = stream.next().await {
        match chunk? {
            LlmChunk::Text(delta) => {
                reply.text.push_str(&delta);
                log.push(TurnEvent::NarrativeDelta { text: delta });
            }
            LlmChunk::ToolCall(call) => reply.tool_calls.push(call),
            LlmChunk::Done {
                usage,
                finish_reason,
            } => {
                reply.usage = usage.unwrap_or_default();
                reply.cut_off = finish_reason == FinishReason::Length;
                return Ok(reply);
            }
        }
    }
    Err(LlmError::InvalidResponse(
        "the reply ended without a finish reason".into(),
    ))
}

/// Events kept in order and passed on as they happen.
struct EventLog<'a> {
    events: Vec<TurnEvent>,
    on_event: &'a mut (dyn FnMut(&TurnEvent) + Send),
}

impl EventLog<'_> {
    fn push(&mut self, event: TurnEvent) {
        (self.on_event)(&event);
        if !event.is_transient() {
            self.events.push(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{opening_move, tools, up_to_last_sentence};

    #[test]
    fn the_opening_request_names_a_registered_tool() {
        let text = opening_move("A storm");
        let named: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|word| word.contains('_'))
            .collect();
        assert_eq!(named, ["update_character"]);
        assert!(tools::find(named[0]).is_some());
    }

    #[test]
    fn a_cut_off_scene_ends_at_its_last_full_sentence() {
        assert_eq!(
            up_to_last_sentence("The door creaks. A cold wind blows through the"),
            "The door creaks."
        );
        assert_eq!(
            up_to_last_sentence("\"Halt!\" the guard cries. You ste"),
            "\"Halt!\" the guard cries."
        );
        assert_eq!(
            up_to_last_sentence("It costs 2.5 gold… *Really?* he as"),
            "It costs 2.5 gold… *Really?*"
        );
        assert_eq!(
            up_to_last_sentence("No sentence ends here"),
            "No sentence ends here"
        );
        assert_eq!(up_to_last_sentence("Done. "), "Done.");
    }
}
