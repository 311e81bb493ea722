//! A streamed reply: its text passed on as it arrives, collected with its tool calls, held to
//! the campaign log's bounds, and cut back to its last full sentence when the token limit cut it
//! off.

use futures::StreamExt;

use super::log::EventLog;
use crate::campaign::bounds;
use crate::campaign::turn_event::TurnEvent;
use crate::gm::llm::{FinishReason, LlmChunk, LlmError, LlmPort, LlmRequest, TokenUsage, ToolCall};

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
pub(super) struct Reply {
    text: String,
    pub(super) tool_calls: Vec<ToolCall>,
    pub(super) usage: TokenUsage,
    /// Whether the token limit cut it off.
    cut_off: bool,
}

impl Reply {
    /// The reply's prose, trimmed; up to its last full sentence if the token limit cut it off.
    pub(super) fn prose(&self) -> String {
        let text = self.text.trim();
        if self.cut_off {
            up_to_last_sentence(text).to_owned()
        } else {
            text.to_owned()
        }
    }
}

pub(super) async fn stream_reply(
    llm: &dyn LlmPort,
    request: LlmRequest,
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
            LlmChunk::Retrying {
                attempt, attempts, ..
            } => log.push(TurnEvent::Retrying { attempt, attempts }),
            LlmChunk::Done {
                usage,
                finish_reason,
            } => {
                reply.usage = usage.unwrap_or_default();
                reply.cut_off = finish_reason == FinishReason::Length;
                return Ok(bounded(reply));
            }
        }
    }
    Err(LlmError::InvalidResponse(
        "the reply ended without a finish reason".into(),
    ))
}

/// A reply held to the bounds of the campaign log: its text and its calls' ids, names and
/// arguments cut (cut arguments no longer parse, so the rules refuse the call).
fn bounded(mut reply: Reply) -> Reply {
    bounds::cut(&mut reply.text, bounds::MAX_MESSAGE_CHARS);
    for call in &mut reply.tool_calls {
        bounds::cut(&mut call.id, bounds::MAX_NAME_CHARS);
        bounds::cut(&mut call.name, bounds::MAX_NAME_CHARS);
        bounds::cut(&mut call.arguments, bounds::MAX_ARGUMENTS_CHARS);
    }
    reply
}

/// The provider's count of prompt tokens, if it gave one.
pub(super) fn reported(usage: TokenUsage) -> Option<u32> {
    (usage.prompt_tokens > 0).then_some(usage.prompt_tokens)
}

#[cfg(test)]
mod tests {
    use super::up_to_last_sentence;

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
