//! What the browser receives about a campaign and what it sends: plain data, rendered by the UI.
//! Built on the server by `wire::present` from the campaign; nothing here is trusted back from
//! the browser. One file per screen or drawer:
//!
//! - [`home`]: the campaigns list, the trash, the recovery code, the game master in use;
//! - [`play`]: the campaign as it opens, the story's pages, the buttons, the tracker, the
//!   updates a turn streams;
//! - [`map`]: the map panel's drawing and its places;
//! - [`sheet`]: the character panel; [`inspector`]: the context inspector and the ledger;
//! - [`spine`]: the story so far (chapters, clocks, people, the notes) and the director;
//! - [`table`]: the table of friends: seats, companions, the round, an invitation;
//! - [`forms`]: what the player sends (a move, a new campaign, a journal edit, a card).
//!
//! The story's entries and the ids are the campaign's own, shown as they are.

pub mod forms;
pub mod home;
pub mod inspector;
pub mod map;
pub mod play;
pub mod sheet;
pub mod spine;
pub mod table;

pub use forms::*;
pub use home::*;
pub use inspector::*;
pub use map::*;
pub use play::*;
pub use sheet::*;
pub use spine::*;
pub use table::*;

use super::CampaignId;
pub use crate::campaign::story::{
    Roller, StoryDie, StoryEntry, StoryTable, StoryTableRow, Verdict, MAX_DICE_SHOWN,
};
pub use crate::campaign::title::MAX_TITLE_CHARS;
use crate::game::agreement::{AgreementError, Style, TableAgreement};
use crate::game::creation::CharacterDraft;
use crate::game::{JournalEntry, JournalKind, Stakes, Vitality};
use crate::wire::errors::AppError;
