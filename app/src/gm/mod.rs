//! The game master (server only), cut along its seams:
//!
//! - the model port (`llm`), the scripted model (`scripted`), the schemas as the model provider
//!   needs them (`schema`), the settings (`settings`) and the tools (`tools`, each a command run
//!   through the rules by `tools/run.rs`), the only way the story changes the game state;
//! - the image model's port and the picture's prompt the rules compose (`picture`);
//! - `turn`: the turn, in its phases (narrate, offer actions, summarize) with everything the
//!   rules play in it (the fight, spells, complications, the player's question);
//! - `prompt`: what the model is given: the words, the layered prompt within a token budget,
//!   recall, the sheet as text and token counting;
//! - `prose`: the English-text heuristics over what the model wrote (the ledger check, the
//!   voice, names, the journal's notices, the table's lines) and their one lexicon.
//!
//! It emits campaign events and knows no storage: the service commits what a phase emits.

pub mod llm;
pub mod picture;
pub mod prompt;
pub mod prose;
pub mod schema;
pub mod scripted;
pub mod settings;
pub mod tools;
pub mod turn;

pub use llm::{
    FinishReason, JsonSchemaFormat, LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, Message,
    ModelInfo, Purpose, TokenUsage, ToolCall, ToolChoice, ToolDefinition,
};
pub use settings::GmSettings;
pub use turn::{
    narrate, offer_actions, player_roll, summarize, Memory, MoveText, Narration, Offered,
    PlayerMove, Retelling, SeatMove, Summarized, TurnError,
};
