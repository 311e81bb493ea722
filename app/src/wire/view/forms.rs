//! What the player sends: a move, a new campaign (its character, premise, presets and
//! agreement), a journal edit, a character card or lorebook brought in.

use serde::{Deserialize, Serialize};

use super::*;

/// The player's change to a journal entry, as the browser sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum JournalEdit {
    /// Pin or unpin it.
    Pin {
        /// The entry.
        id: u32,
        /// Pinned or not.
        pinned: bool,
    },
    /// Rewrite it.
    Rewrite {
        /// The entry.
        id: u32,
        /// Its new name.
        name: String,
        /// Its new note.
        note: String,
    },
    /// Delete it.
    Delete {
        /// The entry.
        id: u32,
    },
}

/// What the player does, as the browser sends it: an offered action's id or their own words.
/// The server looks the action up among the ones it offered; nothing else is taken from the
/// browser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveInput {
    /// An offered action, by id.
    Action {
        /// The action's id.
        id: String,
    },
    /// Free text.
    Text {
        /// What they typed.
        text: String,
    },
}

/// The new-adventure form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewCampaign {
    /// The premise (a preset or the player's own line).
    pub premise: String,
    /// The character: name, class, scores and the rest of the creation form.
    #[serde(flatten)]
    pub character: CharacterDraft,
    /// Whether the game master's changes wait for the player's approval.
    #[serde(default)]
    pub approval: bool,
    /// The game master's style and the table's lines and veils.
    #[serde(default)]
    pub agreement: AgreementForm,
    /// Journal entries brought from a character card or a lorebook.
    #[serde(default)]
    pub brought: Vec<BroughtEntry>,
    /// Companions travelling with the hero from the start, each a name and a class (a card's
    /// character, or the player's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companions: Vec<CompanionForm>,
}

/// A companion as the new-adventure form sends it: made by the creation rules with the class's
/// suggested scores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanionForm {
    /// The companion's name.
    pub name: String,
    /// A class preset's name.
    pub class: String,
}

/// The largest character card or lorebook file taken, in bytes (a card's PNG carries its
/// picture).
pub const MAX_CARD_BYTES: usize = 8 * 1024 * 1024;

/// A journal entry a player brings to a new campaign (a card's companion, a lorebook's lore).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BroughtEntry {
    /// What it is about.
    pub kind: JournalKind,
    /// Its name.
    pub name: String,
    /// What is known.
    pub note: String,
}

/// What a character card or a lorebook brings, as the new-adventure form shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// The card's character (none for a lorebook).
    pub name: Option<String>,
    /// The premise made from the card's scenario (empty for a lorebook).
    pub premise: String,
    /// The journal entries: the companion first, then the lore, within the journal's room.
    pub entries: Vec<BroughtEntry>,
    /// Lorebook entries left out (past the journal's room, or without a name or a text).
    pub left_out: u32,
}

/// The style, lines and veils as a form sends them (one entry a line or veil; blank ones are
/// skipped).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgreementForm {
    /// The game master's style.
    #[serde(default)]
    pub style: Style,
    /// What never appears in the story.
    #[serde(default)]
    pub lines: Vec<String>,
    /// What happens only off-screen.
    #[serde(default)]
    pub veils: Vec<String>,
}

impl AgreementForm {
    /// The form's agreement, or why it is refused.
    pub fn agreement(&self) -> Result<TableAgreement, AgreementError> {
        TableAgreement::new(self.style, &self.lines, &self.veils)
    }
}

impl NewCampaign {
    /// A campaign for a `name` of `class` with the class's suggested scores, heroic stakes and
    /// nothing else chosen.
    pub fn new(
        premise: impl Into<String>,
        name: impl Into<String>,
        class: impl Into<String>,
    ) -> Self {
        Self {
            premise: premise.into(),
            character: CharacterDraft {
                name: name.into(),
                class: class.into(),
                ..CharacterDraft::default()
            },
            approval: false,
            agreement: AgreementForm::default(),
            brought: Vec::new(),
            companions: Vec::new(),
        }
    }
}

/// Premises offered on the home page; the last, [`HORROR_PRESET`], is a horror game that tracks
/// sanity.
pub const PREMISE_PRESETS: [&str; 5] = [
    "A lantern flickers at the mouth of a flooded crypt, and something inside is knocking.",
    "The caravan master has vanished, and the map he left is drawn in fresh blood.",
    "A clockwork owl lands on your windowsill with a message from a city that burned a century ago.",
    "The village well has started answering questions, and every answer is a little bit wrong.",
    "You slip through the back of an ordinary day into Level 0: damp yellow rooms without end, \
     lights that hum, and somewhere a door stencilled with the number of the next level. \
     Every hour here wears at your mind.",
];

/// The preset of a horror game (sanity tracked): numbered levels of an endless place.
pub const HORROR_PRESET: usize = 4;
