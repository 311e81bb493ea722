//! What the browser receives about a campaign: plain data, rendered by the UI. Built on the
//! server by the projector (`state`) and `present`; nothing here is trusted back from the browser.

use serde::{Deserialize, Serialize};

use super::CampaignId;
pub use crate::campaign::story::{
    Roller, StoryDie, StoryEntry, StoryTable, StoryTableRow, Verdict, MAX_DICE_SHOWN,
};
pub use crate::campaign::title::MAX_TITLE_CHARS;
use crate::game::agreement::{AgreementError, Style, TableAgreement};
use crate::game::creation::CharacterDraft;
use crate::game::map::Place;
use crate::game::{JournalEntry, JournalKind, Stakes, Vitality};
use crate::wire::errors::AppError;

/// Campaigns per page of the home page's list.
pub const CAMPAIGN_PAGE: u32 = 20;

/// One page of the home page's list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignPage {
    /// The campaigns, most recently played first.
    pub campaigns: Vec<CampaignSummary>,
    /// Which page this is (0 is the most recent).
    pub page: u32,
    /// Whether older campaigns follow.
    pub more: bool,
}

/// A campaign in the home page's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignSummary {
    /// Its id.
    pub id: CampaignId,
    /// Its title (the character and the premise).
    pub title: String,
    /// When it was last played, seconds since the Unix epoch.
    pub updated_at: i64,
    /// The same, for people: `2026-11-21 14:05 UTC`.
    pub last_played: String,
    /// How many scenes have been narrated.
    pub turn: u32,
    /// The tokens its story has cost so far.
    #[serde(default)]
    pub spend: SpendView,
}

/// Tokens spent by model calls, and what they cost at the operator's prices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendView {
    /// Tokens sent.
    pub prompt: u32,
    /// Of those, the ones the provider served from its cache (when it says).
    pub cached: u32,
    /// Tokens written by the model.
    pub completion: u32,
    /// `$0.0123`, at the prices the operator set; none when no price is set.
    pub cost: Option<String>,
}

/// The tokens of one phase of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSpendView {
    /// `narrate`, `actions` or `summary`.
    pub phase: String,
    /// Its tokens.
    pub spend: SpendView,
}

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

/// A campaign in the trash, as the home page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrashedCampaign {
    /// The campaign as it was listed.
    pub campaign: CampaignSummary,
    /// When it was deleted, for people: `2026-11-21 14:05 UTC`.
    pub deleted: String,
    /// Whole days left before it is deleted for good (0 on its last day).
    pub days_left: u32,
}

impl TurnUpdate {
    /// Its kind in a campaign's event stream (a second screen's): `narrative` (the scene's
    /// text), `roll` (a roll's entry), `settlement` (what the rules changed), `state` (the
    /// sheet, journal, map, fight, proposals, agreement and other entries), `suggestions` (the
    /// actions), `done`, `error`.
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
            | Self::Created { .. } => "state",
            Self::Actions { .. } => "suggestions",
            Self::Done { .. } => "done",
            Self::Error { .. } => "error",
        }
    }
}

/// Whether the player has a recovery code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryStatus {
    /// When their code was made (`2026-11-21 14:05 UTC`), if they have one.
    pub made: Option<String>,
}

/// Which model is the game master, as the player is told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMasterView {
    /// The model's name, e.g. `SmolLM2-135M-Instruct`.
    pub model: String,
    /// Where it runs, in words: `bundled, running on this computer`, `Ollama on this computer`.
    pub source: String,
    /// Advice shown with it: for the bundled model, that stories will be rough and how to
    /// connect a stronger one.
    pub advice: Option<String>,
}

/// One line of the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LedgerRow {
    /// Something on the sheet changed.
    Change {
        /// The turn.
        turn: u32,
        /// What changed (`HP`, `Rope`, `State`).
        what: String,
        /// Its value before.
        before: String,
        /// Its value after.
        after: String,
        /// What caused it: an index into its page's [`LedgerPage::causes`].
        cause: u32,
    },
    /// Dice were rolled.
    Roll {
        /// The turn.
        turn: u32,
        /// Whose roll and what for.
        reason: String,
        /// The notation, e.g. `1d20+2`.
        notation: String,
        /// The dice, dropped ones marked: `14, (3 dropped)`.
        dice: String,
        /// The modifier added.
        modifier: i32,
        /// The total.
        total: i32,
        /// The difficulty class, if any.
        dc: Option<u8>,
        /// The verdict or the oracle's answer, if any.
        verdict: Option<String>,
    },
}

/// How many ledger rows the Ledger panel gets at a time.
pub const LEDGER_PAGE: u32 = 100;

/// The most characters of a cause the ledger shows (a longer one is cut, ending with `…`).
pub const MAX_CAUSE_CHARS: usize = 300;

/// A run of consecutive ledger rows, with each of their causes once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerPage {
    /// The index of the first row (0 when the page reaches the beginning).
    pub start: u32,
    /// The rows, oldest first.
    pub rows: Vec<LedgerRow>,
    /// What caused the page's changes, each once: the tool call as the model made it (at most
    /// [`MAX_CAUSE_CHARS`] characters), or the rule.
    pub causes: Vec<String>,
}

