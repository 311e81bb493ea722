//! The campaign's current state (the snapshot the store keeps beside the log) and the one
//! projector that moves it forward: [`CampaignState::apply`] applies one event and says what the
//! player sees change. A live turn and a replay of the log both go through it, so they cannot
//! disagree.

use serde::{Deserialize, Serialize};

use super::conversation::{Message, RecalledPassage, TokenUsage};
use super::event::{CampaignEvent, StoredEvent};
use super::markdown;
use super::picture::{PictureRef, PictureTally};
use super::proposal::{Proposal, ProposalError};
use super::shown::Shown;
use super::story::{player_roll, story_dice, story_table, Roller, StoryEntry};
use super::timeline::{timeline, ShownDice, ShownFight, ShownRoll};
use super::turn_event::{Phase, TurnEvent};
use crate::game::agreement::TableAgreement;
use crate::game::combat::Combat;
use crate::game::complication::Complication;
use crate::game::fight::FightError;
use crate::game::map::{MapError, WorldMap};
use crate::game::party::{Party, PartyError};
use crate::game::spells::SpellBook;
use crate::game::spine::{Spine, SpineError};
use crate::game::{
    ActionList, AppliedChanges, CharacterSheet, DeltaError, Journal, JournalError, Roll, StateDelta,
};

/// The most turns the snapshot keeps verbatim for the model. Turns are normally folded into the
/// summary long before; this bounds the snapshot while summaries keep failing.
pub const MAX_VERBATIM_TURNS: usize = 40;

/// The model's messages of one turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextTurn {
    /// The turn.
    pub turn: u32,
    /// The messages it added to the model's history.
    pub messages: Vec<Message>,
}

/// "The story so far": the model's summary of the turns it no longer sees verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorySummary {
    /// The last turn it covers (it starts at the opening scene).
    pub through_turn: u32,
    /// The summary.
    pub text: String,
}

/// The rules' check of a turn's scene against its events: how many claims it made, what the
/// first draft was asked to correct, and the contradictions left, which the player reads as
/// notes beside the scene.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SceneCheck {
    /// The turn whose scene was checked.
    pub turn: u32,
    /// How many claims the saved scene made that the rules could check.
    pub claims: u32,
    /// The first draft's contradictions the model was asked once to correct.
    pub asked: Vec<String>,
    /// The contradictions left in the saved scene.
    pub notes: Vec<String>,
}

/// Everything a turn needs to know about a campaign, without reading its log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    /// The premise.
    pub premise: String,
    /// The character as created (part of the model's stable prompt prefix).
    pub origin: CharacterSheet,
    /// The character sheet now.
    pub sheet: CharacterSheet,
    /// The latest turn that has events (1 is the opening scene).
    pub turn: u32,
    /// The actions offered for the latest turn, once generated.
    pub actions: Option<ActionList>,
    /// Tokens spent over the whole campaign.
    pub usage: TokenUsage,
    /// The model's messages of the turns after the summary, oldest first (at most
    /// [`MAX_VERBATIM_TURNS`]). Not in the state's JSON: a store keeps it a turn per row, so a
    /// commit writes only the turns that changed.
    #[serde(skip)]
    pub context: Vec<ContextTurn>,
    /// The summary of the turns before them.
    pub summary: Option<StorySummary>,
    /// The journal.
    pub journal: Journal,
    /// The places recorded and how they connect.
    #[serde(default)]
    pub map: WorldMap,
    /// How many entries the story log (what the player reads) has.
    pub story_len: u32,
    /// How many undone turns can be redone.
    #[serde(default)]
    pub redoable: u32,
    /// The player's rolls already shown for a move from this turn, in turns taken back since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown_rolls: Vec<ShownRoll>,
    /// The fight's dice already shown for a move from this turn, in turns taken back since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown_fights: Vec<ShownFight>,
    /// The dice already drawn for a move from this turn, in turns taken back since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown_dice: Vec<ShownDice>,
    /// The fight under way, if any.
    #[serde(default, skip_serializing_if = "no_fight")]
    pub combat: Combat,
    /// The rules' check of the latest turn's scene, once it is narrated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger_check: Option<SceneCheck>,
    /// The older passages the rules recalled into the latest turn's narration.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recalled: Vec<RecalledPassage>,
    /// Whether the game master's changes wait for the player (approval mode).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub approval: bool,
    /// The tokens the latest turn's model calls cost, by phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_usage: Vec<PhaseUsage>,
    /// The game master's style and the table's lines and veils.
    #[serde(default, skip_serializing_if = "is_default_agreement")]
    pub agreement: TableAgreement,
    /// The game master's changes waiting for the player, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proposals: Vec<Proposal>,
    /// How many proposals the campaign has made (the next one's number is one more).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub proposals_made: u32,
    /// What the player refused in this turn, for the model's next telling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// The story's spine: the hidden plan, the clocks, the people met, the director's count.
    #[serde(default, skip_serializing_if = "is_default_spine")]
    pub spine: Spine,
    /// The latest roll of this turn (what led to a proposal made after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_roll: Option<String>,
    /// The friends seated at the table and the companions, each with their sheet.
    #[serde(default, skip_serializing_if = "Party::is_empty")]
    pub party: Party,
    /// How long a round waits for every seat, in seconds, when the host set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_wait: Option<u32>,
    /// The pictures drawn for the story so far (how many, their bytes, the portrait).
    #[serde(default, skip_serializing_if = "PictureTally::is_empty")]
    pub pictures: PictureTally,
}

