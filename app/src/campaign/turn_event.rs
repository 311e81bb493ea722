//! What happens during a turn, as typed events: the game master emits them, the player sees them
//! streamed as they happen, and the campaign log stores them when the phase completes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conversation::{RecalledPassage, TokenUsage, ToolCall};
use super::proposal::Proposed;
use crate::game::complication::Complication;
use crate::game::fight::FightRecord;
use crate::game::hazard::HazardRoll;
use crate::game::map::PlaceRecord;
use crate::game::oracle::OracleReading;
use crate::game::outcome_table::{OutcomeTable, TableRoll};
use crate::game::party::Seat;
use crate::game::sanity_check::SanityCheck;
use crate::game::spine::SpineEvent;
use crate::game::{ActionList, AppliedChanges, Check, JournalChange, Resolution, Roll, StateDelta};

/// Which phase of the turn an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The scene is narrated (with tools).
    Narrate,
    /// The next actions are proposed.
    Actions,
    /// Older turns are summarised (between turns).
    Summary,
}

/// One thing that happened in a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TurnEvent {
    /// The player's move.
    Move {
        /// What the player does (the chosen action's description, or their own words).
        text: String,
        /// The chosen action's id, if they clicked one.
        action_id: Option<String>,
    },
    /// The player's roll, made by the server before the narration.
    PlayerRoll {
        /// What it was for.
        reason: String,
        /// The roll and, with a DC, its verdict.
        resolution: Resolution,
        /// The line shown in the log and given to the narrator.
        description: String,
    },
    /// A friend's move in the round, made from their seat, and its roll against their own
    /// sheet (made by the server before the narration, like the host's).
    SeatMoved {
        /// The seat.
        seat: Seat,
        /// Their hero's name.
        name: String,
        /// What they do.
        text: String,
        /// The chosen action's id, if they clicked one.
        action_id: Option<String>,
        /// The roll, if the move made one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<MemberRoll>,
    },
    /// More narrative text (streamed only; the complete text arrives as [`TurnEvent::Narration`]).
    NarrativeDelta {
        /// The new text.
        text: String,
    },
    /// The model's call failed and is tried again: attempt `attempt` of at most `attempts`.
    /// Streamed only.
    Retrying {
        /// The attempt about to be made.
        attempt: u32,
        /// The most attempts.
        attempts: u32,
    },
    /// The narrative streamed so far is replaced by `text` (a draft that pre-empted a roll was
    /// dropped). Streamed only.
    NarrativeReplaced {
        /// The narrative as it now stands.
        text: String,
    },
    /// An outcome table the rules accepted, shown before its die is rolled. Streamed only (the
    /// table arrives again with its roll).
    TableShown {
        /// The table.
        table: OutcomeTable,
    },
    /// The rules changed the sheet on their own: a death save, or an item the player dropped
    /// from the character panel.
    Ruled {
        /// Why, in the player's words: `Death save`, `Dropped from the character panel`.
        cause: String,
        /// The deltas applied.
        deltas: Vec<StateDelta>,
        /// What actually changed.
        changes: AppliedChanges,
    },
    /// The player's move in a fight, played by the rules (an attack, a dodge, an escape, or a
    /// turn spent on something else while the foes act).
    Fought {
        /// The step, its dice and what happened.
        record: FightRecord,
        /// What it changed on the sheet (the foes' damage, the fight's experience).
        changes: AppliedChanges,
    },
    /// The player accepted or refused a change the game master proposed (approval mode).
    Decided {
        /// The proposal's number.
        id: u32,
        /// Whether they accepted it.
        accepted: bool,
        /// What it changed on the sheet (nothing when refused).
        changes: AppliedChanges,
    },
    /// The model called a tool.
    ToolCalled {
        /// The call as the model made it.
        call: ToolCall,
    },
    /// A tool call's result.
    ToolResult {
        /// The id of the call.
        call_id: String,
        /// The tool's name.
        tool: String,
        /// The result the model reads (or why the call was refused).
        result: String,
        /// What it did; `None` when it was refused.
        effect: Option<ToolEffect>,
    },
    /// The scene's complete narrative.
    Narration {
        /// Markdown.
        text: String,
        /// The same, as safe HTML, rendered once when the scene is written (empty in logs
        /// written before it was stored; the projector renders those).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        html: String,
    },
    /// The scene checked against what the rules did this turn: the player's notes where the
    /// prose claims what the rules did not (`the rules say: 5 damage, not 12`); empty when it
    /// agrees. The prose never changes the ledger.
    LedgerChecked {
        /// One note per contradiction left in the scene as saved.
        notes: Vec<String>,
        /// How many claims the saved scene made that the rules could check.
        #[serde(default)]
        claims: u32,
        /// The notes of the first draft, which the model was asked once to correct (empty when
        /// the first draft agreed, or the model was not asked).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        asked: Vec<String>,
    },
    /// The rules noted a name the scenes keep naming in the journal (for a model shown no
    /// tools); always a [`JournalChange::Noticed`].
    Noticed {
        /// The change.
        change: JournalChange,
    },
    /// The older passages of the story the rules recalled into the narration's prompt ("from
    /// earlier in the story"), with the words that brought each back.
    Recalled {
        /// The passages, by turn.
        passages: Vec<RecalledPassage>,
    },
    /// A failed roll that named what rides on it cost nothing in the scene: the rules' own
    /// complication (see [`complication`](crate::game::complication)), after the scene.
    Complicated {
        /// What the action said a failure costs.
        stakes: String,
        /// The table's die and the cost, with its dice.
        complication: Complication,
        /// What it changed.
        changes: AppliedChanges,
    },
    /// What the rules drew from the dice for each kind of roll of the telling (`oracle`,
    /// `check DEX`…), in order: told again, or made again after an undo, the turn gives each
    /// kind its draws back and rolls the same.
    DiceDrawn {
        /// The draws, by kind of roll.
        draws: BTreeMap<String, Vec<u64>>,
    },
    /// The actions offered to the player.
    ActionsOffered {
        /// The actions.
        actions: ActionList,
        /// Whether these are the safe fallback actions (the model's answer was unusable).
        fallback: bool,
        /// Whether the model's first answer was unusable and these came from its second, asked
        /// for with the reason.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        repaired: bool,
    },
    /// The story's spine changed: the plan made, a clock ticked, a chapter ended, a person met
    /// or swayed, the director's steer, a journey (see [`crate::game::spine`]).
    Spine {
        /// The change.
        change: SpineEvent,
    },
    /// Tokens one model call spent.
    Usage {
        /// In which phase.
        phase: Phase,
        /// How many.
        usage: TokenUsage,
    },
}

