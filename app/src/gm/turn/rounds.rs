//! A narration's model calls: each round streamed with the layered prompt, its tool calls run
//! through the rules, and the scene checked against the rules' ledger and the table's lines
//! (told again once when it contradicts them or crosses one).

use std::sync::Arc;

use super::log::EventLog;
use super::stream::{reported, stream_reply, Reply};
use super::turn_dice::TurnDice;
use super::TurnError;
use crate::campaign::bounds;
use crate::campaign::conversation::SentRequest;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::{Phase, ToolEffect, TurnEvent};
use crate::gm::llm::{LlmPort, Message, Purpose, ToolCall, ToolChoice, ToolDefinition};
use crate::gm::prompt::layers;
use crate::gm::prompt::messages::correction_message;
use crate::gm::prose::ledger_check::LedgerCheck;
use crate::gm::prose::{lines, scene, voice};
use crate::gm::settings::GmSettings;
use crate::gm::tools::{self, whose, ToolCommand, ToolRejection, ToolTable};

/// A narration's model calls: the layered prompt they share, the prose kept so far and the last
/// request sent.
pub(super) struct Rounds<'l> {
    layered: &'l layers::Layered,
    tools: Arc<[ToolDefinition]>,
    /// The last request sent.
    pub(super) previous: Option<SentRequest>,
    /// Prose kept, in order.
    kept: Vec<String>,
    /// The prose of the last reply without tool calls (the rest is in the turn's messages).
    pub(super) last: String,
}

impl<'l> Rounds<'l> {
    /// The calls of a narration with the prompt `layered` and the `tools` shown, after the
    /// campaign's `previous` request.
    pub(super) fn new(
        layered: &'l layers::Layered,
        tools: Arc<[ToolDefinition]>,
        previous: Option<SentRequest>,
    ) -> Self {
        Self {
            layered,
            tools,
            previous,
            kept: Vec::new(),
            last: String::new(),
        }
    }

    /// One model call with this turn's messages so far.
    pub(super) async fn call(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        callable: bool,
        log: &mut EventLog<'_>,
    ) -> Result<Reply, TurnError> {
        let mut request = self.layered.request(turn, Arc::clone(&self.tools));
        if !callable {
            request.tool_choice = ToolChoice::None;
        }
        request.temperature = Some(0.8);
        request.max_tokens = Some(settings.narrative_max_tokens);
        let mut sent = layers::record(
            Purpose::Narration.label(),
            &request,
            self.layered,
            self.previous.as_ref(),
        );
        let reply = stream_reply(llm, request, log).await?;
        sent.reported_tokens = reported(reply.usage);
        self.previous = Some(sent);
        log.push(TurnEvent::Usage {
            phase: Phase::Narrate,
            usage: reply.usage,
        });
        if reply.tool_calls.is_empty() || !callable {
            let text = reply.prose();
            if !text.is_empty() {
                self.kept.push(text.clone());
                self.last = text;
            }
        }
        Ok(reply)
    }

