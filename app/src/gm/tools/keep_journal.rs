//! `keep_journal`: the game master notes a fact worth keeping (a person, a place, a thread, a
//! promise or debt, a notable item) or closes one that no longer matters.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::{JournalChange, JournalKind, JournalName, JournalNote};

// The enums below carry no doc comments on purpose: their schema is then a plain `enum` of
// names, a fraction of the bytes every request pays for the tool's definition.

/// What to do with the entry: write it (`note`) or close it.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum JournalAction {
    Note,
    Close,
}

/// What an entry is about.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum EntryKind {
    Person,
    Place,
    Thread,
    Promise,
    Item,
}

impl From<EntryKind> for JournalKind {
    fn from(kind: EntryKind) -> Self {
        match kind {
            EntryKind::Person => Self::Person,
            EntryKind::Place => Self::Place,
            EntryKind::Thread => Self::Thread,
            EntryKind::Promise => Self::Promise,
            EntryKind::Item => Self::Item,
        }
    }
}

/// `keep_journal`'s arguments.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct KeepJournal {
    /// note writes or updates the entry of that name.
    pub action: JournalAction,
    /// Needed to note.
    pub kind: Option<EntryKind>,
    /// E.g. Mira the smith.
    pub name: JournalName,
    /// One or two sentences (needed to note).
    pub note: Option<JournalNote>,
}

impl GameTool for KeepJournal {
    const NAME: &'static str = "keep_journal";
    const DESCRIPTION: &'static str = "Note a person met, a place, an open thread, a promise \
        or debt, a notable item; close an entry that no longer matters.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        let change = match self.action {
            JournalAction::Note => JournalChange::Note {
                kind: self
                    .kind
                    .ok_or(ArgumentError::Missing("the kind of the entry to note"))?
                    .into(),
                name: self.name,
                note: self
                    .note
                    .ok_or(ArgumentError::Missing("the note to keep"))?,
            },
            JournalAction::Close => JournalChange::Close { name: self.name },
        };
        Ok(ToolCommand::Journal(change))
    }
}
