//! The turn: the player's move narrated (with the rules' tool calls), the next actions offered,
//! and between turns the story folded into a summary. Neither phase touches storage: the caller
//! commits each phase's events when the phase has completed.
//!
//! - `moves.rs`: the player's move (typed, chosen or the opening) and a retelling's dice
//! - `error.rs`: why a phase failed
//! - `narration.rs`: phase 1, the move narrated, and what the rules do after the scene
//! - `played_move.rs`: the move played before it is narrated: logged, its roll made, its fight
//!   step or cast played, told to the model
//! - `death_saves.rs`: the roll a move makes on its own, a dying character's death save among
//!   them
//! - `rounds.rs`: the narration's model calls: tool rounds, the scene checked against the
//!   ledger and the table's lines
//! - `stream.rs`: a streamed reply collected, bounded and cut back to its last full sentence
//! - `log.rs`: the turn's event log, passed on as it happens
//! - `actions.rs`: phase 2, the next actions offered, repaired once or the rules' fallback
//! - `summary.rs`: between turns, the oldest turns folded into a summary
//! - `candidates.rs`: the moves the rules propose for a very small model, and the fallback
//!   actions
//! - `complication.rs`: the rules' complication after a failed roll that cost nothing
//! - `fight_turn.rs`: the player's side of a fight: the action bar's fight moves, the player's
//!   turn played before the narration, a fight the rules start for a model without tools
//! - `power_moves.rs`: the spells and class features a fight offers, with what they spend and
//!   their chance
//! - `spell_turn.rs`: a typed cast played by the rules, in a fight or out of one
//! - `spine_turn.rs`: the story's spine around the scene: the rules' plan, a journey, clocks
//!   ticked by failures and time, people swayed by social checks, the director's steer, the
//!   threats and people a scene names, a chapter's goal met
//! - `question.rs`: the player's question out of character, answered without tools
//! - `turn_dice.rs`: the turn's dice by kind of roll: every roll of a telling asks for the dice
//!   of its kind, whose draws are logged with the turn and given back to a retelling or to the
//!   same move after an undo, so each kind rolls the same

mod actions;
pub mod candidates;
pub mod complication;
mod death_saves;
mod error;
pub mod fight_turn;
mod log;
mod moves;
mod narration;
mod played_move;
pub mod power_moves;
pub mod question;
mod rounds;
mod seat_moves;
pub mod spell_turn;
mod spine_turn;
mod stream;
mod summary;
pub mod turn_dice;

pub use actions::{offer_actions, Offered};
pub use death_saves::player_roll;
pub use error::TurnError;
pub use moves::{MoveText, MoveTextError, PlayerMove, Retelling, MAX_MOVE_CHARS};
pub use narration::{narrate, Memory, Narration};
pub use seat_moves::SeatMove;
pub use summary::{summarize, Summarized};
