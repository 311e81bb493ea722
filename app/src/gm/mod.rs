//! The game master (server only): the model port, the tools, the prompts and their memory
//! layers, the schemas as the model provider needs them and the two-phase turn; the table's
//! style, lines and veils kept (`lines`).

pub mod candidates;
pub mod complication;
pub mod fight_turn;
pub mod ledger_check;
pub mod lines;
pub mod llm;
pub mod names;
pub mod noticed;
pub mod phases;
pub mod power_moves;
pub mod prompt;
pub mod prompt_layers;
pub mod quality;
pub mod question;
pub mod recall;
pub mod schema;
pub mod scripted;
pub mod settings;
pub mod sheet_text;
pub mod spell_turn;
pub mod token_count;
pub mod tools;
pub mod turn_dice;
pub mod voice;

pub use llm::{
    FinishReason, JsonSchemaFormat, LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, Message,
    ModelInfo, Purpose, TokenUsage, ToolCall, ToolChoice, ToolDefinition,
};
pub use phases::{
    narrate, offer_actions, player_roll, summarize, Memory, MoveText, Narration, Offered,
    PlayerMove, Retelling, Summarized, TurnError,
};
pub use settings::GmSettings;
