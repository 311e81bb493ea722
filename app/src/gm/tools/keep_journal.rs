//! `keep_journal`: the game master notes a fact worth keeping (a person, a place, a thread, a
//! promise or debt, a notable item) or closes one that no longer matters.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{GameTool, ToolCommand};
use crate::game::{JournalChange, JournalKind, JournalName, JournalNote};

/// What to do with the entry.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JournalAction {
    /// Write the entry of that name (new, or updated).
    Note,
    /// The entry no longer matters (a promise kept, a quest done).
    Close,
}

/// Arguments of `keep_journal`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct KeepJournal {
    /// "note" to write or update the entry of that name, "close" when it no longer matters.
    pub action: JournalAction,
    /// What the entry is about (needed to note).
    pub kind: Option<JournalKind>,
    /// The entry's name, e.g. "Mira the smith" (an entry is found by its name).
    pub name: JournalName,
    /// What to remember, in one or two sentences: who they are and their attitude, what was
    /// promised to whom (needed to note).
    pub note: Option<JournalNote>,
}

impl GameTool for KeepJournal {
    const NAME: &'static str = "keep_journal";
    const DESCRIPTION: &'static str = "Keep the campaign journal: note a person met, a place, \
        an open thread, a promise or debt, or a notable item the story must remember later; \
        close an entry when it no longer matters. Not for hit points or the inventory.";

    fn into_command(self) -> Result<ToolCommand, String> {
        let change = match self.action {
            JournalAction::Note => JournalChange::Note {
                kind: self.kind.ok_or("give the kind of the entry to note")?,
                name: self.name,
                note: self.note.ok_or("give the note to keep")?,
            },
            JournalAction::Close => JournalChange::Close { name: self.name },
        };
        Ok(ToolCommand::Journal(change))
    }
}