/// One attribute on the character panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributeView {
    /// `STR`, `DEX`, ...
    pub name: String,
    /// The score.
    pub score: u8,
    /// The modifier.
    pub modifier: i8,
}

/// One carried item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemView {
    /// Its key, sent back to use, equip or drop it.
    pub slug: String,
    /// Its name.
    pub name: String,
    /// How many.
    pub quantity: u16,
    /// What it is.
    pub description: Option<String>,
    /// What the rules make of it: `weapon 1d8 slashing`, `armour AC 11 + DEX`, `shield +2 AC`,
    /// `heals 2d4+2`; empty for gear.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// What the panel can do with it besides dropping it.
    #[serde(default)]
    pub handling: Handling,
}

/// What the character panel offers for an item besides dropping it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Handling {
    /// Gear: "Use" is a move for the game master.
    #[default]
    Gear,
    /// A consumable: "Use" asks the rules to use one.
    Consumable,
    /// A weapon, armour or shield not in hand: "Equip".
    Equippable,
    /// A weapon, armour or shield in hand: "Unequip".
    Equipped,
}

/// The character panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetView {
    /// Name.
    pub name: String,
    /// Class.
    pub class: String,
    /// Level.
    pub level: u8,
    /// Current hit points.
    pub hp: u16,
    /// Maximum hit points.
    pub max_hp: u16,
    /// Armour class, from what is equipped.
    pub armor_class: u8,
    /// Sanity, if the campaign tracks it.
    pub sanity: Option<u8>,
    /// STR DEX CON INT WIS CHA.
    pub attributes: Vec<AttributeView>,
    /// Conditions, e.g. `Poisoned (1 hour)`.
    pub conditions: Vec<String>,
    /// Inventory.
    pub inventory: Vec<ItemView>,
    /// Where the character is.
    pub location: String,
    /// In-game time, e.g. `Day 1, 08:00`.
    pub time: String,
    /// Experience points and the next level's threshold (none at level 20).
    pub experience: (u32, Option<u32>),
    /// Signature abilities: name and what it does.
    pub abilities: Vec<(String, Option<String>)>,
    /// The class's hit die and, for sheets that keep them as a pool, how many are left: `d8, 2 of 3 left`.
    pub hit_die: String,
    /// What 0 HP means.
    pub stakes: Stakes,
    /// On their feet, down, stable or fallen (the story is over).
    pub vitality: Vitality,
    /// The level's proficiency bonus.
    #[serde(default)]
    pub proficiency_bonus: i8,
    /// The skills the character is proficient in, each with what its check adds: `Stealth +5`.
    #[serde(default)]
    pub skills: Vec<String>,
    /// The saving throws the character is proficient in, each with what it adds: `DEX +5`.
    #[serde(default)]
    pub saves: Vec<String>,
    /// Ability score improvements earned and not yet spent.
    #[serde(default)]
    pub improvements_due: u8,
    /// Spells, slots, class features and rests, for sheets whose powers count.
    #[serde(default)]
    pub powers: Option<PowersView>,
}

/// The hero's powers as the character panel shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowersView {
    /// `INT: spell attack +5, save DC 13`, for a caster.
    pub casting: Option<String>,
    /// Slots by level that the class has: level, in all, left.
    pub slots: Vec<(u8, u8, u8)>,
    /// The spells known.
    pub spells: Vec<SpellView>,
    /// The spell held, if any.
    pub concentration: Option<String>,
    /// The class features.
    pub features: Vec<FeatureView>,
    /// Whether a short rest has just ended (hit dice may be spent).
    pub resting: bool,
    /// Hit dice left.
    pub hit_dice_left: u8,
}

/// A spell known, as the panel lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellView {
    /// Its key, sent back to cast it.
    pub slug: String,
    /// Its name.
    pub name: String,
    /// Its level (0: a cantrip).
    pub level: u8,
    /// What it does, in a line.
    pub summary: String,
    /// Why it cannot be cast now (no slot left…), if it cannot.
    pub refused: Option<String>,
    /// Whether it needs concentration.
    pub concentration: bool,
}

/// A class feature, as the panel lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureView {
    /// Its key, sent back to use it (`secondWind`).
    pub key: String,
    /// Its name.
    pub name: String,
    /// What it does, in a line.
    pub summary: String,
    /// Uses left and in all, for a feature that counts them.
    pub uses: Option<(u8, u8)>,
    /// Whether the panel can use it now (outside a fight: Second Wind, Arcane Recovery).
    pub usable: bool,
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

/// One message of the model's history, for the "what the GM sees" drawer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmEntryView {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text.
    pub content: String,
    /// Tool calls, as `name(arguments)`.
    pub tool_calls: Vec<String>,
}

/// A turn the model holds verbatim, its messages as sent (tool calls and results included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelTurnView {
    /// The turn.
    pub turn: u32,
    /// Its messages.
    pub messages: Vec<LlmEntryView>,
}

