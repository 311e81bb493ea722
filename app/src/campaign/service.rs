//! The game as the server functions use it: create, load, play a turn, offer actions, delete.
//! Each phase commits its events in one transaction when it completes; a phase that fails
//! stores nothing.

use rand::Rng;

use super::event::{CampaignEvent, StoredEvent};
use super::projection::{sheet_view, verdict, CampaignState};
use super::store::{Append, CampaignRecord, CampaignStore, StoreError};
use super::turn_event::{ToolEffect, TurnEvent};
use super::view::{CampaignSummary, CampaignView, MoveInput, NewCampaign, StoryEntry, TurnUpdate};
use super::{CampaignId, PlayerId};
use crate::game::text::{CharacterName, ClassName, LocationName};
use crate::game::{CharacterSheet, Slug, StateDelta};
use crate::gm::turn::MoveText;
use crate::gm::{narrate, offer_actions, GmSettings, LlmPort, PlayerMove, TurnError};

/// The most characters of a premise.
pub const MAX_PREMISE_CHARS: usize = 300;

/// Why a game request failed, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The campaign does not exist (or is someone else's).
    #[error("campaign not found")]
    NotFound,
    /// The campaign moved on (another tab played).
    #[error("this campaign has moved on to turn {current} in another tab; reload to continue")]
    Stale {
        /// Its turn now.
        current: u32,
    },
    /// The player's input is not usable.
    #[error("{0}")]
    Invalid(String),
    /// The game master failed; nothing was saved.
    #[error("the game master could not answer ({0}); nothing was lost, try again")]
    Gm(String),
    /// The database failed.
    #[error("{0}")]
    Store(String),
    /// The stored campaign cannot be read.
    #[error("this campaign's log cannot be read: {0}")]
    Corrupt(String),
}

impl From<StoreError> for GameError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound => Self::NotFound,
            StoreError::Stale { current } => Self::Stale { current },
            StoreError::Database(_) => Self::Store(error.to_string()),
        }
    }
}

impl From<TurnError> for GameError {
    fn from(error: TurnError) -> Self {
        Self::Gm(error.to_string())
    }
}

/// The game's dependencies: the database, the model and the turn's limits.
pub struct Game<'a> {
    /// The campaign database.
    pub store: &'a dyn CampaignStore,
    /// The model.
    pub llm: &'a dyn LlmPort,
    /// The turn's limits.
    pub gm: &'a GmSettings,
}

/// A move as the browser sent it, for the turn the browser showed.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The campaign's turn when the player moved.
    pub expected_turn: u32,
    /// The move.
    pub input: &'a MoveInput,
}

/// Receives a running turn's updates.
pub type UpdateSink<'s> = &'s mut (dyn FnMut(TurnUpdate) + Send);

