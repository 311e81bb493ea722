//! The campaign's current state (the snapshot the store keeps beside the log) and the one
//! projector that moves it forward: [`CampaignState::apply`] applies one event and says what the
//! player sees change. A live turn and a replay of the log both go through it, so they cannot
//! disagree.

use serde::{Deserialize, Serialize};

use super::conversation::{Message, TokenUsage};
use super::event::{CampaignEvent, StoredEvent};
use super::markdown;
use super::present::sheet_view;
use super::turn_event::{ToolEffect, TurnEvent};
use super::view::{ActionView, StoryEntry, TurnUpdate, Verdict};
use crate::game::{ActionList, CharacterSheet, DeltaError, Resolution, StateDelta};

/// How many of the latest turns' model messages the snapshot keeps as the model's working
/// context (the game master trims it further to its character budget).
pub const CONTEXT_TURNS: usize = 12;

/// Everything a turn needs to know about a campaign, without reading its log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    /// The premise.
    pub premise: String,
    /// The character sheet now.
    pub sheet: CharacterSheet,
    /// The latest turn that has events (1 is the opening scene).
    pub turn: u32,
    /// The actions offered for the latest turn, once generated.
    pub actions: Option<ActionList>,
    /// Tokens spent over the whole campaign.
    pub usage: TokenUsage,
    /// The model's messages of the latest turns, oldest first (at most [`CONTEXT_TURNS`]).
    pub context: Vec<Vec<Message>>,
    /// How many entries the story log (what the player reads) has.
    pub story_len: u32,
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
            sheet,
            turn: 0,
            actions: None,
            usage: TokenUsage::default(),
            context: Vec::new(),
            story_len: 0,
        }
    }

    /// Replays a whole log, oldest event first.
    pub fn replay(events: &[StoredEvent]) -> Result<Replay, ProjectionError> {
        let Some(StoredEvent {
            event: CampaignEvent::Started { premise, sheet },
            ..
        }) = events.first()
        else {
            return Err(ProjectionError::NotStarted);
        };
        let mut state = Self::start(premise, sheet.clone());
        let mut story = Vec::new();
        for stored in &events[1..] {
            story.extend(state.apply(stored)?.into_iter().filter_map(entry_of));
        }
        Ok(Replay { state, story })
    }

    /// The projector: applies one event and returns what the player sees change (story entries
    /// with their index, the sheet, the actions, streamed text). A failed change leaves the
    /// state as it was.
    pub fn apply(&mut self, stored: &StoredEvent) -> Result<Vec<TurnUpdate>, ProjectionError> {
        if stored.turn > self.turn {
            self.turn = stored.turn;
            self.actions = None;
        }
        match &stored.event {
            CampaignEvent::Started { .. } => Err(ProjectionError::StartedTwice),
            CampaignEvent::ModelMessages { messages } => {
                self.context.push(messages.clone());
                if self.context.len() > CONTEXT_TURNS {
                    self.context.remove(0);
                }
                Ok(Vec::new())
            }
            CampaignEvent::Turn(event) => self.apply_turn(event),
        }
    }

    fn apply_turn(&mut self, event: &TurnEvent) -> Result<Vec<TurnUpdate>, ProjectionError> {
        let mut updates = Vec::new();
        match event {
            TurnEvent::Move { text, .. } => {
                updates.push(self.entry(StoryEntry::Move { text: text.clone() }))
            }
            TurnEvent::PlayerRoll {
                description,
                resolution,
                ..
            } => updates.push(self.entry(StoryEntry::Roll {
                line: description.clone(),
                verdict: verdict(resolution),
            })),
            TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            } => self.apply_effect(effect, &mut updates)?,
            TurnEvent::Narration { text, html } => {
                let html = if html.is_empty() {
                    markdown::render(text)
                } else {
                    html.clone()
                };
                updates.push(self.entry(StoryEntry::Scene { html }));
            }
            TurnEvent::ActionsOffered { actions, .. } => {
                self.actions = Some(actions.clone());
                updates.push(TurnUpdate::Actions {
                    actions: self.action_views(),
                });
            }
            TurnEvent::Usage { usage, .. } => self.usage += *usage,
            TurnEvent::NarrativeDelta { text } => {
                updates.push(TurnUpdate::Narrative { text: text.clone() })
            }
            TurnEvent::NarrativeReplaced { text } => {
                updates.push(TurnUpdate::NarrativeReplaced { text: text.clone() })
            }
            TurnEvent::ToolResult { effect: None, .. } | TurnEvent::ToolCalled { .. } => {}
        }
        Ok(updates)
    }

    fn apply_effect(
        &mut self,
        effect: &ToolEffect,
        updates: &mut Vec<TurnUpdate>,
    ) -> Result<(), ProjectionError> {
        match effect {
            ToolEffect::Rolled { reason, roll } => updates.push(self.entry(StoryEntry::Roll {
                line: roll.describe(reason),
                verdict: None,
            })),
            ToolEffect::Changed { deltas, changes } => {
                let mut sheet = self.sheet.clone();
                StateDelta::apply_all(deltas, &mut sheet)?;
                self.sheet = sheet;
                updates.push(TurnUpdate::Sheet {
                    sheet: sheet_view(&self.sheet),
                });
                let labels = changes.labels();
                if !labels.is_empty() {
                    updates.push(self.entry(StoryEntry::Changes { labels }));
                }
            }
            ToolEffect::Read => {}
        }
        Ok(())
    }

    fn entry(&mut self, entry: StoryEntry) -> TurnUpdate {
        let index = self.story_len;
        self.story_len += 1;
        TurnUpdate::Entry { index, entry }
    }

    /// The action buttons (empty until generated).
    pub fn action_views(&self) -> Vec<ActionView> {
        self.actions
            .iter()
            .flat_map(ActionList::actions)
            .map(|action| ActionView {
                id: action.id().to_string(),
                description: action.description().as_str().to_owned(),
                badge: action.badge(self.sheet.attributes()),
            })
            .collect()
    }

    /// The model's working context, oldest message first.
    pub fn context_messages(&self) -> Vec<Message> {
        self.context.concat()
    }
}

/// The story entry an update adds, if it adds one.
pub fn entry_of(update: TurnUpdate) -> Option<StoryEntry> {
    match update {
        TurnUpdate::Entry { entry, .. } => Some(entry),
        _ => None,
    }
}

/// How a player's roll went, for the story log.
fn verdict(resolution: &Resolution) -> Option<Verdict> {
    match resolution {
        Resolution::Check(check) if check.is_success() => Some(Verdict::Success),
        Resolution::Check(_) => Some(Verdict::Failure),
        Resolution::Roll(_) => None,
    }
}
