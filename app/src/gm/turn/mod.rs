//! The turn: the player's move narrated (with the rules' tool calls), the next actions offered,
//! and between turns the story folded into a summary. Neither phase touches storage: the caller
//! commits each phase's events when the phase has completed.
//!
//! - `narration.rs`: phase 1, the move narrated
//! - `candidates.rs`: the moves the rules propose for a very small model, and the fallback
//!   actions
//! - `complication.rs`: the rules' complication after a failed roll that cost nothing
//! - `fight_turn.rs`: the player's side of a fight: the action bar's fight moves, the player's
//!   turn played before the narration, a fight the rules start for a model without tools
//! - `power_moves.rs`: the spells and class features a fight offers
//! - `spell_turn.rs`: a typed cast played by the rules
//! - `question.rs`: the player's question out of character, answered without tools
//! - `turn_dice.rs`: the turn's dice by kind of roll, kept for a retelling

pub mod candidates;
pub mod complication;
pub mod fight_turn;
mod narration;
pub mod power_moves;
pub mod question;
pub mod spell_turn;
pub mod turn_dice;

pub use narration::{
    narrate, offer_actions, player_roll, summarize, Memory, MoveText, MoveTextError, Narration,
    Offered, PlayerMove, Retelling, Summarized, TurnError, MAX_MOVE_CHARS,
};
