//! The play screen's views: the campaign as it opens, a page of the story, the action buttons,
//! the proposals waiting, the encounter tracker, a search's passages, an answer out of
//! character, and the updates a running turn streams.

use serde::{Deserialize, Serialize};

use super::*;

/// The most characters a question out of character may have.
pub const MAX_QUESTION_CHARS: usize = 500;

/// The game master's answer to the player's question out of character.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerView {
    /// The question, as asked (trimmed).
    pub question: String,
    /// The answer.
    pub answer: String,
    /// The campaign's turn, which the question did not change.
    pub turn: u32,
}

impl TurnUpdate {
    /// Its kind in a campaign's event stream (a second screen's): `narrative` (the scene's
    /// text), `roll` (a roll's entry), `settlement` (what the rules changed), `state` (the
    /// sheet, journal, map, fight, proposals, agreement and other entries), `suggestions` (the
    /// actions), `done`, `failure` (not `error`: an event source's own `error` event means its
    /// connection failed).
    pub fn live_kind(&self) -> &'static str {
        match self {
            Self::Narrative { .. } | Self::NarrativeReplaced { .. } | Self::Waiting { .. } => {
                "narrative"
            }
            Self::Entry {
                entry: StoryEntry::Roll { .. },
                ..
            }
            | Self::TablePending { .. } => "roll",
            Self::Entry {
                entry: StoryEntry::Table { .. },
                ..
            } => "roll",
            Self::Entry {
                entry: StoryEntry::Changes { .. },
                ..
            } => "settlement",
            Self::Entry { .. }
            | Self::Sheet { .. }
            | Self::Agreement { .. }
            | Self::Model { .. }
            | Self::Proposals { .. }
            | Self::Encounter { .. }
            | Self::Journal { .. }
            | Self::Map { .. }
            | Self::Spine { .. }
            | Self::Table { .. }
            | Self::RoundWaiting { .. }
            | Self::Created { .. } => "state",
            Self::Actions { .. } => "suggestions",
            Self::Done { .. } => "done",
            Self::Error { .. } => "failure",
        }
    }
}

/// An action button.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionView {
    /// The id sent back when chosen.
    pub id: String,
    /// The button text.
    pub description: String,
    /// The dice badge, e.g. `1d20+2 vs DC 12`.
    pub badge: Option<String>,
    /// The chance of success in whole percent, worked out by the rules (a check against its
    /// DC, an attack against its target's armour class).
    #[serde(default)]
    pub chance: Option<u8>,
    /// What rides on the roll: on a success, on a failure.
    #[serde(default)]
    pub stakes: Option<(String, String)>,
}

/// How many story entries the play screen gets at a time.
pub const STORY_PAGE: u32 = 50;

/// Everything the play screen shows of a campaign when it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignView {
    /// Id, title, turn.
    pub summary: CampaignSummary,
    /// The latest page of the story log (UI history).
    pub story: StoryPage,
    /// The character panel.
    pub sheet: SheetView,
    /// The actions on offer (empty while they are being generated).
    pub actions: Vec<ActionView>,
    /// Tokens spent so far: (prompt, completion).
    pub tokens: (u32, u32),
    /// Which model tells the story.
    pub model: String,
    /// The journal's entries.
    pub journal: Vec<JournalEntry>,
    /// The map: its drawing and its places.
    #[serde(default)]
    pub map: MapView,
    /// How many undone turns can be redone.
    pub redoable: u32,
    /// The fight under way, if any.
    #[serde(default)]
    pub encounter: Option<EncounterView>,
    /// Whether the game master's changes wait for the player's approval.
    #[serde(default)]
    pub approval: bool,
    /// The changes waiting for the player, oldest first.
    #[serde(default)]
    pub proposals: Vec<ProposalView>,
    /// The game master's style and the table's lines and veils.
    #[serde(default)]
    pub agreement: TableAgreement,
    /// The story so far: chapters reached, revealed clocks, people met.
    #[serde(default)]
    pub spine: SpineView,
    /// The table of friends as the viewer's seat sees it.
    #[serde(default)]
    pub table: TableView,
    /// Whether the server draws pictures, and the character's portrait.
    #[serde(default)]
    pub pictures: PicturesView,
}

/// Pictures on the play screen: whether the server has an image model (without one, nothing of
/// pictures shows), and the character's latest portrait.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PicturesView {
    /// Whether the server draws pictures.
    pub on: bool,
    /// The latest portrait, if any.
    pub portrait: Option<crate::campaign::picture::PictureId>,
}

/// A change the game master proposed, waiting for the player (approval mode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposalView {
    /// Its number, sent back with the decision.
    pub id: u32,
    /// Its chips: `−5 HP`, `+ Dagger`.
    pub labels: Vec<String>,
    /// What led to it, if anything: `Rolled 1d6+2 for Goblin scimitar: [3] + 2 = 5`.
    pub cause: Option<String>,
}

/// The player's answer to one proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposalDecision {
    /// The proposal's number.
    pub id: u32,
    /// Accept (`true`) or refuse.
    pub accept: bool,
}

