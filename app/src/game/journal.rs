//! The journal: the facts of a campaign worth keeping beyond the last few scenes — people,
//! places, open threads, promises and debts, notable items. The game master keeps it with a tool
//! (note or close an entry, found by name); for a model shown no tools the rules note the people
//! and places the scenes keep naming (marked as theirs, never over an entry of the same name);
//! the player can pin, edit or delete entries (a deleted entry of the rules' is not noted again).
//! Every change is a typed [`JournalChange`], applied by [`Journal::apply`], so the log replays it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::text::{JournalName, JournalNote};

/// The most entries a journal keeps (a closed, unpinned entry makes room for a new one).
pub const MAX_ENTRIES: usize = 40;

/// The most names of the rules' entries the player deleted that the journal remembers (the
/// oldest are forgotten first).
pub const MAX_DISMISSED: usize = 100;

/// What an entry is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JournalKind {
    /// Someone met: who they are, their attitude.
    Person,
    /// A place.
    Place,
    /// An open thread or quest.
    Thread,
    /// A promise or a debt.
    Promise,
    /// A notable item (not the inventory: the sheet keeps that).
    Item,
}

impl JournalKind {
    /// Every kind, in the order the journal lists them.
    pub const ALL: [JournalKind; 5] = [
        Self::Person,
        Self::Place,
        Self::Thread,
        Self::Promise,
        Self::Item,
    ];

    /// The kind's heading, e.g. `People`.
    pub fn heading(self) -> &'static str {
        match self {
            Self::Person => "People",
            Self::Place => "Places",
            Self::Thread => "Threads",
            Self::Promise => "Promises and debts",
            Self::Item => "Notable items",
        }
    }
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Its number in this journal (stable; never reused).
    pub id: u32,
    /// What it is about.
    pub kind: JournalKind,
    /// Its name, unique in the journal ignoring case.
    pub name: JournalName,
    /// What is known.
    pub note: JournalNote,
    /// Whether it still matters (a kept promise, a finished quest are closed).
    pub open: bool,
    /// Whether the player pinned it: always shown to the game master, never pushed out.
    pub pinned: bool,
    /// Whether the rules noted it (not the game master, and not rewritten by the player since).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_rules: bool,
}

/// A change to the journal, by the game master or the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum JournalChange {
    /// Writes an entry: a new one, or the note of the entry of that name (re-opened).
    Note {
        /// What it is about.
        kind: JournalKind,
        /// Its name.
        name: JournalName,
        /// What is known now.
        note: JournalNote,
    },
    /// The rules note a name the scenes keep naming: a new entry marked as theirs, only when
    /// the journal has no entry of that name and the player has not deleted one of theirs.
    Noticed {
        /// What it is about.
        kind: JournalKind,
        /// Its name.
        name: JournalName,
        /// Where it was named.
        note: JournalNote,
    },
    /// Closes the entry of that name.
    Close {
        /// Its name.
        name: JournalName,
    },
    /// The player pins or unpins an entry.
    Pin {
        /// The entry.
        id: u32,
        /// Pinned or not.
        pinned: bool,
    },
    /// The player rewrites an entry.
    Edit {
        /// The entry.
        id: u32,
        /// Its new name.
        name: JournalName,
        /// Its new note.
        note: JournalNote,
    },
    /// The player deletes an entry.
    Delete {
        /// The entry.
        id: u32,
    },
}

/// Why a journal change was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    /// No entry has that name.
    #[error("the journal has no entry named \"{0}\"")]
    UnknownName(String),
    /// No entry has that number.
    #[error("the journal has no entry {0}")]
    UnknownId(u32),
    /// Another entry already has that name.
    #[error("another journal entry is already named \"{0}\"")]
    NameTaken(String),
    /// Full of open or pinned entries.
    #[error("the journal is full ({MAX_ENTRIES} entries); close one first")]
    Full,
    /// The player deleted the rules' entry of that name.
    #[error("the player deleted the entry \"{0}\"")]
    Dismissed(String),
}

/// The journal's entries, in the order they were first written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    entries: Vec<JournalEntry>,
    next_id: u32,
    /// The names of the rules' entries the player deleted, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    dismissed: Vec<JournalName>,
}

