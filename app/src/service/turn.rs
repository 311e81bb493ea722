//! The two phases of a turn: a move narrated and streamed (phase 1), then the next actions
//! (phase 2). Every event the game master emits goes through the projector as it happens: its
//! updates are what the player sees live, and the state it leaves is the snapshot committed.

use rand::Rng;

use super::{tokens, Game, ServiceError, UpdateSink};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::CampaignState;
use crate::campaign::store::{Append, CampaignRecord, Commit, StoreError};
use crate::campaign::turn_event::TurnEvent;
use crate::campaign::view::{ActionsView, MoveInput, StoryEntry, TurnUpdate};
use crate::campaign::{CampaignId, PlayerId};
use crate::game::Slug;
use crate::gm::{narrate, offer_actions, MoveText, Narration, PlayerMove};

/// A move as the browser sent it, for the turn the browser showed.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The campaign's turn when the player moved.
    pub expected_turn: u32,
    /// The move.
    pub input: &'a MoveInput,
}

/// A running phase's events applied to the state as they arrive.
pub(super) struct Projection<'u> {
    /// The state so far.
    pub state: CampaignState,
    /// The turn the events belong to.
    pub turn: u32,
    /// The story entries added so far.
    pub story: Vec<StoryEntry>,
    /// The first event that did not apply, if any.
    pub failed: Option<crate::campaign::state::ProjectionError>,
    /// Where the player's updates go.
    pub sink: UpdateSink<'u>,
}

impl<'u> Projection<'u> {
    pub(super) fn new(state: CampaignState, turn: u32, sink: UpdateSink<'u>) -> Self {
        Self {
            state,
            turn,
            story: Vec::new(),
            failed: None,
            sink,
        }
    }

    /// Applies one event and passes its updates on.
    pub(super) fn apply(&mut self, event: CampaignEvent) {
        if self.failed.is_some() {
            return;
        }
        let stored = StoredEvent {
            turn: self.turn,
            event,
        };
        match self.state.apply(&stored) {
            Ok(updates) => {
                for update in updates {
                    if let TurnUpdate::Entry { entry, .. } = &update {
                        self.story.push(entry.clone());
                    }
                    (self.sink)(update);
                }
            }
            Err(error) => self.failed = Some(error),
        }
    }

    /// The state and story after every event, or the first failure.
    pub(super) fn finish(self) -> Result<(CampaignState, Vec<StoryEntry>), ServiceError> {
        match self.failed {
            Some(error) => Err(error.into()),
            None => Ok((self.state, self.story)),
        }
    }
}

/// A narration's result: the events to store, the state after them and the story entries they
/// add.
pub(super) type Narrated = (Vec<CampaignEvent>, CampaignState, Vec<StoryEntry>);

