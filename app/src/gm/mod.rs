//! The game master (server only): the model port, the tools, the prompts and the two-phase turn.

pub mod llm;

pub use llm::{
    FinishReason, JsonSchemaFormat, LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse,
    Message, ModelInfo, TokenUsage, ToolCall, ToolDefinition,
};