/// The tokens one phase of a turn cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseUsage {
    /// The turn.
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// Its model calls' tokens, added up.
    pub usage: TokenUsage,
}

impl CampaignState {
    /// Adds a phase's tokens to the latest turn's (a new turn starts the tally again).
    fn note_usage(&mut self, turn: u32, phase: Phase, usage: TokenUsage) {
        self.turn_usage.retain(|noted| noted.turn == turn);
        match self
            .turn_usage
            .iter_mut()
            .find(|noted| noted.phase == phase)
        {
            Some(noted) => noted.usage += usage,
            None => self.turn_usage.push(PhaseUsage { turn, phase, usage }),
        }
    }
}

fn is_default_agreement(agreement: &TableAgreement) -> bool {
    *agreement == TableAgreement::default()
}

fn is_default_spine(spine: &Spine) -> bool {
    *spine == Spine::default()
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// Whether no fight is under way (the snapshot then leaves it out).
fn no_fight(combat: &Combat) -> bool {
    !combat.is_running()
}

/// Why an event cannot be applied (a log written by another version, or damaged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProjectionError {
    /// The log does not begin with `Started`.
    #[error("the campaign log does not start with the campaign's start")]
    NotStarted,
    /// The campaign started twice.
    #[error("the campaign log starts twice")]
    StartedTwice,
    /// A stored change no longer applies.
    #[error("a stored change no longer applies: {0}")]
    Delta(#[from] DeltaError),
    /// Undo and redo change which events are in effect: only a replay applies them.
    #[error("undo and redo are applied by replaying the log")]
    Rewind,
    /// A stored journal change no longer applies.
    #[error("a stored journal change no longer applies: {0}")]
    Journal(#[from] JournalError),
    /// A stored place no longer fits the map.
    #[error("a stored place no longer fits the map: {0}")]
    Map(#[from] MapError),
    /// A step of a fight the rules would not have played so.
    #[error("a fight step does not follow the rules: {0}")]
    Fight(#[from] FightError),
    /// A change of the story's spine the rules refuse.
    #[error("a change of the story's plan does not apply: {0}")]
    Spine(#[from] SpineError),
    /// A change of the table the rules refuse (a seat taken, a name used twice).
    #[error("a change of the table does not apply: {0}")]
    Party(#[from] PartyError),
    /// A change for a party member nobody at the table is called.
    #[error("nobody at the table is called {0}")]
    NoMember(String),
    /// An accepted proposal that no longer applies.
    #[error("an accepted change no longer applies: {0}")]
    Proposal(#[from] ProposalError),
    /// A proposal numbered out of order, or a decision on one that is not waiting.
    #[error("proposal {0} is not the one waiting or due")]
    NoProposal(u32),
    /// A decision whose stored changes are not what accepting or refusing does.
    #[error("a decision on proposal {0} does not match what it changes")]
    Decision(u32),
    /// A picture past the campaign's bounds.
    #[error("a picture does not fit: {0}")]
    Picture(super::picture::PictureBoundError),
}

/// A log replayed: the state and every story entry, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The state after the last event.
    pub state: CampaignState,
    /// The whole story log.
    pub story: Vec<StoryEntry>,
}

impl CampaignState {
    /// The state of a campaign that has just started (no scene yet).
    pub fn start(premise: &str, sheet: CharacterSheet) -> Self {
        Self {
            premise: premise.to_owned(),
            origin: sheet.clone(),
            sheet,
            turn: 0,
            actions: None,
            usage: TokenUsage::default(),
            context: Vec::new(),
            summary: None,
            journal: Journal::default(),
            map: WorldMap::default(),
            story_len: 0,
            redoable: 0,
            shown_rolls: Vec::new(),
            shown_fights: Vec::new(),
            shown_dice: Vec::new(),
            combat: Combat::default(),
            ledger_check: None,
            recalled: Vec::new(),
            approval: false,
            turn_usage: Vec::new(),
            agreement: TableAgreement::default(),
            pictures: PictureTally::default(),
            proposals: Vec::new(),
            proposals_made: 0,
            refused: Vec::new(),
            spine: Spine::default(),
            last_roll: None,
            party: Party::default(),
            round_wait: None,
        }
    }

    /// Replays a whole log, oldest event first: the events in effect (see [`timeline`]).
    pub fn replay(events: &[StoredEvent]) -> Result<Replay, ProjectionError> {
        let timeline = timeline(events);
        let Some(StoredEvent {
            event: CampaignEvent::Started { premise, sheet },
            ..
        }) = timeline.active.first()
        else {
            return Err(ProjectionError::NotStarted);
        };
        let mut state = Self::start(premise, sheet.clone());
        let mut story = Vec::new();
        for stored in &timeline.active[1..] {
            story.extend(
                state
                    .apply(stored)?
                    .into_iter()
                    .filter_map(Shown::into_entry),
            );
        }
        state.usage += timeline.set_aside_usage;
        state.redoable = timeline.redoable;
        state.shown_rolls = timeline.shown_rolls;
        state.shown_fights = timeline.shown_fights;
        state.shown_dice = timeline.shown_dice;
        Ok(Replay { state, story })
    }

    /// The projector: applies one event and returns what the player sees change (story entries
    /// with their index, the sheet, the actions, streamed text). A failed change leaves the
    /// state as it was.
    pub fn apply(&mut self, stored: &StoredEvent) -> Result<Vec<Shown>, ProjectionError> {
        if stored.turn > self.turn {
            self.turn = stored.turn;
            self.actions = None;
            // A new turn replaces whatever was undone.
            self.redoable = 0;
            self.shown_rolls.clear();
            self.shown_fights.clear();
            self.shown_dice.clear();
            self.ledger_check = None;
            self.recalled.clear();
            self.refused.clear();
            self.last_roll = None;
        }
        match &stored.event {
            CampaignEvent::Started { .. } => Err(ProjectionError::StartedTwice),
            CampaignEvent::Undone | CampaignEvent::Redone => Err(ProjectionError::Rewind),
            CampaignEvent::ModelMessages { messages } => {
                self.context.push(ContextTurn {
                    turn: stored.turn,
                    messages: messages.clone(),
                });
                if self.context.len() > MAX_VERBATIM_TURNS {
                    self.context.remove(0);
                }
                Ok(vec![Shown::Model {
                    from_turn: self.context.first().map_or(stored.turn, |held| held.turn),
                    turn: stored.turn,
                    messages: messages.clone(),
                }])
            }
            CampaignEvent::Summarized { through_turn, text } => {
                self.summary = Some(StorySummary {
                    through_turn: *through_turn,
                    text: text.clone(),
                });
                self.context.retain(|turn| turn.turn > *through_turn);
                Ok(Vec::new())
            }
            CampaignEvent::JournalEdited { change } => {
                self.journal.apply(change)?;
                Ok(vec![Shown::Journal])
            }
            CampaignEvent::Brought { changes } => {
                for change in changes {
                    self.journal.apply(change)?;
                }
                Ok(vec![Shown::Journal])
            }
            CampaignEvent::TableAgreed { agreement } => {
                self.agreement = agreement.clone();
                Ok(vec![Shown::Agreement])
            }
            CampaignEvent::NotesShown { on } => {
                self.spine.notes_shown = *on;
                Ok(vec![Shown::Spine])
            }
            CampaignEvent::ApprovalSet { on } => {
                self.approval = *on;
                Ok(Vec::new())
            }
            CampaignEvent::Seated { seat, sheet } => self.seat(*seat, sheet),
            CampaignEvent::Unseated { seat } => self.unseat(*seat),
            CampaignEvent::CompanionJoined { sheet } => self.add_companion(sheet),
            CampaignEvent::RoundWaitSet { secs } => {
                self.round_wait = Some(*secs);
                Ok(vec![Shown::Party])
            }
            CampaignEvent::Pictured { picture } => self.pictured(picture),
            CampaignEvent::Turn(event) => self.apply_turn(event, stored.turn),
        }
    }

    /// A picture drawn: counted within the campaign's bounds, and added to the story.
    fn pictured(&mut self, picture: &PictureRef) -> Result<Vec<Shown>, ProjectionError> {
        self.pictures
            .room_for(picture.bytes)
            .map_err(ProjectionError::Picture)?;
        self.pictures.add(picture);
        Ok(vec![self.entry(StoryEntry::Picture {
            id: picture.id.clone(),
            shows: picture.kind,
        })])
    }

    fn apply_turn(&mut self, event: &TurnEvent, turn: u32) -> Result<Vec<Shown>, ProjectionError> {
        let location = self.sheet.location().clone();
        let mut updates = self.apply_turn_event(event, turn)?;
        // The map marks where the character is: a move elsewhere redraws it.
        if !self.sheet.location().eq_ignore_case(&location)
            && !self.map.places().is_empty()
            && !updates.contains(&Shown::Map)
        {
            updates.push(Shown::Map);
        }
        Ok(updates)
    }

    fn apply_turn_event(
        &mut self,
        event: &TurnEvent,
        turn: u32,
    ) -> Result<Vec<Shown>, ProjectionError> {
        let mut updates = Vec::new();
        match event {
            TurnEvent::Move { text, .. } => updates.push(self.entry(StoryEntry::Move {
                text: text.clone(),
                by: None,
            })),
            TurnEvent::SeatMoved {
                name, text, roll, ..
            } => self.seat_moved(name, text, roll.as_ref(), &mut updates),
            TurnEvent::PlayerRoll {
                description,
                resolution,
                reason,
            } => updates.push(self.entry(player_roll(description, resolution, reason))),
            TurnEvent::Ruled {
                deltas, changes, ..
            } => self.apply_changes(deltas, changes, &mut updates)?,
            TurnEvent::Fought { record, changes } => {
                self.apply_fight(record, changes, &mut updates)?
            }
            TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            } => self.apply_effect(effect, &mut updates)?,
            TurnEvent::Narration { text, html } => {
                let html = scene_html(text, html);
                updates.push(self.entry(StoryEntry::Scene { html, turn }));
            }
            TurnEvent::Recalled { passages } => self.recalled = passages.clone(),
            TurnEvent::Spine { change } => self.apply_spine(change, &mut updates)?,
            // Quietly: the journal shows it, marked as the rules'; the story stays the scene's.
            TurnEvent::Noticed { change } => {
                self.journal.apply(change)?;
                updates.push(Shown::Journal);
            }
            TurnEvent::LedgerChecked {
                notes,
                claims,
                asked,
            } => self.apply_check(ledger_check(turn, notes, *claims, asked), &mut updates),
            TurnEvent::Complicated {
                stakes,
                complication,
                changes,
            } => self.apply_complication(stakes, complication, changes, &mut updates)?,
            TurnEvent::ActionsOffered { actions, .. } => {
                self.actions = Some(actions.clone());
                updates.push(Shown::Actions);
            }
            TurnEvent::Usage { phase, usage } => {
                self.usage += *usage;
                self.note_usage(turn, *phase, *usage);
            }
            TurnEvent::NarrativeDelta { text } => updates.push(Shown::Narrative(text.clone())),
            TurnEvent::NarrativeReplaced { text } => {
                updates.push(Shown::NarrativeReplaced(text.clone()))
            }
            TurnEvent::Retrying { attempt, attempts } => updates.push(Shown::Waiting {
                attempt: *attempt,
                attempts: *attempts,
            }),
            TurnEvent::Decided {
                id,
                accepted,
                changes,
            } => self.decide(*id, *accepted, changes, &mut updates)?,
            TurnEvent::TableShown { table } => {
                updates.push(Shown::TablePending(story_table(table)))
            }
            TurnEvent::ToolResult { effect: None, .. }
            | TurnEvent::ToolCalled { .. }
            | TurnEvent::DiceDrawn { .. } => {}
        }
        Ok(updates)
    }

    /// A failure's complication: the rules' note first, then the chips of what it changed.
    fn apply_complication(
        &mut self,
        stakes: &str,
        complication: &Complication,
        changes: &AppliedChanges,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        updates.push(self.entry(StoryEntry::RulesNote {
            text: complication_note(stakes, complication),
        }));
        self.apply_changes(&complication.deltas(), changes, updates)
    }

    /// Keeps the rules' check of the turn's scene for the context inspector, and shows the
    /// player its notes beside the scene.
    fn apply_check(&mut self, check: SceneCheck, updates: &mut Vec<Shown>) {
        for note in &check.notes {
            updates.push(self.entry(StoryEntry::RulesNote {
                text: capitalised(note),
            }));
        }
        self.ledger_check = Some(check);
    }

    /// Applies changes the rules made (by a tool or on their own) and shows their chips.
    pub(super) fn apply_changes(
        &mut self,
        deltas: &[StateDelta],
        changes: &AppliedChanges,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        let mut sheet = self.sheet.clone();
        StateDelta::apply_all(deltas, &mut sheet)?;
        let held = self.plan_items_held();
        self.sheet = sheet;
        self.note_found(held);
        // The dice of a spell, a feature or a hit die, shown as the player's roll.
        for (reason, roll) in deltas.iter().filter_map(power_roll) {
            updates.push(self.entry(StoryEntry::Roll {
                line: roll.describe(&reason),
                dice: story_dice(roll),
                analysis: None,
                verdict: None,
                by: Roller::Player,
                natural: None,
            }));
        }
        updates.push(Shown::Sheet);
        let labels = changes.labels();
        if !labels.is_empty() {
            updates.push(self.entry(StoryEntry::Changes { labels }));
        }
        Ok(())
    }

    /// Adds `entry` to the story log.
    pub(super) fn entry(&mut self, entry: StoryEntry) -> Shown {
        let index = self.story_len;
        self.story_len += 1;
        Shown::Entry { index, entry }
    }

    /// The turns the model may see verbatim, oldest first.
    pub fn verbatim_turns(&self) -> &[ContextTurn] {
        &self.context
    }
}

/// The rules' note of a failure's cost, beside the scene that left it out.
fn complication_note(stakes: &str, complication: &Complication) -> String {
    format!(
        "The roll failed and the scene let it cost nothing (at stake: {stakes}). The failure \
         costs {}.",
        complication.describe()
    )
}

/// `text` with its first letter in upper case.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A scene's HTML: as stored, or rendered from its Markdown for a scene stored without it.
fn scene_html(text: &str, html: &str) -> String {
    if html.is_empty() {
        markdown::render(text)
    } else {
        html.to_owned()
    }
}

/// A turn's ledger check as the snapshot keeps it.
fn ledger_check(turn: u32, notes: &[String], claims: u32, asked: &[String]) -> SceneCheck {
    SceneCheck {
        turn,
        claims,
        asked: asked.to_vec(),
        notes: notes.to_vec(),
    }
}

/// The roll a delta about powers carries, with what it is for: a healing spell's dice, Second
/// Wind's, a hit die's.
fn power_roll(delta: &StateDelta) -> Option<(String, &Roll)> {
    match delta {
        StateDelta::CastSpell {
            spell,
            roll: Some(roll),
            ..
        } => {
            let name = SpellBook::srd()
                .get(spell.as_str())
                .map_or_else(|_| spell.to_string(), |s| s.name.clone());
            Some((name, roll))
        }
        StateDelta::UseFeature {
            feature,
            roll: Some(roll),
        } => Some((feature.name().to_owned(), roll)),
        StateDelta::SpendHitDie { roll } => Some(("a hit die".to_owned(), roll)),
        _ => None,
    }
}