/// The model's working context, the history the model sees beside the one the player sees:
/// the turns it holds verbatim and the layers of its last prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelView {
    /// The turns held verbatim, oldest first.
    pub turns: Vec<ModelTurnView>,
    /// The layers of the last prompt, with their sizes.
    pub layers: Vec<LayerView>,
}

/// What a turn changed in the model's working context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelChange {
    /// Turns before this one are no longer held verbatim.
    pub from_turn: u32,
    /// The turn the model now holds, if one was added.
    pub added: Option<ModelTurnView>,
    /// The last prompt's layers, when a request was sent.
    pub layers: Option<Vec<LayerView>>,
}

impl ModelView {
    /// This view with `change` applied.
    pub fn apply(&mut self, change: &ModelChange) {
        self.turns.retain(|held| held.turn >= change.from_turn);
        if let Some(added) = &change.added {
            self.turns.retain(|held| held.turn != added.turn);
            self.turns.push(added.clone());
        }
        if let Some(layers) = &change.layers {
            self.layers.clone_from(layers);
        }
    }
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
    /// The places on the map.
    #[serde(default)]
    pub map: Vec<Place>,
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

/// What the game master sees, for the context inspector (loaded on open).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmContextView {
    /// The last request sent to the model for this campaign, if any was recorded.
    pub request: Option<RequestView>,
    /// The rules' check of the latest turn's scene, if it was checked.
    pub check: Option<LedgerCheckView>,
    /// The older passages the rules recalled into the latest narration, with the words that
    /// brought each back.
    #[serde(default)]
    pub recalled: Vec<FoundView>,
    /// Tokens spent so far: (prompt, completion).
    pub tokens: (u32, u32),
    /// The latest turn's tokens, by phase.
    #[serde(default)]
    pub turn_spend: Vec<PhaseSpendView>,
    /// The whole campaign's tokens and cost.
    #[serde(default)]
    pub spend: SpendView,
    /// The model's working context (the play screen keeps it up to date from each turn's
    /// stream).
    #[serde(default)]
    pub model: ModelView,
}

/// The rules' check of a scene against its turn's events (damage, healing, items, foes down,
/// conditions, XP, verdicts), as the context inspector shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerCheckView {
    /// The turn whose scene was checked.
    pub turn: u32,
    /// How many claims the saved scene made that the rules could check.
    pub claims: u32,
    /// The first draft's contradictions, which the model was asked once to correct (empty when
    /// it agreed, or the model was not asked).
    pub asked: Vec<String>,
    /// The contradictions left in the saved scene, which the player sees as notes beside it
    /// (empty when it agrees with the rules).
    pub notes: Vec<String>,
}

/// One request to the model, exactly as sent, with how its prompt was built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestView {
    /// What it asked for: `narration`, `actions` or `summary`.
    pub purpose: String,
    /// The prompt's layers in order, with their sizes.
    pub layers: Vec<LayerView>,
    /// The tools offered.
    pub tools: Vec<String>,
    /// The turns held verbatim (first, last), if any.
    pub window: Option<(u32, u32)>,
    /// The messages as sent.
    pub messages: Vec<LlmEntryView>,
    /// The request's size in bytes (messages and tools, as JSON).
    pub bytes: u32,
    /// How many of its first bytes were identical to the previous request's (the share a
    /// provider's prompt cache can reuse).
    pub shared_front_bytes: u32,
    /// The prompt's tokens, estimated before sending.
    pub estimated_tokens: u32,
    /// The prompt's tokens as the provider counted them, when it said.
    pub reported_tokens: Option<u32>,
}

/// One layer of a prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerView {
    /// Its name, e.g. `the story so far`.
    pub name: String,
    /// Its tokens (estimated).
    pub tokens: u32,
    /// Its bytes.
    pub bytes: u32,
}

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
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
    /// The map changed.
    Map {
        /// Every place now.
        places: Vec<Place>,
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

#[cfg(test)]
mod model_view_tests {
    use super::*;

    fn turn(turn: u32) -> ModelTurnView {
        ModelTurnView {
            turn,
            messages: vec![LlmEntryView {
                role: "user".into(),
                content: format!("move {turn}"),
                tool_calls: Vec::new(),
            }],
        }
    }

    #[test]
    fn the_model_view_follows_each_change() {
        let mut view = ModelView {
            turns: vec![turn(2), turn(3)],
            layers: Vec::new(),
        };
        view.apply(&ModelChange {
            from_turn: 3,
            added: Some(turn(4)),
            layers: None,
        });
        let held: Vec<u32> = view.turns.iter().map(|held| held.turn).collect();
        assert_eq!(held, [3, 4]);
        let layers = vec![LayerView {
            name: "the journal".into(),
            tokens: 12,
            bytes: 40,
        }];
        view.apply(&ModelChange {
            from_turn: 0,
            added: None,
            layers: Some(layers.clone()),
        });
        assert_eq!(view.layers, layers);
        assert_eq!(view.turns.len(), 2, "a layers change keeps the turns");
    }
}
