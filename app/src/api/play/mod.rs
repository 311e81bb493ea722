//! The play screen's server functions about the story: a move played and its actions, a turn taken
//! back, redone or told again, a question out of character, approval mode's decisions, the table's
//! agreement, the game master's notes, the story's earlier pages and its search, a picture drawn.

pub mod ask_the_gm;
pub mod decide_proposals;
pub mod draw_picture;
pub mod earlier_story;
pub mod new_actions;
pub mod next_actions;
pub mod play_turn;
pub mod redo_turn;
pub mod retell_turn;
pub mod search_story;
pub mod set_agreement;
pub mod set_approval;
pub mod show_notes;
pub mod undo_turn;

pub use ask_the_gm::{ask_the_gm, AskTheGm};
pub use decide_proposals::{decide_proposals, DecideProposals};
pub use draw_picture::{draw_picture, DrawPicture};
pub use earlier_story::{earlier_story, EarlierStory};
pub use new_actions::{new_actions, NewActions};
pub use next_actions::{next_actions, NextActions};
pub use play_turn::{play_turn, PlayTurn};
pub use redo_turn::{redo_turn, RedoTurn};
pub use retell_turn::{retell_turn, RetellTurn};
pub use search_story::{search_story, SearchStory};
pub use set_agreement::{set_agreement, SetAgreement};
pub use set_approval::{set_approval, SetApproval};
pub use show_notes::{show_notes, ShowNotes};
pub use undo_turn::{undo_turn, UndoTurn};
