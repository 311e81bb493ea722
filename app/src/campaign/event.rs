//! The events stored in a campaign's log.

use serde::{Deserialize, Serialize};

use super::conversation::Message;
use super::turn_event::TurnEvent;
use crate::game::agreement::TableAgreement;
use crate::game::party::Seat;
use crate::game::{CharacterSheet, JournalChange};

/// One stored event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CampaignEvent {
    /// The campaign began: its premise and the starting character sheet.
    Started {
        /// The premise the adventure starts from.
        premise: String,
        /// The character at the start.
        sheet: CharacterSheet,
    },
    /// Something that happened in a turn (moves, rolls, tool calls, narration, actions).
    Turn(TurnEvent),
    /// The messages a narration added to the model's history, exactly as sent.
    ModelMessages {
        /// The messages.
        messages: Vec<Message>,
    },
    /// The model summarised the story from the start up to `through_turn`; the model sees this
    /// summary instead of those turns' messages from now on.
    Summarized {
        /// The last turn it covers.
        through_turn: u32,
        /// The summary.
        text: String,
    },
    /// The player changed the journal.
    JournalEdited {
        /// The change.
        change: JournalChange,
    },
    /// The player turned approval mode on or off: whether the game master's changes wait for
    /// them (see [`super::proposal`]).
    ApprovalSet {
        /// On or off.
        on: bool,
    },
    /// The player set the game master's style and the table's lines and veils (at the start, or
    /// later in play); the next request follows them.
    TableAgreed {
        /// The style, the lines and the veils.
        agreement: TableAgreement,
    },
    /// The player brought journal entries to the new campaign: a character card's companion, a
    /// lorebook's lore (notes only, within the journal's room).
    Brought {
        /// The entries, each a note.
        changes: Vec<JournalChange>,
    },
    /// The player chose whether to read the game master's notes (the story's hidden plan).
    NotesShown {
        /// Shown or hidden.
        on: bool,
    },
    /// A friend took a seat at the table with their hero (see [`crate::game::party`]).
    Seated {
        /// The seat.
        seat: Seat,
        /// Their hero as created.
        sheet: CharacterSheet,
    },
    /// The friend at a seat left the table (the host removed them): their hero leaves the
    /// story.
    Unseated {
        /// The seat.
        seat: Seat,
    },
    /// The host set how long a round waits for every seat before anyone may go on without the
    /// missing (see [`crate::game::party::ROUND_WAIT`]).
    RoundWaitSet {
        /// Seconds.
        secs: u32,
    },
    /// A companion joined the party, with a sheet of its own.
    CompanionJoined {
        /// The companion.
        sheet: CharacterSheet,
    },
    /// The operator's image model drew a picture (a portrait, a scene); its bytes are kept
    /// beside the log.
    Pictured {
        /// The picture.
        picture: super::picture::PictureRef,
    },
    /// The player took the latest turn back (see [`super::timeline`]); stored with the turn the
    /// campaign is at afterwards.
    Undone,
    /// The player put the latest undone turn back; stored with that turn.
    Redone,
}

/// An event with the turn it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// The turn (1 for the opening scene).
    pub turn: u32,
    /// The event.
    pub event: CampaignEvent,
}
