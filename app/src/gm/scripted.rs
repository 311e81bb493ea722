//! A scripted model: deterministic replies from a scenario, for tests, end-to-end runs and demos.
//!
//! A scenario is a JSON file of steps, answered in order, one per call:
//!
//! ```json
//! { "steps": [
//!   { "text": "The goblin lunges at you.",
//!     "tool_calls": [ { "name": "roll_dice", "arguments": { "dice": "1d20+3", "reason": "Falling rocks" } } ] },
//!   { "text": "Its blade glances off your shield." },
//!   { "json": { "actions": [ { "id": "strike", "description": "Strike back", "diceRoll": "1d20",
//!               "diceReason": "Attack", "difficultyClass": 12, "attribute": "STR" } ] } },
//!   { "text": "{ not json" },
//!   { "error": "server" }
//! ] }
//! ```
//!
//! `arguments` may be an object or raw text (to script malformed calls); `json` is sent as its
//! text; `error` is one of `timeout`, `rate_limited`, `server`, `bad_request`, `connect`,
//! `invalid`. With `"cycle": true` the steps start over when used up; otherwise a call past the
//! end fails. With an `"actions"` list, requests for a JSON answer (phase 2) are answered from it
//! and the `steps` only narrate, so a demo stays in step however the player plays. Summary
//! requests are answered from `"summaries"` (cycling), never from the steps. Every request is
//! recorded for tests to inspect. `"latency_ms"` holds every reply
//! back that long, as a remote model's time to first token (benchmarks).

use std::sync::Mutex;

use futures::stream::{self, BoxStream, StreamExt};
use serde::Deserialize;
use serde_json::Value;

use super::llm::{
    FinishReason, LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo, Purpose, TokenUsage, ToolCall,
};

/// A scenario: the replies, in order.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Scenario {
    /// The replies.
    pub steps: Vec<Step>,
    /// Replies to requests for a JSON answer (phase 2), if kept apart from `steps`.
    #[serde(default)]
    pub actions: Vec<Step>,
    /// Replies to summary requests, used in turn and then again from the first; without them a
    /// summary request fails (and the game carries on without a new summary).
    #[serde(default)]
    pub summaries: Vec<Step>,
    /// Replies to the player's questions out of character, used in turn and then again from
    /// the first; without them a question fails.
    #[serde(default)]
    pub answers: Vec<Step>,
    /// Whether to start over after the last step.
    #[serde(default)]
    pub cycle: bool,
    /// The name shown to the player as the model's.
    #[serde(default)]
    pub model: Option<String>,
    /// Milliseconds before each reply's first piece, as a remote model's time to first token
    /// (for benchmarks of many games at once; 0 answers at once).
    #[serde(default)]
    pub latency_ms: u64,
    /// The server's dice come from a generator seeded with this (tests: nothing depends on
    /// luck); without it, from the operating system.
    #[serde(default)]
    pub dice_seed: Option<u64>,
}

/// One scripted reply.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Step {
    /// Text of the reply.
    #[serde(default)]
    pub text: Option<String>,
    /// A JSON value sent as the reply's text (for action lists).
    #[serde(default)]
    pub json: Option<Value>,
    /// Tool calls of the reply.
    #[serde(default)]
    pub tool_calls: Vec<ScriptedCall>,
    /// A failure instead of a reply.
    #[serde(default)]
    pub error: Option<ScriptedError>,
}

/// A scripted tool call.
#[derive(Clone, Debug, Deserialize)]
pub struct ScriptedCall {
    /// The tool's name.
    pub name: String,
    /// Its arguments: an object, or a string sent as it is.
    #[serde(default)]
    pub arguments: Value,
}

/// A scripted failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScriptedError {
    /// [`LlmError::Timeout`].
    Timeout,
    /// [`LlmError::RateLimited`].
    RateLimited,
    /// [`LlmError::Server`] (500).
    Server,
    /// [`LlmError::BadRequest`] (400).
    BadRequest,
    /// [`LlmError::Connect`].
    Connect,
    /// [`LlmError::InvalidResponse`].
    Invalid,
}