/// A run of consecutive story entries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryPage {
    /// The index of the first entry (0 when the page reaches the beginning).
    pub start: u32,
    /// The entries, oldest first.
    #[cfg_attr(
        target_arch = "wasm32",
        serde(deserialize_with = "crate::wire::tag_first::many")
    )]
    pub entries: Vec<StoryEntry>,
}

/// A passage of the story that holds words searched for: by the player in the story's search,
/// or by the rules when they recalled it into a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundView {
    /// The turn it belongs to.
    pub turn: u32,
    /// Its index in the story log (its page starts there).
    pub index: u32,
    /// Its sentences that hold a searched word.
    pub text: String,
    /// The searched words it holds.
    pub words: Vec<String>,
}

/// The actions for the campaign's current turn (phase 2's answer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionsView {
    /// The turn they are for.
    pub turn: u32,
    /// The buttons.
    pub actions: Vec<ActionView>,
    /// Tokens spent so far: (prompt, completion).
    pub tokens: (u32, u32),
}

/// One fighter in the initiative order of the encounter tracker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FighterView {
    /// `You`, or the foe's label (`Goblin 2`).
    pub name: String,
    /// The initiative total.
    pub initiative: i32,
    /// Whether it is the player's character.
    pub hero: bool,
    /// Hit points now and at most (the hero's from the sheet).
    pub hp: (u16, u16),
    /// Its armour class.
    pub armor_class: u8,
    /// Its conditions (`prone`), or `down`, `fled`.
    pub conditions: Vec<String>,
}

/// The fight under way, as the encounter tracker shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterView {
    /// The round, from 1.
    pub round: u16,
    /// Everyone in the order they act.
    pub order: Vec<FighterView>,
    /// Whose turn it is (an index into `order`; between moves, always the hero's).
    pub turn: usize,
}

/// One update of a running turn, streamed to the play screen as a JSON line.
///
/// Tagged by its kind's name around the update (`{"narrative": {"text": …}}`): see
/// [`AppError`](crate::wire::errors::AppError).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnUpdate {
    /// More narrative text (plain text until the scene is complete).
    Narrative {
        /// The new text.
        text: String,
    },
    /// The narrative so far is replaced by this text (a draft that pre-empted a roll).
    NarrativeReplaced {
        /// The narrative as it now stands.
        text: String,
    },
    /// A new story log entry: the move, a roll, state-change chips, the finished scene.
    Entry {
        /// Its index in the story log.
        index: u32,
        /// The entry.
        #[cfg_attr(
            target_arch = "wasm32",
            serde(deserialize_with = "crate::wire::tag_first::one")
        )]
        entry: StoryEntry,
    },
    /// The character changed.
    Sheet {
        /// The character panel now (boxed: it is by far the largest update).
        sheet: Box<SheetView>,
    },
    /// The rules accepted an outcome table; its die is being rolled (the roll follows as a
    /// story entry).
    TablePending {
        /// The table.
        table: StoryTable,
    },
    /// The game master's style or the table's lines and veils changed.
    Agreement {
        /// The style, lines and veils now.
        agreement: TableAgreement,
    },
    /// The model's working context changed (a delta of the second history).
    Model {
        /// What changed.
        change: ModelChange,
    },
    /// The changes waiting for the player changed.
    Proposals {
        /// Every proposal still waiting.
        pending: Vec<ProposalView>,
    },
    /// The actions on offer changed.
    Actions {
        /// The buttons.
        actions: Vec<ActionView>,
    },
    /// A fight began, moved on or ended.
    Encounter {
        /// The fight under way, or `None` once it is over.
        encounter: Option<EncounterView>,
    },
    /// The journal changed.
    Journal {
        /// Every entry now.
        entries: Vec<JournalEntry>,
    },
    /// The story's spine changed.
    Spine {
        /// The story so far now.
        spine: SpineView,
    },
    /// The move is in and the round waits for the other seats (the last update of a move).
    RoundWaiting {
        /// The table as the mover's seat sees it.
        table: TableView,
    },
    /// The table changed: someone joined, left or moved, a member's sheet changed.
    Table {
        /// Everyone at the table, the host's hero first.
        members: Vec<MemberView>,
    },
    /// The map changed, or where the character is on it.
    Map {
        /// The map now: its drawing and its places.
        #[serde(default)]
        map: MapView,
    },
    /// The new campaign is saved with its opening scene and first actions.
    Created {
        /// The campaign.
        summary: CampaignSummary,
    },
    /// Why the turn is taking longer (the model is being asked again).
    Waiting {
        /// What the player is told.
        text: String,
    },
    /// The turn is complete and saved (its actions follow from `next_actions`).
    Done {
        /// The campaign's turn now.
        turn: u32,
        /// Tokens spent so far: (prompt, completion).
        tokens: (u32, u32),
    },
    /// The turn failed; nothing was saved.
    Error {
        /// Why.
        error: AppError,
    },
}