    /// The scene the rounds wrote, within its bound (a very small model's put in the player's
    /// voice, which it then sees too); an error when there is none.
    pub(super) fn scene(
        &mut self,
        settings: &GmSettings,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> Result<String, TurnError> {
        let mut text = self.kept.join("\n\n");
        bounds::cut(&mut text, bounds::MAX_NARRATION_CHARS);
        if !settings.full_prompt {
            if let Some(kept) = voice::in_second_person(&text, scene::last_scene(state)) {
                text = kept;
                self.last = text.clone();
                log.push(TurnEvent::NarrativeReplaced { text: text.clone() });
            }
        }
        if text.is_empty() {
            return Err(TurnError::EmptyNarrative);
        }
        Ok(text)
    }

    /// `text` checked against the turn's events so far; a model with tools that contradicts them
    /// is asked once to correct it. The scene to keep, and the check's record.
    pub(super) async fn checked(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        mut text: String,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> (String, TurnEvent) {
        let mut check = LedgerCheck::new(&text, &log.events, &state.sheet);
        let mut asked = Vec::new();
        if !check.is_consistent() && settings.full_prompt {
            asked = bounded_notes(check.notes());
            let ask = correction_message(&asked);
            if let Some(fixed) = self.retold(llm, settings, turn, &text, ask, log).await {
                text = fixed;
                check = LedgerCheck::new(&text, &log.events, &state.sheet);
            }
        }
        let checked = TurnEvent::LedgerChecked {
            notes: bounded_notes(check.notes()),
            claims: u32::try_from(check.claims().len()).unwrap_or(u32::MAX),
            asked,
        };
        (text, checked)
    }

    /// `text` within the table's lines: a scene that crosses one is told again once, and what
    /// still crosses is cut (the model's history keeps what the player reads).
    pub(super) async fn within_lines(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        text: String,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> String {
        let crossed = state.agreement.crossed(&text);
        if crossed.is_empty() {
            return text;
        }
        let ask = lines::retell_message(&crossed);
        let retold = self
            .retold(llm, settings, turn, &text, ask, log)
            .await
            .unwrap_or(text);
        let kept = lines::within_lines(&state.agreement, &retold)
            .unwrap_or_else(|| lines::LEFT_OUT.to_owned());
        if kept != retold {
            log.push(TurnEvent::NarrativeReplaced { text: kept.clone() });
        }
        self.last.clone_from(&kept);
        kept
    }

    /// Asks the model once, without tools, to write `text` again as `ask` says: the new scene,
    /// or `None` (the first kept) when the call fails or says nothing.
    async fn retold(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        text: &str,
        ask: Message,
        log: &mut EventLog<'_>,
    ) -> Option<String> {
        let mut asked = turn.to_vec();
        asked.push(Message::assistant(text.to_owned()));
        asked.push(ask);
        let (kept, last) = (
            std::mem::take(&mut self.kept),
            std::mem::take(&mut self.last),
        );
        let answered = self.call(llm, settings, &asked, false, log).await.is_ok();
        let mut fixed = self.kept.join("\n\n");
        bounds::cut(&mut fixed, bounds::MAX_NARRATION_CHARS);
        if answered && !fixed.trim().is_empty() {
            log.push(TurnEvent::NarrativeReplaced {
                text: fixed.clone(),
            });
            return Some(fixed);
        }
        (self.kept, self.last) = (kept, last);
        log.push(TurnEvent::NarrativeReplaced {
            text: text.to_owned(),
        });
        None
    }

    /// A reply's tool calls run through the rules; prose that would pre-empt their outcome is
    /// dropped.
    pub(super) fn tool_round(
        &mut self,
        reply: Reply,
        settings: &GmSettings,
        table: &mut Table,
        dice: &mut TurnDice<'_>,
        turn: &mut Vec<Message>,
        log: &mut EventLog<'_>,
    ) {
        let text = reply.prose();
        let commands: Vec<_> = reply.tool_calls.iter().map(tools::parse_call).collect();
        let preempts = commands
            .iter()
            .any(|command| command.as_ref().is_ok_and(ToolCommand::decides_an_outcome));
        let content = (!preempts && !text.is_empty()).then(|| text.clone());
        if preempts && !text.is_empty() {
            log.push(TurnEvent::NarrativeReplaced {
                text: self.kept.join("\n\n"),
            });
        }
        if let Some(text) = &content {
            self.kept.push(text.clone());
        }
        turn.push(Message::Assistant {
            content: content.map(Into::into),
            tool_calls: reply.tool_calls.clone(),
        });
        let calls = reply.tool_calls.into_iter().zip(commands);
        let max_calls = settings.max_calls_per_round;
        run_calls(calls, max_calls, table, dice, turn, log);
    }
}

/// The ledger check's notes within the log's bounds.
fn bounded_notes(mut notes: Vec<String>) -> Vec<String> {
    let (most, longest) = bounds::MAX_LEDGER_NOTES;
    notes.truncate(most);
    notes.iter_mut().for_each(|note| {
        bounds::cut(note, longest);
    });
    notes
}

/// Runs one reply's parsed calls in order, refusing those past `max_calls`; each call and its
/// result go to the log and to the turn's messages.
fn run_calls(
    calls: impl IntoIterator<Item = (ToolCall, Result<ToolCommand, ToolRejection>)>,
    max_calls: usize,
    table: &mut Table,
    dice: &mut TurnDice<'_>,
    turn: &mut Vec<Message>,
    log: &mut EventLog<'_>,
) {
    for (index, (call, command)) in calls.into_iter().enumerate() {
        log.push(TurnEvent::ToolCalled { call: call.clone() });
        if let (Ok(ToolCommand::Table(table)), true) = (&command, index < max_calls) {
            log.push(TurnEvent::TableShown {
                table: table.clone(),
            });
        }
        let (result, effect) = if index >= max_calls {
            (
                format!("refused: at most {max_calls} tool calls per reply"),
                None,
            )
        } else {
            run_tool(&call, command, table, dice)
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

/// Runs a parsed call with the turn's dice for its kind: its result text for the model, and
/// its effect if it ran.
fn run_tool(
    call: &ToolCall,
    command: Result<ToolCommand, ToolRejection>,
    table: &mut Table,
    dice: &mut TurnDice<'_>,
) -> (String, Option<ToolEffect>) {
    let named = whose::named_in(call);
    let host = table.tools.sheet.name().as_str().to_owned();
    let outcome = command
        .map_err(|rejection| rejection.reason)
        .and_then(|command| {
            let whose = whose::whose(named.as_deref(), &host, &table.tools.party)
                .map_err(|nobody| nobody.to_string())?;
            let rng = &mut dice.for_roll(&command.dice_kind());
            whose::execute_for(whose, command, &mut table.tools, rng)
                .map_err(|error| error.to_string())
        });
    match outcome {
        Ok(outcome) => (outcome.result, Some(outcome.effect)),
        Err(reason) => (format!("refused: {reason}"), None),
    }
}

/// What the tools act on.
pub(super) struct Table {
    pub(super) tools: ToolTable,
}

impl Table {
    /// The table `state` sets for a turn.
    pub(super) fn for_turn(state: &CampaignState) -> Self {
        Self {
            tools: ToolTable {
                sheet: state.sheet.clone(),
                journal: state.journal.clone(),
                map: state.map.clone(),
                combat: state.combat.clone(),
                approval: state.approval,
                proposals_made: state.proposals_made,
                unspent_rolls: Vec::new(),
                spine: state.spine.clone(),
                turn: state.turn.saturating_add(1),
                party: state.party.clone(),
            },
        }
    }
}