impl Step {
    /// A reply with text only.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: Some(text.into()),
            ..Self::default()
        }
    }

    /// A reply whose text is `json`.
    pub fn json(json: Value) -> Self {
        Self {
            json: Some(json),
            ..Self::default()
        }
    }

    /// A reply with one tool call (`arguments` an object, or a string sent as it is).
    pub fn call(name: &str, arguments: Value) -> Self {
        Self {
            tool_calls: vec![ScriptedCall {
                name: name.to_owned(),
                arguments,
            }],
            ..Self::default()
        }
    }

    /// A reply with several tool calls, in order.
    pub fn calls(calls: &[(&str, Value)]) -> Self {
        Self {
            tool_calls: calls
                .iter()
                .map(|(name, arguments)| ScriptedCall {
                    name: (*name).to_owned(),
                    arguments: arguments.clone(),
                })
                .collect(),
            ..Self::default()
        }
    }

    /// A failure.
    pub fn error(error: ScriptedError) -> Self {
        Self {
            error: Some(error),
            ..Self::default()
        }
    }

    /// The same reply with some text too.
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }
}

/// How many of the latest requests a scripted model keeps for [`ScriptedLlm::requests`].
pub const KEPT_REQUESTS: usize = 64;

/// The scripted model.
#[derive(Debug)]
pub struct ScriptedLlm {
    scenario: Scenario,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next: usize,
    next_actions: usize,
    next_summary: usize,
    next_answer: usize,
    calls: usize,
    requests: std::collections::VecDeque<LlmRequest>,
}

impl ScriptedLlm {
    /// A model answering with `scenario`.
    pub fn new(scenario: Scenario) -> Self {
        Self {
            scenario,
            state: Mutex::new(State::default()),
        }
    }

    /// A model answering with these steps, in order.
    pub fn from_steps(steps: Vec<Step>) -> Self {
        Self::new(Scenario {
            steps,
            ..Scenario::default()
        })
    }

    /// Reads a scenario file's JSON.
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(json).map(Self::new)
    }

    /// The seed the scenario sets for the server's dice, if any.
    pub fn dice_seed(&self) -> Option<u64> {
        self.scenario.dice_seed
    }

    /// The requests received so far, in order: all of them, up to the latest
    /// [`KEPT_REQUESTS`] (a demo server runs for days).
    pub fn requests(&self) -> Vec<LlmRequest> {
        self.lock().requests.iter().cloned().collect()
    }

    /// How many steps are left (`None` when cycling).
    pub fn remaining(&self) -> Option<usize> {
        (!self.scenario.cycle).then(|| self.scenario.steps.len().saturating_sub(self.lock().next))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn take_step(&self, request: LlmRequest) -> Result<(Step, usize), LlmError> {
        let mut state = self.lock();
        let wants_actions = request.response_format.is_some() && !self.scenario.actions.is_empty();
        let purpose = request.purpose;
        if state.requests.len() == KEPT_REQUESTS {
            state.requests.pop_front();
        }
        state.requests.push_back(request);
        state.calls += 1;
        let calls = state.calls;
        let apart = match purpose {
            Purpose::Summary => Some((
                &self.scenario.summaries,
                &mut state.next_summary,
                "summaries",
            )),
            Purpose::Question => Some((&self.scenario.answers, &mut state.next_answer, "answers")),
            Purpose::Narration | Purpose::Actions => None,
        };
        if let Some((replies, cursor, what)) = apart {
            if replies.is_empty() {
                return Err(LlmError::InvalidResponse(format!(
                    "the scripted scenario has no {what}"
                )));
            }
            let step = replies[*cursor % replies.len()].clone();
            *cursor += 1;
            return Ok((step, calls));
        }
        let (steps, cursor) = if wants_actions {
            (&self.scenario.actions, &mut state.next_actions)
        } else {
            (&self.scenario.steps, &mut state.next)
        };
        if steps.is_empty() || (*cursor >= steps.len() && !self.scenario.cycle) {
            return Err(LlmError::InvalidResponse(format!(
                "the scripted scenario has no step {}",
                *cursor + 1
            )));
        }
        let step = steps[*cursor % steps.len()].clone();
        *cursor += 1;
        Ok((step, calls))
    }
}

