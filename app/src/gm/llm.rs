//! `LlmPort`: the one door to a language model, and the types that cross it.
//!
//! The GM engine speaks only these types; adapters in `server/` translate them to a provider's
//! wire format (OpenAI-compatible via async-openai, scripted replies for tests and demos).

use std::{fmt, sync::Arc, time::Duration};

use futures::{future::BoxFuture, stream::BoxStream, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::campaign::conversation::{Message, TokenUsage, ToolCall};

/// A tool the model may call: its name, what it is for, and the JSON schema of its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The name the model calls it by.
    pub name: String,
    /// When and why to call it.
    pub description: String,
    /// JSON schema (an object) of the arguments.
    pub parameters: Value,
}

/// A JSON schema the reply must follow (OpenAI `response_format: json_schema`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonSchemaFormat {
    /// The schema's name (`[a-zA-Z0-9_-]`).
    pub name: String,
    /// The schema (a top-level object).
    pub schema: Value,
    /// Whether the provider must follow it exactly (OpenAI strict mode).
    pub strict: bool,
}

/// What a request asks the model for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// A scene (phase 1).
    #[default]
    Narration,
    /// The player's next actions (phase 2).
    Actions,
    /// A new summary of older turns (between turns).
    Summary,
    /// The player's question out of character (changes nothing).
    Question,
}

impl Purpose {
    /// Its name, as the context inspector shows it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Narration => "narration",
            Self::Actions => "actions",
            Self::Summary => "summary",
            Self::Question => "question",
        }
    }
}

/// Whether the model may call the tools it is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    /// It may.
    #[default]
    Auto,
    /// It may not: the tools are listed only so the prompt's front stays the same (an adapter
    /// that sends tools natively leaves them out).
    None,
}

/// One call to the model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmRequest {
    /// What it asks for.
    pub purpose: Purpose,
    /// The conversation so far, oldest first.
    pub messages: Vec<Message>,
    /// The tools the model is shown (none: plain text), shared by every call that shows them.
    pub tools: Arc<[ToolDefinition]>,
    /// Whether it may call them.
    pub tool_choice: ToolChoice,
    /// How many bytes at the start of the first (system) message stay the same for the whole
    /// campaign; an adapter that adds to the prompt inserts there, after the cached front.
    /// `None`: append at the end.
    pub stable_prefix: Option<usize>,
    /// A JSON schema the reply must follow.
    pub response_format: Option<JsonSchemaFormat>,
    /// Sampling temperature.
    pub temperature: Option<f32>,
    /// The most tokens the reply may have.
    pub max_tokens: Option<u32>,
}

/// Why the model stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// A natural end.
    Stop,
    /// The token limit cut it off.
    Length,
    /// It wants its tool calls answered.
    ToolCalls,
    /// The provider's content filter stopped it.
    ContentFilter,
    /// Anything else the provider said.
    Other(String),
}

/// The model's whole reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmResponse {
    /// The text (empty if it only called tools).
    pub text: String,
    /// The tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Why it stopped.
    pub finish_reason: FinishReason,
    /// Tokens spent, if the provider said.
    pub usage: Option<TokenUsage>,
}

/// One piece of a streamed reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LlmChunk {
    /// More text.
    Text(String),
    /// A complete tool call (assembled from the provider's deltas).
    ToolCall(ToolCall),
    /// The call failed and is being tried again (nothing of it was passed on): attempt number
    /// `attempt` of at most `attempts` follows after `wait_ms`.
    Retrying {
        /// The attempt about to be made (2 for the first retry).
        attempt: u32,
        /// The most attempts.
        attempts: u32,
        /// The pause before it, in milliseconds.
        wait_ms: u64,
    },
    /// The end of the reply.
    Done {
        /// Why it stopped.
        finish_reason: FinishReason,
        /// Tokens spent, if the provider said.
        usage: Option<TokenUsage>,
    },
}

/// Why a call to the model failed. Messages never contain the API key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// No answer (or no progress while streaming) within the time allowed.
    #[error("the model did not answer in time")]
    Timeout,
    /// The provider asked us to slow down.
    #[error("the model's provider is rate limiting us{}", retry_hint(*.retry_after))]
    RateLimited {
        /// How long the provider asked us to wait.
        retry_after: Option<Duration>,
    },
    /// The provider failed (HTTP 5xx).
    #[error("the model's provider failed (HTTP {status}): {message}")]
    Server {
        /// The HTTP status.
        status: u16,
        /// What it said.
        message: String,
    },
    /// The provider refused the request as malformed (HTTP 4xx other than 429).
    #[error("the model's provider refused the request (HTTP {status}): {message}")]
    BadRequest {
        /// The HTTP status.
        status: u16,
        /// What it said.
        message: String,
    },
    /// The provider could not be reached.
    #[error("cannot reach the model's provider: {0}")]
    Connect(String),
    /// The provider answered something we cannot read.
    #[error("the model's provider sent an unreadable answer: {0}")]
    InvalidResponse(String),
    /// A streamed reply ended before the provider said it had finished.
    #[error("the model's reply was cut off before its end")]
    Cut,
}

fn retry_hint(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|after| format!(" (retry after {} s)", after.as_secs()))
        .unwrap_or_default()
}

impl LlmError {
    /// Whether trying the same request again may succeed (rate limits, 5xx, connection failures,
    /// timeouts, a reply cut off); a bad request or an unreadable answer would fail the same way
    /// again.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::Timeout
                | Self::RateLimited { .. }
                | Self::Server { .. }
                | Self::Connect(_)
                | Self::Cut
        )
    }
}

/// Which model answers, for the logs and for the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The model's name, e.g. `gpt-4o-mini`.
    pub model: String,
    /// Where it runs, e.g. `http://127.0.0.1:11434/v1` or `scripted`.
    pub endpoint: String,
}

impl fmt::Display for ModelInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.model, self.endpoint)
    }
}

/// The one door to a language model.
pub trait LlmPort: Send + Sync {
    /// Which model this is.
    fn model_info(&self) -> ModelInfo;

    /// The reply as a stream: text as it is written, tool calls once assembled, then `Done`.
    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>>;

    /// The whole reply at once. By default, the stream collected.
    fn complete(&self, request: LlmRequest) -> BoxFuture<'_, Result<LlmResponse, LlmError>> {
        Box::pin(collect(self.stream(request)))
    }
}

/// Collects a streamed reply into one [`LlmResponse`].
pub async fn collect(
    mut stream: BoxStream<'_, Result<LlmChunk, LlmError>>,
) -> Result<LlmResponse, LlmError> {
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    while let Some(chunk) = stream.next().await {
        match chunk? {
            LlmChunk::Text(delta) => text.push_str(&delta),
            LlmChunk::ToolCall(call) => tool_calls.push(call),
            LlmChunk::Retrying { .. } => {}
            LlmChunk::Done {
                finish_reason,
                usage,
            } => {
                return Ok(LlmResponse {
                    text,
                    tool_calls,
                    finish_reason,
                    usage,
                })
            }
        }
    }
    Err(LlmError::InvalidResponse(
        "the reply ended without a finish reason".into(),
    ))
}
