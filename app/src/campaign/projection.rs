//! A campaign's log folded into what the game needs now: the character sheet, the story log
//! the player reads, the history the model reads, and the actions on offer.

use super::conversation::{Message, TokenUsage};
use super::event::{CampaignEvent, StoredEvent};
use super::markdown;
use super::turn_event::{ToolEffect, TurnEvent};
use super::view::{
    ActionView, AttributeView, ItemView, LlmEntryView, SheetView, StoryEntry, Verdict,
};
use crate::game::{ActionList, Attribute, CharacterSheet, DeltaError, Resolution, StateDelta};

/// The current state of a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignState {
    /// The premise.
    pub premise: String,
    /// The character sheet now.
    pub sheet: CharacterSheet,
    /// The story log (UI history).
    pub story: Vec<StoryEntry>,
    /// The model's history (LLM history).
    pub llm_history: Vec<Message>,
    /// The latest turn that has events.
    pub turn: u32,
    /// The actions offered for the latest turn, if generated yet.
    pub actions: Option<ActionList>,
    /// Tokens spent over the whole campaign.
    pub usage: TokenUsage,
}

/// Why a log cannot be folded (it was written by a different version, or damaged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProjectionError {
    /// The log does not begin with `Started`.
    #[error("the campaign log does not start with the campaign's start")]
    NotStarted,
    /// A stored change no longer applies.
    #[error("a stored change no longer applies: {0}")]
    Delta(#[from] DeltaError),
}

impl CampaignState {
    /// Folds a campaign's events, oldest first.
    pub fn project(events: &[StoredEvent]) -> Result<Self, ProjectionError> {
        let Some(StoredEvent {
            event: CampaignEvent::Started { premise, sheet },
            ..
        }) = events.first()
        else {
            return Err(ProjectionError::NotStarted);
        };
        let mut state = Self {
            premise: premise.clone(),
            sheet: sheet.clone(),
            story: Vec::new(),
            llm_history: Vec::new(),
            turn: 0,
            actions: None,
            usage: TokenUsage::default(),
        };
        for stored in &events[1..] {
            if stored.turn > state.turn {
                state.turn = stored.turn;
                state.actions = None;
            }
            state.apply(&stored.event)?;
        }
        Ok(state)
    }

    fn apply(&mut self, event: &CampaignEvent) -> Result<(), ProjectionError> {
        match event {
            CampaignEvent::Started { .. } => {}
            CampaignEvent::ModelMessages { messages } => {
                self.llm_history.extend(messages.iter().cloned())
            }
            CampaignEvent::Turn(event) => self.apply_turn(event)?,
        }
        Ok(())
    }

    fn apply_turn(&mut self, event: &TurnEvent) -> Result<(), ProjectionError> {
        match event {
            TurnEvent::Move { text, .. } => {
                self.story.push(StoryEntry::Move { text: text.clone() })
            }
            TurnEvent::PlayerRoll {
                description,
                resolution,
                ..
            } => self.story.push(StoryEntry::Roll {
                line: description.clone(),
                verdict: verdict(resolution),
            }),
            TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            } => match effect {
                ToolEffect::Rolled { reason, roll } => self.story.push(StoryEntry::Roll {
                    line: roll.describe(reason),
                    verdict: None,
                }),
                ToolEffect::Changed { deltas, changes } => {
                    StateDelta::apply_all(deltas, &mut self.sheet)?;
                    let labels = changes.labels();
                    if !labels.is_empty() {
                        self.story.push(StoryEntry::Changes { labels });
                    }
                }
                ToolEffect::Read => {}
            },
            TurnEvent::Narration { text } => self.story.push(StoryEntry::Scene {
                html: markdown::render(text),
            }),
            TurnEvent::ActionsOffered { actions, .. } => self.actions = Some(actions.clone()),
            TurnEvent::Usage { usage, .. } => self.usage += *usage,
            TurnEvent::ToolResult { effect: None, .. }
            | TurnEvent::ToolCalled { .. }
            | TurnEvent::NarrativeDelta { .. }
            | TurnEvent::NarrativeReplaced { .. } => {}
        }
        Ok(())
    }

    /// The character panel.
    pub fn sheet_view(&self) -> SheetView {
        sheet_view(&self.sheet)
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

    /// The model's history for the "what the GM sees" drawer.
    pub fn llm_views(&self) -> Vec<LlmEntryView> {
        self.llm_history.iter().map(llm_view).collect()
    }
}

/// How a player's roll went, for the story log.
pub(crate) fn verdict(resolution: &Resolution) -> Option<Verdict> {
    match resolution {
        Resolution::Check(check) if check.is_success() => Some(Verdict::Success),
        Resolution::Check(_) => Some(Verdict::Failure),
        Resolution::Roll(_) => None,
    }
}

/// The character panel of `sheet`.
pub fn sheet_view(sheet: &CharacterSheet) -> SheetView {
    let hp = sheet.hit_points();
    SheetView {
        name: sheet.name().as_str().to_owned(),
        class: sheet.class().as_str().to_owned(),
        level: sheet.level().value(),
        hp: hp.current(),
        max_hp: hp.max(),
        sanity: sheet.sanity().map(|sanity| sanity.value()),
        attributes: Attribute::ALL
            .iter()
            .map(|&attribute| {
                let score = sheet.attributes().get(attribute);
                AttributeView {
                    name: attribute.abbreviation().to_owned(),
                    score: score.value(),
                    modifier: score.modifier(),
                }
            })
            .collect(),
        conditions: sheet
            .conditions()
            .list()
            .iter()
            .map(|condition| match &condition.duration {
                Some(duration) => format!("{} ({})", condition.name.as_str(), duration.as_str()),
                None => condition.name.as_str().to_owned(),
            })
            .collect(),
        inventory: sheet
            .inventory()
            .items()
            .iter()
            .map(|item| ItemView {
                name: item.name().as_str().to_owned(),
                quantity: item.quantity().value(),
                description: item.description().map(|d| d.as_str().to_owned()),
            })
            .collect(),
        location: sheet.location().as_str().to_owned(),
        time: sheet.time().to_string(),
    }
}

fn llm_view(message: &Message) -> LlmEntryView {
    let (role, content, tool_calls) = match message {
        Message::System { content } => ("system", content.clone(), Vec::new()),
        Message::User { content } => ("user", content.clone(), Vec::new()),
        Message::Assistant {
            content,
            tool_calls,
        } => (
            "assistant",
            content.clone().unwrap_or_default(),
            tool_calls
                .iter()
                .map(|call| format!("{}({})", call.name, call.arguments))
                .collect(),
        ),
        Message::Tool { content, .. } => ("tool", content.clone(), Vec::new()),
    };
    LlmEntryView {
        role: role.to_owned(),
        content,
        tool_calls,
    }
}
