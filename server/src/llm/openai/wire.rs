//! The wire: the request as async-openai's types, and replies read into lenient structs that
//! accept what compatible servers actually send.

use app::gm::{
    FinishReason, JsonSchemaFormat, LlmError, LlmResponse, Message, TokenUsage, ToolCall,
    ToolDefinition,
};
use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls,
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionTool, ChatCompletionTools, FunctionCall,
    FunctionObject, ResponseFormat, ResponseFormatJsonSchema,
};
use serde::Deserialize;
use serde_json::Value;

use super::errors::provider_error;

/// One streamed chunk, as leniently as compatible servers need.
#[derive(Deserialize)]
pub(super) struct WireChunk {
    #[serde(default)]
    pub(super) choices: Vec<WireStreamChoice>,
    pub(super) usage: Option<WireUsage>,
    pub(super) error: Option<Value>,
}

#[derive(Deserialize)]
pub(super) struct WireStreamChoice {
    #[serde(default)]
    pub(super) index: u32,
    #[serde(default)]
    pub(super) delta: WireDelta,
    pub(super) finish_reason: Option<String>,
}

#[derive(Default, Deserialize)]
pub(super) struct WireDelta {
    pub(super) content: Option<String>,
    pub(super) tool_calls: Option<Vec<WireToolCallDelta>>,
}

#[derive(Deserialize)]
pub(super) struct WireToolCallDelta {
    #[serde(default)]
    pub(super) index: u32,
    pub(super) id: Option<String>,
    pub(super) function: Option<WireFunctionDelta>,
}

#[derive(Deserialize)]
pub(super) struct WireFunctionDelta {
    pub(super) name: Option<String>,
    pub(super) arguments: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct WireUsage {
    #[serde(default)]
    pub(super) prompt_tokens: u32,
    #[serde(default)]
    pub(super) completion_tokens: u32,
    pub(super) prompt_tokens_details: Option<WirePromptDetails>,
}

/// What OpenAI (and servers that follow it) say of the request's tokens.
#[derive(Deserialize)]
pub(super) struct WirePromptDetails {
    pub(super) cached_tokens: Option<u32>,
}

impl From<WireUsage> for TokenUsage {
    fn from(usage: WireUsage) -> Self {
        Self {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            cached_tokens: usage
                .prompt_tokens_details
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
        }
    }
}

/// A non-streamed reply.
#[derive(Deserialize)]
pub(super) struct WireResponse {
    #[serde(default)]
    pub(super) choices: Vec<WireChoice>,
    pub(super) usage: Option<WireUsage>,
    pub(super) error: Option<Value>,
}

#[derive(Deserialize)]
pub(super) struct WireChoice {
    pub(super) message: WireMessage,
    pub(super) finish_reason: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct WireMessage {
    pub(super) content: Option<String>,
    pub(super) tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Deserialize)]
pub(super) struct WireToolCall {
    pub(super) id: Option<String>,
    pub(super) function: WireFunction,
}

#[derive(Deserialize)]
pub(super) struct WireFunction {
    pub(super) name: String,
    /// A JSON string per OpenAI; some servers send the object itself.
    pub(super) arguments: Option<Value>,
}

impl WireResponse {
    /// The port's response: the first choice's text and tool calls.
    pub(super) fn into_response(self) -> Result<LlmResponse, LlmError> {
        if let Some(error) = self.error {
            return Err(provider_error(&error));
        }
        let choice = self
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| LlmError::InvalidResponse("the reply has no choices".into()))?;
        let tool_calls: Vec<_> = choice
            .message
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(index, call)| call.into_call(index))
            .collect();
        let text = choice.message.content.unwrap_or_default();
        let finish_reason = settle_finish(
            choice.finish_reason,
            !tool_calls.is_empty(),
            !text.is_empty(),
        )?;
        Ok(LlmResponse {
            text,
            tool_calls,
            finish_reason,
            usage: self.usage.map(Into::into),
        })
    }
}

impl WireToolCall {
    /// The port's tool call; one without an id gets one from its position.
    pub(super) fn into_call(self, index: usize) -> ToolCall {
        let arguments = match self.function.arguments {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text,
            Some(object) => object.to_string(),
        };
        ToolCall {
            id: self.id.unwrap_or_else(|| format!("call_{index}")),
            name: self.function.name,
            arguments,
        }
    }
}

/// The wire form of one message.
pub(super) fn wire_message(message: Message) -> ChatCompletionRequestMessage {
    match message {
        Message::System { content } => {
            ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(content.to_string()),
                name: None,
            })
        }
        Message::User { content } => {
            ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
                content: ChatCompletionRequestUserMessageContent::Text(content.to_string()),
                name: None,
            })
        }
        Message::Assistant {
            content,
            tool_calls,
        } => ChatCompletionRequestMessage::Assistant(wire_assistant(
            content.as_deref().map(str::to_owned),
            tool_calls,
        )),
        Message::Tool {
            tool_call_id,
            content,
        } => ChatCompletionRequestMessage::Tool(ChatCompletionRequestToolMessage {
            content: ChatCompletionRequestToolMessageContent::Text(content.to_string()),
            tool_call_id,
        }),
    }
}

/// The wire form of an assistant message; one with neither text nor calls gets empty text.
pub(super) fn wire_assistant(
    content: Option<String>,
    tool_calls: Vec<ToolCall>,
) -> ChatCompletionRequestAssistantMessage {
    let content = match content {
        None if tool_calls.is_empty() => Some(String::new()),
        content => content,
    };
    let calls: Vec<_> = tool_calls
        .into_iter()
        .map(|call| {
            ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
                id: call.id,
                function: FunctionCall {
                    name: call.name,
                    arguments: call.arguments,
                },
            })
        })
        .collect();
    ChatCompletionRequestAssistantMessage {
        content: content.map(ChatCompletionRequestAssistantMessageContent::Text),
        tool_calls: (!calls.is_empty()).then_some(calls),
        ..Default::default()
    }
}

/// The wire form of a tool definition.
pub(super) fn wire_tool(tool: ToolDefinition) -> ChatCompletionTools {
    ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: tool.name,
            description: Some(tool.description),
            parameters: Some(tool.parameters),
            strict: None,
        },
    })
}

/// The wire form of a JSON schema the reply must follow.
pub(super) fn wire_format(format: JsonSchemaFormat) -> ResponseFormat {
    ResponseFormat::JsonSchema {
        json_schema: ResponseFormatJsonSchema {
            description: None,
            name: format.name,
            schema: format.schema,
            strict: Some(format.strict),
        },
    }
}

/// The finish reason the provider gave or, if it gave none, the one its reply implies.
pub(super) fn settle_finish(
    reason: Option<String>,
    has_tool_calls: bool,
    has_text: bool,
) -> Result<FinishReason, LlmError> {
    match reason {
        Some(reason) => Ok(finish_reason(&reason)),
        None if has_tool_calls => Ok(FinishReason::ToolCalls),
        None if has_text => Ok(FinishReason::Stop),
        None => Err(LlmError::InvalidResponse(
            "the reply ended without a finish reason or any content".into(),
        )),
    }
}

/// The port's finish reason for the provider's.
pub(super) fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "stop" => FinishReason::Stop,
        "length" => FinishReason::Length,
        "tool_calls" | "function_call" => FinishReason::ToolCalls,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_owned()),
    }
}
