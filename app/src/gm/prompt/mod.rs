//! What the model is given.
//!
//! - `messages.rs`: the words: the rules every request starts with, each phase's messages and
//!   the repair request
//! - `layers.rs`: the layered prompt within a token budget (the stable front, the summary, the
//!   recalled passages, the verbatim turns) and the summaries that fold old turns
//! - `recall.rs`: the words a move searches the story for, and the older passages cut to a
//!   bounded layer
//! - `sheet_text.rs`: the character sheet as the model reads it; `party_text.rs`: the party
//!   beside it (each friend's hero and companion in a line)
//! - `spine_text.rs`: the story's plan (stable) and the story now (chapter, clocks, people)
//! - `token_count/`: a text's tokens, in work linear in its length, counted with cl100k's ranks
//!   kept in one table (`token_count/cl100k.rs`)

pub mod layers;
pub mod messages;
pub mod party_text;
pub mod recall;
pub mod sheet_text;
pub mod spine_text;
pub mod token_count;
