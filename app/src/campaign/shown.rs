//! What the player sees change when the projector applies one event, in the log's own terms:
//! a story entry with its index, streamed text, or which part of the state changed (the sheet,
//! the journal, the fight…). The edge (`wire::present`) turns each into what the browser gets,
//! reading the part that changed from the state right after the event.

use super::conversation::Message;
use super::story::{StoryEntry, StoryTable};

/// One thing the player sees change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    /// More narrative text (plain text until the scene is complete).
    Narrative(String),
    /// The narrative so far is replaced by this text (a draft that pre-empted a roll).
    NarrativeReplaced(String),
    /// A new story entry at its index in the story log.
    Entry {
        /// Its index.
        index: u32,
        /// The entry.
        entry: StoryEntry,
    },
    /// The character sheet changed.
    Sheet,
    /// The rules accepted an outcome table; its die is being rolled.
    TablePending(StoryTable),
    /// The game master's style or the table's lines and veils changed.
    Agreement,
    /// The model now holds this turn's messages verbatim, and no turn before `from_turn`.
    Model {
        /// The first turn still held.
        from_turn: u32,
        /// The turn added.
        turn: u32,
        /// Its messages.
        messages: Vec<Message>,
    },
    /// The changes waiting for the player changed.
    Proposals,
    /// The actions on offer changed.
    Actions,
    /// A fight began, moved on or ended.
    Encounter,
    /// The journal changed.
    Journal,
    /// The map changed, or where the character stands on it (the sheet's location).
    Map,
    /// The story's spine changed (a clock, a chapter, a person, the director, the notes).
    Spine,
    /// The table changed: a friend seated or gone, a companion joined, a member's sheet.
    Party,
    /// The model's call is being tried again.
    Waiting {
        /// This attempt.
        attempt: u32,
        /// How many there will be at most.
        attempts: u32,
    },
}

impl Shown {
    /// The story entry this adds, if it adds one.
    pub fn into_entry(self) -> Option<StoryEntry> {
        match self {
            Self::Entry { entry, .. } => Some(entry),
            _ => None,
        }
    }
}