impl Game<'_> {
    /// Phase 1 through the projector: narrates `player_move` from the projection's state, every
    /// event applied (and shown to the player) as it happens; the model's new messages last.
    pub(super) async fn narrate<R: Rng + Send>(
        &self,
        mut projection: Projection<'_>,
        player_move: &PlayerMove,
        rng: &mut R,
    ) -> Result<Narrated, ServiceError> {
        let sheet = projection.state.sheet.clone();
        let history = projection.state.context_messages();
        let narration = narrate(
            self.llm,
            self.gm,
            &sheet,
            &history,
            player_move,
            rng,
            &mut |event: &TurnEvent| projection.apply(CampaignEvent::Turn(event.clone())),
        )
        .await?;
        let Narration {
            events, messages, ..
        } = narration;
        let mut events: Vec<CampaignEvent> = events.into_iter().map(CampaignEvent::Turn).collect();
        events.push(CampaignEvent::ModelMessages { messages });
        if let Some(messages) = events.last() {
            projection.apply(messages.clone());
        }
        let (state, story) = projection.finish()?;
        Ok((events, state, story))
    }

    /// Phase 1: plays the player's move for `expected_turn`, streaming updates, and commits it.
    /// Returns the campaign's new turn and its token totals.
    pub async fn play<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        request: MoveRequest<'_>,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<(u32, (u32, u32)), ServiceError> {
        let (record, state) = self.current(owner, id).await?;
        if record.turn != request.expected_turn {
            return Err(ServiceError::Stale {
                current: record.turn,
            });
        }
        let player_move = parse_move(request.input, &state)?;
        let _running = self.in_flight.take(id).ok_or(ServiceError::Busy)?;
        let projection = Projection::new(state, record.turn + 1, updates);
        let (events, state, story) = self.narrate(projection, &player_move, rng).await?;
        let commit = Commit {
            events: &events,
            story: &story,
            state: &state,
        };
        let turn = self
            .store
            .commit(owner, id, record.turn, Append::NextTurn, commit, now)
            .await?;
        Ok((turn, tokens(&state)))
    }

    /// Phase 2 for the campaign's current turn: generates and commits its actions if missing.
    pub async fn ensure_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<ActionsView, ServiceError> {
        let (record, state) = self.current(owner, id).await?;
        let (_, state) = self.generate_actions(owner, id, record, state, now).await?;
        Ok(ActionsView {
            turn: state.turn,
            actions: state.action_views(),
            tokens: tokens(&state),
        })
    }

    /// The campaign with its actions if they can be generated now: once a phase is saved, a
    /// failure of the next one (or another request generating them) must not fail the load.
    pub(super) async fn actions_if_possible(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<(CampaignRecord, CampaignState), ServiceError> {
        let (record, state) = self.current(owner, id).await?;
        match self
            .generate_actions(owner, id, record.clone(), state.clone(), now)
            .await
        {
            Err(ServiceError::Gm(error)) => {
                tracing::warn!(%error, "the actions could not be generated yet");
                Ok((record, state))
            }
            Err(ServiceError::Busy) => Ok((record, state)),
            other => other,
        }
    }

    async fn generate_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        record: CampaignRecord,
        state: CampaignState,
        now: i64,
    ) -> Result<(CampaignRecord, CampaignState), ServiceError> {
        if state.actions.is_some() || record.turn == 0 {
            return Ok((record, state));
        }
        let _running = self.in_flight.take(id).ok_or(ServiceError::Busy)?;
        let history = state.context_messages();
        let events = offer_actions(self.llm, self.gm, &state.sheet, &history).await?;
        let events: Vec<CampaignEvent> = events.into_iter().map(CampaignEvent::Turn).collect();
        let mut ignore = |_| {};
        let mut projection = Projection::new(state, record.turn, &mut ignore);
        for event in &events {
            projection.apply(event.clone());
        }
        let (state, story) = projection.finish()?;
        let commit = Commit {
            events: &events,
            story: &story,
            state: &state,
        };
        match self
            .store
            .commit(owner, id, record.turn, Append::SameTurn, commit, now)
            .await
        {
            Ok(_) => Ok((record, state)),
            // Another tab moved on meanwhile: what is saved wins.
            Err(StoreError::Stale { .. }) => self.current(owner, id).await,
            Err(error) => Err(error.into()),
        }
    }
}

/// The player's move, checked against what is on offer.
fn parse_move(input: &MoveInput, state: &CampaignState) -> Result<PlayerMove, ServiceError> {
    match input {
        MoveInput::Text { text } => MoveText::parse(text)
            .map(PlayerMove::Text)
            .map_err(|error| ServiceError::invalid("move", error)),
        MoveInput::Action { id } => {
            let offered = state.actions.as_ref().ok_or_else(|| {
                ServiceError::invalid("action", "the actions for this scene are not ready yet")
            })?;
            Slug::new(id)
                .ok()
                .and_then(|slug| offered.get(&slug).cloned())
                .map(PlayerMove::Action)
                .ok_or_else(|| {
                    ServiceError::invalid("action", "that action is not on offer any more")
                })
        }
    }
}
