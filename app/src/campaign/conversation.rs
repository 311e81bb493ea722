//! The conversation with the model as the campaign keeps it: messages, tool calls and token
//! counts. The game master sends these through its port; the campaign stores them as the model's
//! working context. Plain data, no wire format.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A tool call the model made: the provider's id, the tool's name and its raw JSON arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of this call, echoed in the tool message that answers it.
    pub id: String,
    /// The tool's name, e.g. `roll_dice`.
    pub name: String,
    /// The arguments as the model wrote them (JSON text, possibly malformed).
    pub arguments: String,
}

/// One message of a conversation with the model. Its texts are shared (`Arc<str>`): the same
/// messages are in the state's window, in every request a turn sends and in the request kept,
/// and a copy of one is a count, not the text again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Instructions from the game (rules, the character sheet).
    System {
        /// The text.
        content: Arc<str>,
    },
    /// The player's move (and the result of the player's roll).
    User {
        /// The text.
        content: Arc<str>,
    },
    /// The model's reply: text, tool calls, or both.
    Assistant {
        /// The text, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Arc<str>>,
        /// The tool calls, if any.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call.
    Tool {
        /// The id of the call this answers.
        tool_call_id: String,
        /// The result (or the reason the call was rejected), for the model to read.
        content: Arc<str>,
    },
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<Arc<str>>) -> Self {
        Self::System {
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<Arc<str>>) -> Self {
        Self::User {
            content: content.into(),
        }
    }

    /// An assistant message with text only.
    pub fn assistant(content: impl Into<Arc<str>>) -> Self {
        Self::Assistant {
            content: Some(content.into()),
            tool_calls: Vec::new(),
        }
    }

    /// The answer to tool call `tool_call_id`.
    pub fn tool(tool_call_id: impl Into<String>, content: impl Into<Arc<str>>) -> Self {
        Self::Tool {
            tool_call_id: tool_call_id.into(),
            content: content.into(),
        }
    }
}

/// Tokens spent by one call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    /// Tokens in the request.
    pub prompt_tokens: u32,
    /// Tokens in the reply.
    pub completion_tokens: u32,
    /// Of the request's tokens, those the provider read from its cache (cheaper at most
    /// providers; 0 when it does not say).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cached_tokens: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl TokenUsage {
    /// Both counts added, or `None` if either would pass `u32::MAX`.
    pub fn checked_add(self, other: Self) -> Option<Self> {
        Some(Self {
            prompt_tokens: self.prompt_tokens.checked_add(other.prompt_tokens)?,
            completion_tokens: self
                .completion_tokens
                .checked_add(other.completion_tokens)?,
            cached_tokens: self.cached_tokens.checked_add(other.cached_tokens)?,
        })
    }
}

/// Counts never wrap: past `u32::MAX` they stay there (an imported file that would pass it is
/// refused before; see [`TokenUsage::checked_add`]).
impl std::ops::AddAssign for TokenUsage {
    fn add_assign(&mut self, other: Self) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(other.prompt_tokens);
        self.completion_tokens = self
            .completion_tokens
            .saturating_add(other.completion_tokens);
        self.cached_tokens = self.cached_tokens.saturating_add(other.cached_tokens);
    }
}

/// One layer of a prompt and its size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptLayer {
    /// Its name, e.g. `the story so far`.
    pub name: String,
    /// Its tokens (estimated).
    pub tokens: u32,
    /// Its bytes.
    pub bytes: u32,
}

/// An older passage of the story the rules recalled into a request, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecalledPassage {
    /// The turn it belongs to.
    pub turn: u32,
    /// Its index in the story log.
    pub index: u32,
    /// The part of it the prompt holds (its sentences that hold a matched word).
    pub text: String,
    /// The words of the search it holds.
    pub words: Vec<String>,
}

/// A request as the game master sent it, kept for the context inspector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentRequest {
    /// What it asked for: `narration`, `actions` or `summary`.
    pub purpose: String,
    /// The messages, exactly as sent.
    pub messages: Vec<Message>,
    /// The names of the tools offered.
    pub tools: Vec<String>,
    /// The prompt's layers in order.
    pub layers: Vec<PromptLayer>,
    /// The turns held verbatim (first, last), if any.
    pub window: Option<(u32, u32)>,
    /// The request's bytes (messages and tools, as JSON).
    pub bytes: u32,
    /// How many of its first bytes equal the previous request's.
    pub shared_front_bytes: u32,
    /// The prompt's tokens, estimated before sending.
    pub estimated_tokens: u32,
    /// The prompt's tokens as the provider counted them, when it said.
    pub reported_tokens: Option<u32>,
}