impl Game<'_> {
    /// Starts a campaign: its sheet, its opening scene (phase 1) and the first actions
    /// (phase 2). Nothing is stored unless the opening scene was written.
    pub async fn create<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        form: &NewCampaign,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<CampaignView, GameError> {
        let premise = MoveText::parse(&form.premise)
            .map_err(|error| GameError::Invalid(format!("premise: {error}")))?;
        if premise.as_str().chars().count() > MAX_PREMISE_CHARS {
            return Err(GameError::Invalid(format!(
                "premise: at most {MAX_PREMISE_CHARS} characters"
            )));
        }
        let invalid = |error: crate::game::TextError| GameError::Invalid(error.to_string());
        let sheet = CharacterSheet::new(
            CharacterName::new(&form.name).map_err(invalid)?,
            ClassName::new(&form.class).map_err(invalid)?,
            LocationName::new("The beginning").map_err(invalid)?,
        );
        let record = CampaignRecord {
            id: CampaignId::random(rng),
            owner: owner.clone(),
            title: format!("{} the {}", sheet.name().as_str(), sheet.class().as_str()),
            created_at: now,
            updated_at: now,
            turn: 1,
        };
        let mut relay = Relay::new(&sheet, updates);
        let narration = narrate(
            self.llm,
            self.gm,
            &sheet,
            &[],
            &PlayerMove::Opening(premise.clone()),
            rng,
            &mut |event| relay.forward(event),
        )
        .await?;
        let start = StoredEvent {
            turn: 0,
            event: CampaignEvent::Started {
                premise: premise.as_str().to_owned(),
                sheet,
            },
        };
        let opening = CampaignEvent::from_narration(&narration)
            .into_iter()
            .map(|event| StoredEvent { turn: 1, event });
        let events: Vec<StoredEvent> = std::iter::once(start).chain(opening).collect();
        self.store.create(&record, &events).await?;
        self.actions_or_view(owner, &record.id, now).await
    }

    /// The player's campaigns, most recently played first.
    pub async fn list(&self, owner: &PlayerId) -> Result<Vec<CampaignSummary>, GameError> {
        Ok(self
            .store
            .list(owner)
            .await?
            .into_iter()
            .map(summary)
            .collect())
    }

    /// A campaign as the play screen shows it, with its actions generated first if the last
    /// scene has none yet (the player left between the phases).
    pub async fn load(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<CampaignView, GameError> {
        self.ensure_actions(owner, id, now).await
    }

    /// Phase 1: plays the player's move for `expected_turn`, streaming updates, and stores it.
    /// Returns the campaign's new turn.
    pub async fn play<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        request: MoveRequest<'_>,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<CampaignView, GameError> {
        let MoveRequest {
            expected_turn,
            input,
        } = request;
        let (record, state) = self.state(owner, id).await?;
        if record.turn != expected_turn {
            return Err(GameError::Stale {
                current: record.turn,
            });
        }
        let player_move = match input {
            MoveInput::Text { text } => PlayerMove::Text(
                MoveText::parse(text).map_err(|error| GameError::Invalid(error.to_string()))?,
            ),
            MoveInput::Action { id: action_id } => {
                let offered = state.actions.as_ref().ok_or_else(|| {
                    GameError::Invalid("the actions for this scene are not ready yet".into())
                })?;
                let action = Slug::new(action_id)
                    .ok()
                    .and_then(|slug| offered.get(&slug).cloned())
                    .ok_or_else(|| {
                        GameError::Invalid("that action is not on offer any more".into())
                    })?;
                PlayerMove::Action(action)
            }
        };
        let mut relay = Relay::new(&state.sheet, updates);
        let narration = narrate(
            self.llm,
            self.gm,
            &state.sheet,
            &state.llm_history,
            &player_move,
            rng,
            &mut |event| relay.forward(event),
        )
        .await?;
        let events = CampaignEvent::from_narration(&narration);
        self.store
            .append(owner, id, expected_turn, Append::NextTurn, &events, now)
            .await?;
        let (record, state) = self.state(owner, id).await?;
        Ok(self.view(record, &state))
    }

    /// Phase 2 for the campaign's current turn: generates and stores its actions if missing.
    pub async fn ensure_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<CampaignView, GameError> {
        let (record, state) = self.state(owner, id).await?;
        if state.actions.is_some() || record.turn == 0 {
            return Ok(self.view(record, &state));
        }
        let events = offer_actions(self.llm, self.gm, &state.sheet, &state.llm_history).await?;
        let events: Vec<CampaignEvent> = events.into_iter().map(CampaignEvent::Turn).collect();
        match self
            .store
            .append(owner, id, record.turn, Append::SameTurn, &events, now)
            .await
        {
            Ok(_) | Err(StoreError::Stale { .. }) => {}
            Err(error) => return Err(error.into()),
        }
        let (record, state) = self.state(owner, id).await?;
        Ok(self.view(record, &state))
    }

    /// Starts a campaign over: a new campaign from the same premise and starting character
    /// (both histories empty, a fresh opening scene), replacing the old one. The old log is
    /// deleted only once the new campaign exists.
    pub async fn restart<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignView, GameError> {
        let (_, events) = self.store.load(owner, id).await?;
        let Some(CampaignEvent::Started { premise, sheet }) = events.first().map(|e| &e.event)
        else {
            return Err(GameError::Corrupt("the campaign has no start".into()));
        };
        let form = NewCampaign {
            premise: premise.clone(),
            name: sheet.name().as_str().to_owned(),
            class: sheet.class().as_str().to_owned(),
        };
        let view = self.create(owner, &form, now, rng, &mut |_| {}).await?;
        self.store.delete(owner, id).await?;
        Ok(view)
    }

    /// The campaign with its actions if they can be generated now; once a phase is saved, a
    /// failure of the next one must not look like a failure of the whole request (the play
    /// screen's load generates missing actions).
    async fn actions_or_view(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<CampaignView, GameError> {
        match self.ensure_actions(owner, id, now).await {
            Err(GameError::Gm(error)) => {
                tracing::warn!(%error, "the first actions could not be generated yet");
                let (record, state) = self.state(owner, id).await?;
                Ok(self.view(record, &state))
            }
            other => other,
        }
    }

    /// Deletes a campaign.
    pub async fn delete(&self, owner: &PlayerId, id: &CampaignId) -> Result<(), GameError> {
        Ok(self.store.delete(owner, id).await?)
    }

    async fn state(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> Result<(CampaignRecord, CampaignState), GameError> {
        let (record, events) = self.store.load(owner, id).await?;
        let state = CampaignState::project(&events)
            .map_err(|error| GameError::Corrupt(error.to_string()))?;
        Ok((record, state))
    }

    fn view(&self, record: CampaignRecord, state: &CampaignState) -> CampaignView {
        CampaignView {
            story: state.story.clone(),
            sheet: state.sheet_view(),
            actions: state.action_views(),
            llm_history: state.llm_views(),
            tokens: (state.usage.prompt_tokens, state.usage.completion_tokens),
            model: self.llm.model_info().model,
            summary: summary(record),
        }
    }
}

fn summary(record: CampaignRecord) -> CampaignSummary {
    CampaignSummary {
        last_played: human_time(record.updated_at),
        id: record.id,
        title: record.title,
        updated_at: record.updated_at,
        turn: record.turn,
    }
}

/// `2026-11-21 14:05 UTC`.
fn human_time(seconds: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|moment| moment.format(&format).ok())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Turns the engine's events into the play screen's updates as they happen.
struct Relay<'s, 'u> {
    sheet: CharacterSheet,
    sink: &'s mut (dyn FnMut(TurnUpdate) + Send + 'u),
}