impl TurnEvent {
    /// The scene's complete narrative, with its HTML rendered.
    pub fn narration(text: String) -> Self {
        Self::Narration {
            html: super::markdown::render(&text),
            text,
        }
    }

    /// Whether the event is only streamed and never stored (its content arrives again whole).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::NarrativeDelta { .. }
                | Self::NarrativeReplaced { .. }
                | Self::Retrying { .. }
                | Self::TableShown { .. }
        )
    }
}

/// A roll made for a party member's move, against their sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberRoll {
    /// What it was for.
    pub reason: String,
    /// The roll and, with a DC, its verdict.
    pub resolution: Resolution,
    /// The line shown in the log and given to the narrator.
    pub description: String,
}

/// What a tool did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolEffect {
    /// Dice were rolled.
    Rolled {
        /// What for.
        reason: String,
        /// The roll, every die kept.
        roll: Roll,
    },
    /// The sheet changed.
    Changed {
        /// The deltas applied.
        deltas: Vec<StateDelta>,
        /// What actually changed.
        changes: AppliedChanges,
    },
    /// The sheet was read.
    Read,
    /// The journal changed.
    Noted {
        /// The change.
        change: JournalChange,
    },
    /// The player's check, asked for by the narrator and rolled by the server.
    Checked {
        /// What for.
        reason: String,
        /// The roll against its DC.
        check: Check,
    },
    /// The player's sanity save against horror, rolled by the server with the loss a failure
    /// costs.
    SanityChecked {
        /// What the character faced.
        reason: String,
        /// The save and the loss.
        check: SanityCheck,
        /// What it changed (sanity, and at 0 the madness).
        changes: AppliedChanges,
    },
    /// A hazard (a trap, a fall, fire, poison) rolled by the rules: its save, damage and what
    /// it changed.
    Hazard {
        /// What it was.
        what: String,
        /// The roll.
        hazard: HazardRoll,
        /// What it changed on the sheet.
        changes: AppliedChanges,
    },
    /// The oracle answered a question about the world.
    Asked {
        /// The question, the roll and the answer.
        reading: OracleReading,
    },
    /// In approval mode: a change that waits for the player instead of being applied.
    Proposed {
        /// Its number in the campaign.
        id: u32,
        /// What it would change.
        proposed: Proposed,
    },
    /// An outcome table was rolled.
    TableRolled {
        /// The table, the face and so its outcome.
        roll: TableRoll,
    },
    /// The game master spoke to the player outside the story.
    Aside {
        /// What they said.
        message: String,
    },
    /// A fight began or was called off.
    Fought {
        /// The step, its dice and what happened.
        record: FightRecord,
        /// What it changed on the sheet.
        changes: AppliedChanges,
    },
    /// A chapter of the plan ended, its goal met; or the model wrote the plan.
    Spine {
        /// The change.
        change: SpineEvent,
    },
    /// A place was recorded on the map.
    Mapped {
        /// The place and where it leads.
        record: PlaceRecord,
    },
    /// What a tool did to a party member's sheet, named in the call (see
    /// [`crate::game::party`]).
    ForMember {
        /// The member's name.
        name: String,
        /// What it did to their sheet.
        effect: Box<ToolEffect>,
    },
}