impl Journal {
    /// Every entry, oldest first.
    pub fn entries(&self) -> &[JournalEntry] {
        &self.entries
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the rules may note `name`: no entry has it and the player deleted none of the
    /// rules' by it.
    pub fn may_notice(&self, name: &JournalName) -> bool {
        self.find_name(name).is_none() && !self.was_dismissed(name)
    }

    fn was_dismissed(&self, name: &JournalName) -> bool {
        self.dismissed.iter().any(|gone| gone.eq_ignore_case(name))
    }

    /// Applies a change; a refused change leaves the journal as it was. Returns the entry's
    /// label for the story (`Mira the smith`), or `None` for a deletion.
    pub fn apply(&mut self, change: &JournalChange) -> Result<Option<String>, JournalError> {
        match change {
            JournalChange::Note { kind, name, note } => self.note(*kind, name, note),
            JournalChange::Noticed { kind, name, note } => {
                if self.find_name(name).is_some() {
                    return Err(JournalError::NameTaken(name.as_str().to_owned()));
                }
                if self.was_dismissed(name) {
                    return Err(JournalError::Dismissed(name.as_str().to_owned()));
                }
                let label = self.note(*kind, name, note)?;
                if let Some(entry) = self.entries.last_mut() {
                    entry.by_rules = true;
                }
                Ok(label)
            }
            JournalChange::Close { name } => {
                let index = self.by_name(name)?;
                self.entries[index].open = false;
                Ok(Some(self.entries[index].name.as_str().to_owned()))
            }
            JournalChange::Pin { id, pinned } => {
                let index = self.by_id(*id)?;
                self.entries[index].pinned = *pinned;
                Ok(Some(self.entries[index].name.as_str().to_owned()))
            }
            JournalChange::Edit { id, name, note } => {
                let index = self.by_id(*id)?;
                if let Some(other) = self.find_name(name) {
                    if other != index {
                        return Err(JournalError::NameTaken(name.as_str().to_owned()));
                    }
                }
                let entry = &mut self.entries[index];
                entry.name = name.clone();
                entry.note = note.clone();
                entry.by_rules = false;
                Ok(Some(entry.name.as_str().to_owned()))
            }
            JournalChange::Delete { id } => {
                let index = self.by_id(*id)?;
                let gone = self.entries.remove(index);
                if gone.by_rules {
                    if self.dismissed.len() == MAX_DISMISSED {
                        self.dismissed.remove(0);
                    }
                    self.dismissed.push(gone.name);
                }
                Ok(None)
            }
        }
    }

    fn note(
        &mut self,
        kind: JournalKind,
        name: &JournalName,
        note: &JournalNote,
    ) -> Result<Option<String>, JournalError> {
        if let Some(index) = self.find_name(name) {
            let entry = &mut self.entries[index];
            entry.kind = kind;
            entry.note = note.clone();
            entry.open = true;
            entry.by_rules = false;
            return Ok(Some(entry.name.as_str().to_owned()));
        }
        if self.entries.len() >= MAX_ENTRIES {
            let stale = self
                .entries
                .iter()
                .position(|entry| !entry.open && !entry.pinned)
                .ok_or(JournalError::Full)?;
            self.entries.remove(stale);
        }
        self.entries.push(JournalEntry {
            id: self.next_id,
            kind,
            name: name.clone(),
            note: note.clone(),
            open: true,
            pinned: false,
            by_rules: false,
        });
        self.next_id += 1;
        Ok(Some(name.as_str().to_owned()))
    }

    fn find_name(&self, name: &JournalName) -> Option<usize> {
        self.entries
            .iter()
            .position(|entry| entry.name.eq_ignore_case(name))
    }

    fn by_name(&self, name: &JournalName) -> Result<usize, JournalError> {
        self.find_name(name)
            .ok_or_else(|| JournalError::UnknownName(name.as_str().to_owned()))
    }

    fn by_id(&self, id: u32) -> Result<usize, JournalError> {
        self.entries
            .iter()
            .position(|entry| entry.id == id)
            .ok_or(JournalError::UnknownId(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> JournalName {
        JournalName::new(text).unwrap()
    }

    fn noted(kind: JournalKind, who: &str, what: &str) -> JournalChange {
        JournalChange::Note {
            kind,
            name: name(who),
            note: JournalNote::new(what).unwrap(),
        }
    }

    #[test]
    fn a_note_on_a_known_name_updates_that_entry_and_reopens_it() {
        let mut journal = Journal::default();
        journal
            .apply(&noted(JournalKind::Person, "Mira", "A smith, wary."))
            .unwrap();
        journal
            .apply(&JournalChange::Close { name: name("mira") })
            .unwrap();
        assert!(!journal.entries()[0].open);
        journal
            .apply(&noted(
                JournalKind::Person,
                "MIRA",
                "A smith, now friendly.",
            ))
            .unwrap();
        assert_eq!(journal.entries().len(), 1);
        assert!(journal.entries()[0].open);
        assert_eq!(journal.entries()[0].note.as_str(), "A smith, now friendly.");
        assert_eq!(journal.entries()[0].name.as_str(), "Mira");
    }

    #[test]
    fn unknown_entries_and_taken_names_are_refused_without_change() {
        let mut journal = Journal::default();
        journal
            .apply(&noted(JournalKind::Place, "Old mill", "Burnt."))
            .unwrap();
        journal
            .apply(&noted(JournalKind::Person, "Tom", "Miller."))
            .unwrap();
        let before = journal.clone();
        assert_eq!(
            journal.apply(&JournalChange::Close {
                name: name("Nobody")
            }),
            Err(JournalError::UnknownName("Nobody".into()))
        );
        assert_eq!(
            journal.apply(&JournalChange::Delete { id: 7 }),
            Err(JournalError::UnknownId(7))
        );
        let edit = JournalChange::Edit {
            id: 1,
            name: name("old mill"),
            note: JournalNote::new("x").unwrap(),
        };
        assert_eq!(
            journal.apply(&edit),
            Err(JournalError::NameTaken("old mill".into()))
        );
        assert_eq!(journal, before);
    }

    #[test]
    fn the_rules_note_only_new_names_and_never_again_one_the_player_deleted() {
        let mut journal = Journal::default();
        let noticed = |who: &str| JournalChange::Noticed {
            kind: JournalKind::Person,
            name: name(who),
            note: JournalNote::new("Turn 3: Oswin poles the ferry.").unwrap(),
        };
        journal
            .apply(&noted(JournalKind::Person, "Mira", "A smith."))
            .unwrap();
        assert_eq!(
            journal.apply(&noticed("MIRA")),
            Err(JournalError::NameTaken("MIRA".into()))
        );
        journal.apply(&noticed("Oswin")).unwrap();
        assert!(journal.entries()[1].by_rules && !journal.entries()[0].by_rules);
        journal.apply(&noticed("Tam")).unwrap();
        // Rewritten by the player, an entry is the player's; deleted, a rules' one stays gone.
        journal
            .apply(&JournalChange::Edit {
                id: 2,
                name: name("Brother Tam"),
                note: JournalNote::new("A monk.").unwrap(),
            })
            .unwrap();
        assert!(!journal.entries()[2].by_rules);
        journal.apply(&JournalChange::Delete { id: 1 }).unwrap();
        assert!(!journal.may_notice(&name("oswin")));
        assert_eq!(
            journal.apply(&noticed("Oswin")),
            Err(JournalError::Dismissed("Oswin".into()))
        );
        // The game master may still write about him.
        journal
            .apply(&noted(JournalKind::Person, "Oswin", "The ferryman."))
            .unwrap();
        assert!(journal.may_notice(&name("Wren")));
    }

    #[test]
    fn a_full_journal_drops_its_oldest_closed_unpinned_entry_and_never_a_pinned_one() {
        let mut journal = Journal::default();
        for n in 0..MAX_ENTRIES {
            journal
                .apply(&noted(JournalKind::Thread, &format!("Quest {n}"), "Open."))
                .unwrap();
        }
        assert_eq!(
            journal.apply(&noted(JournalKind::Thread, "One more", "x")),
            Err(JournalError::Full)
        );
        journal
            .apply(&JournalChange::Close {
                name: name("Quest 0"),
            })
            .unwrap();
        journal
            .apply(&JournalChange::Pin {
                id: 0,
                pinned: true,
            })
            .unwrap();
        journal
            .apply(&JournalChange::Close {
                name: name("Quest 1"),
            })
            .unwrap();
        journal
            .apply(&noted(JournalKind::Thread, "One more", "x"))
            .unwrap();
        let names: Vec<&str> = journal.entries().iter().map(|e| e.name.as_str()).collect();
        assert!(names.contains(&"Quest 0"), "the pinned entry stays");
        assert!(!names.contains(&"Quest 1"));
        assert_eq!(journal.entries().last().unwrap().id, MAX_ENTRIES as u32);
    }
}