impl<'s, 'u> Relay<'s, 'u> {
    fn new(sheet: &CharacterSheet, sink: &'s mut (dyn FnMut(TurnUpdate) + Send + 'u)) -> Self {
        Self {
            sheet: sheet.clone(),
            sink,
        }
    }

    fn forward(&mut self, event: &TurnEvent) {
        let update = match event {
            TurnEvent::NarrativeDelta { text } => TurnUpdate::Narrative { text: text.clone() },
            TurnEvent::NarrativeReplaced { text } => {
                TurnUpdate::NarrativeReplaced { text: text.clone() }
            }
            TurnEvent::Move { text, .. } => entry(StoryEntry::Move { text: text.clone() }),
            TurnEvent::PlayerRoll {
                description,
                resolution,
                ..
            } => entry(StoryEntry::Roll {
                line: description.clone(),
                verdict: verdict(resolution),
            }),
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Rolled { reason, roll }),
                ..
            } => entry(StoryEntry::Roll {
                line: roll.describe(reason),
                verdict: None,
            }),
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Changed { deltas, changes }),
                ..
            } => {
                if StateDelta::apply_all(deltas, &mut self.sheet).is_ok() {
                    (self.sink)(TurnUpdate::Sheet {
                        sheet: sheet_view(&self.sheet),
                    });
                }
                entry(StoryEntry::Changes {
                    labels: changes.labels(),
                })
            }
            _ => return,
        };
        (self.sink)(update);
    }
}

fn entry(entry: StoryEntry) -> TurnUpdate {
    TurnUpdate::Entry { entry }
}