fn reply_chunks(step: Step, call_number: usize) -> Result<Vec<LlmChunk>, LlmError> {
    if let Some(error) = step.error {
        return Err(match error {
            ScriptedError::Timeout => LlmError::Timeout,
            ScriptedError::RateLimited => LlmError::RateLimited { retry_after: None },
            ScriptedError::Server => LlmError::Server {
                status: 500,
                message: "scripted failure".into(),
            },
            ScriptedError::BadRequest => LlmError::BadRequest {
                status: 400,
                message: "scripted failure".into(),
            },
            ScriptedError::Connect => LlmError::Connect("scripted failure".into()),
            ScriptedError::Invalid => LlmError::InvalidResponse("scripted failure".into()),
        });
    }
    let text = match (step.text, step.json) {
        (Some(text), _) => text,
        (None, Some(json)) => json.to_string(),
        (None, None) => String::new(),
    };
    let mut chunks: Vec<LlmChunk> = split_words(&text).map(LlmChunk::Text).collect();
    let has_calls = !step.tool_calls.is_empty();
    for (index, call) in step.tool_calls.into_iter().enumerate() {
        let arguments = match call.arguments {
            Value::String(raw) => raw,
            Value::Null => "{}".to_owned(),
            other => other.to_string(),
        };
        chunks.push(LlmChunk::ToolCall(ToolCall {
            id: format!("call_{call_number}_{}", index + 1),
            name: call.name,
            arguments,
        }));
    }
    let completion_tokens = u32::try_from(text.split_whitespace().count()).unwrap_or(u32::MAX);
    chunks.push(LlmChunk::Done {
        finish_reason: if has_calls {
            FinishReason::ToolCalls
        } else {
            FinishReason::Stop
        },
        usage: Some(TokenUsage {
            prompt_tokens: 0,
            completion_tokens,
            cached_tokens: 0,
        }),
    });
    Ok(chunks)
}

/// Splits text into word-sized pieces that concatenate back to it (each keeps its trailing
/// whitespace), as a provider streams tokens.
fn split_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_inclusive(char::is_whitespace).map(str::to_owned)
}

