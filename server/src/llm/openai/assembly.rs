//! Assembling a streamed reply: text passes through, tool calls are put together from their
//! deltas, and the finish reason is settled.

use std::collections::BTreeMap;

use app::gm::{LlmChunk, LlmError, TokenUsage, ToolCall};

use super::errors::provider_error;
use super::wire::{settle_finish, WireChunk, WireToolCallDelta};

/// Assembles a streamed reply: text passes through, tool calls are put together from their deltas.
#[derive(Default)]
pub(super) struct Assembler {
    pub(super) calls: BTreeMap<u32, PartialCall>,
    pub(super) finish_reason: Option<String>,
    pub(super) usage: Option<TokenUsage>,
    pub(super) text_seen: bool,
}

/// A tool call being streamed: the id and name come once, the arguments in pieces.
#[derive(Default)]
pub(super) struct PartialCall {
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) arguments: String,
}

impl Assembler {
    /// Takes in one event's data; returns the text to pass on.
    pub(super) fn absorb(&mut self, data: &str) -> Result<Vec<LlmChunk>, LlmError> {
        let chunk: WireChunk = serde_json::from_str(data).map_err(|error| {
            LlmError::InvalidResponse(format!("a streamed chunk is not valid JSON: {error}"))
        })?;
        if let Some(error) = chunk.error {
            return Err(provider_error(&error));
        }
        if let Some(usage) = chunk.usage {
            self.usage = Some(usage.into());
        }
        let mut text = Vec::new();
        for choice in chunk.choices.into_iter().filter(|choice| choice.index == 0) {
            if let Some(content) = choice.delta.content.filter(|content| !content.is_empty()) {
                self.text_seen = true;
                text.push(LlmChunk::Text(content));
            }
            for delta in choice.delta.tool_calls.unwrap_or_default() {
                self.merge(delta);
            }
            if let Some(reason) = choice.finish_reason {
                self.finish_reason = Some(reason);
            }
        }
        Ok(text)
    }

    /// Adds a tool-call delta to the call at its index.
    pub(super) fn merge(&mut self, delta: WireToolCallDelta) {
        let call = self.calls.entry(delta.index).or_default();
        if call.id.is_none() {
            call.id = delta.id.filter(|id| !id.is_empty());
        }
        if let Some(function) = delta.function {
            if call.name.is_none() {
                call.name = function.name.filter(|name| !name.is_empty());
            }
            call.arguments
                .push_str(function.arguments.as_deref().unwrap_or_default());
        }
    }

    /// The assembled tool calls, then `Done`.
    pub(super) fn finish(self) -> Result<Vec<LlmChunk>, LlmError> {
        let calls = self
            .calls
            .into_iter()
            .map(|(index, call)| call.complete(index))
            .collect::<Result<Vec<_>, _>>()?;
        let finish_reason = settle_finish(self.finish_reason, !calls.is_empty(), self.text_seen)?;
        Ok(calls
            .into_iter()
            .map(LlmChunk::ToolCall)
            .chain([LlmChunk::Done {
                finish_reason,
                usage: self.usage,
            }])
            .collect())
    }
}

impl PartialCall {
    /// The finished call; a call without a name is unreadable, one without an id gets one.
    pub(super) fn complete(self, index: u32) -> Result<ToolCall, LlmError> {
        let name = self.name.ok_or_else(|| {
            LlmError::InvalidResponse(format!("streamed tool call {index} has no name"))
        })?;
        Ok(ToolCall {
            id: self.id.unwrap_or_else(|| format!("call_{index}")),
            name,
            arguments: self.arguments,
        })
    }
}