impl LlmPort for ScriptedLlm {
    fn model_info(&self) -> ModelInfo {
        ModelInfo {
            model: self
                .scenario
                .model
                .clone()
                .unwrap_or_else(|| "scripted".into()),
            endpoint: "scripted, no network".into(),
        }
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let chunks = self
            .take_step(request)
            .and_then(|(step, number)| reply_chunks(step, number));
        let reply = match chunks {
            Ok(chunks) => stream::iter(chunks.into_iter().map(Ok)).boxed(),
            Err(error) => stream::iter([Err(error)]).boxed(),
        };
        if self.scenario.latency_ms == 0 {
            return reply;
        }
        let wait = std::time::Duration::from_millis(self.scenario.latency_ms);
        stream::once(tokio::time::sleep(wait))
            .filter_map(|()| async { None })
            .chain(reply)
            .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gm::llm::collect;
    use serde_json::json;

    #[tokio::test]
    async fn steps_are_answered_in_order_and_requests_recorded() {
        let llm = ScriptedLlm::from_steps(vec![
            Step::call("roll_dice", json!({"dice": "1d20", "reason": "Goblin"})).with_text("Hm."),
            Step::text("Done."),
        ]);
        let first = llm.complete(LlmRequest::default()).await.unwrap();
        assert_eq!(first.text, "Hm.");
        assert_eq!(first.tool_calls[0].name, "roll_dice");
        assert_eq!(first.tool_calls[0].id, "call_1_1");
        assert_eq!(first.finish_reason, FinishReason::ToolCalls);
        let second = collect(llm.stream(LlmRequest::default())).await.unwrap();
        assert_eq!(second.text, "Done.");
        assert_eq!(llm.requests().len(), 2);
        assert!(llm.complete(LlmRequest::default()).await.is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_latency_holds_each_reply_back() {
        let llm = ScriptedLlm::new(Scenario {
            steps: vec![Step::text("Late.")],
            cycle: true,
            latency_ms: 1_000,
            ..Scenario::default()
        });
        let started = tokio::time::Instant::now();
        assert_eq!(
            llm.complete(LlmRequest::default()).await.unwrap().text,
            "Late."
        );
        assert_eq!(started.elapsed(), std::time::Duration::from_secs(1));
    }

    #[tokio::test]
    async fn only_the_latest_requests_are_kept() {
        let llm = ScriptedLlm::new(Scenario {
            steps: vec![Step::text("Again.")],
            cycle: true,
            ..Scenario::default()
        });
        for n in 0..KEPT_REQUESTS + 5 {
            let request = LlmRequest {
                max_tokens: Some(n as u32),
                ..LlmRequest::default()
            };
            llm.complete(request).await.unwrap();
        }
        let kept = llm.requests();
        assert_eq!(kept.len(), KEPT_REQUESTS);
        assert_eq!(kept[0].max_tokens, Some(5), "the oldest went first");
    }

    #[tokio::test]
    async fn text_streams_in_pieces_that_add_up() {
        let llm = ScriptedLlm::from_steps(vec![Step::text("The door  creaks\nopen.")]);
        let chunks: Vec<_> = llm.stream(LlmRequest::default()).collect().await;
        let texts: Vec<String> = chunks
            .into_iter()
            .filter_map(|chunk| match chunk.unwrap() {
                LlmChunk::Text(text) => Some(text),
                _ => None,
            })
            .collect();
        assert!(texts.len() > 2);
        assert_eq!(texts.concat(), "The door  creaks\nopen.");
    }

    #[tokio::test]
    async fn a_scenario_file_parses_with_errors_raw_arguments_and_cycling() {
        let llm = ScriptedLlm::from_json(
            r#"{"cycle": true, "steps": [
                {"error": "rate_limited"},
                {"tool_calls": [{"name": "roll_dice", "arguments": "{oops"}]}
            ]}"#,
        )
        .unwrap();
        let error = llm.complete(LlmRequest::default()).await.unwrap_err();
        assert_eq!(error, LlmError::RateLimited { retry_after: None });
        let reply = llm.complete(LlmRequest::default()).await.unwrap();
        assert_eq!(reply.tool_calls[0].arguments, "{oops");
        assert!(
            llm.complete(LlmRequest::default()).await.is_err(),
            "cycled to the error"
        );
        assert_eq!(llm.remaining(), None);
    }

    #[tokio::test]
    async fn json_requests_are_answered_from_the_actions_list() {
        let llm = ScriptedLlm::from_json(
            r#"{"cycle": true, "steps": [{"text": "Scene."}], "actions": [{"json": {"actions": []}}]}"#,
        )
        .unwrap();
        let wants_json = LlmRequest {
            response_format: Some(crate::gm::JsonSchemaFormat {
                name: "actions".into(),
                schema: serde_json::json!({}),
                strict: true,
            }),
            ..LlmRequest::default()
        };
        assert_eq!(
            llm.complete(wants_json.clone()).await.unwrap().text,
            r#"{"actions":[]}"#
        );
        assert_eq!(
            llm.complete(LlmRequest::default()).await.unwrap().text,
            "Scene."
        );
        assert_eq!(
            llm.complete(LlmRequest::default()).await.unwrap().text,
            "Scene."
        );
        assert_eq!(
            llm.complete(wants_json).await.unwrap().text,
            r#"{"actions":[]}"#
        );
    }
}
