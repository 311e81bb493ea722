//! The two phases of a turn: a move narrated and streamed (phase 1), then the next actions
//! (phase 2). Every event the game master emits goes through the projector as it happens: its
//! updates are what the player sees live, and the state it leaves is the snapshot committed.

use std::sync::Arc;

use rand::Rng;

use super::in_flight::InFlight;
use super::{tokens, Game, Loaded, ServiceError, UpdateSink};
use crate::campaign::conversation::SentRequest;
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::lease::PendingRoll;
use crate::campaign::shown::Shown;
use crate::campaign::state::CampaignState;
use crate::campaign::store::{Append, Commit};
use crate::campaign::timeline::move_key;
use crate::campaign::turn_event::TurnEvent;
use crate::game::carried::lacking;
use crate::game::party::Seat;
use crate::game::spell_words::checked_cast;
use crate::game::stakes::DEATH_SAVE;
use crate::game::Slug;
use crate::gm::turn::turn_dice::Draws;
use crate::gm::{
    narrate, offer_actions, player_roll, Memory, MoveText, Narration, PlayerMove, Retelling,
    SeatMove,
};
use crate::wire::present::actions::action_views;
use crate::wire::present::update::turn_update;
use crate::wire::view::{ActionsView, ModelChange, MoveInput, StoryEntry, TurnUpdate};
use crate::wire::{CampaignId, PlayerId};

/// The move with its player roll made final: the roll saved for this action at this turn (a
/// retry after a failed narration), the roll shown for the same choice from this turn before it
/// was undone, or a new one saved before it is narrated and shown; the fight's dice shown for
/// the same choice before an undo; and the draws of every other roll the same move was told
/// with before an undo.
async fn final_roll<R: Rng + Send>(
    running: &InFlight,
    turn: u32,
    player_move: PlayerMove,
    state: &CampaignState,
    rng: &mut R,
) -> Result<PlayerMove, ServiceError> {
    let key = match &player_move {
        PlayerMove::Action(action) => action.id().to_string(),
        // A typed move rolls only as a death save.
        _ => DEATH_SAVE.to_owned(),
    };
    let saved = running
        .pending_roll()
        .await?
        .filter(|roll| roll.turn == turn && roll.action_id == key)
        .or_else(|| shown_roll(&player_move, &key, state, turn));
    // The fight's dice this choice showed before an undo, if it showed any.
    let fight_faces = state
        .shown_fights
        .iter()
        .find(|shown| shown.key == key)
        .map(|shown| shown.faces.clone())
        .unwrap_or_default();
    let roll = match saved {
        Some(roll) => Some(roll),
        None => match player_roll(&player_move, &state.sheet, rng) {
            Some((reason, resolution)) => {
                let roll = PendingRoll {
                    turn,
                    action_id: key,
                    reason,
                    resolution,
                };
                running.save_roll(&roll).await?;
                Some(roll)
            }
            None => None,
        },
    };
    let draws = shown_draws(&player_move, state);
    if roll.is_none() && fight_faces.is_empty() && draws.is_empty() {
        return Ok(player_move);
    }
    let retelling = Retelling {
        player_roll: roll.map(|roll| (roll.reason, roll.resolution)),
        draws,
        fight_faces,
        complication: None,
    };
    Ok(PlayerMove::Retold(Box::new(player_move), retelling))
}

/// The dice the same move drew from this turn, in a turn since undone (none if it was not made).
fn shown_draws(player_move: &PlayerMove, state: &CampaignState) -> Draws {
    let key = match player_move {
        PlayerMove::Action(action) => move_key(Some(action.id().as_ref()), ""),
        PlayerMove::Text(text) => move_key(None, text.as_str()),
        PlayerMove::Opening(_) | PlayerMove::Retold(..) => return Draws::new(),
    };
    state
        .shown_dice
        .iter()
        .find(|shown| shown.key == key)
        .map(|shown| shown.draws.clone())
        .unwrap_or_default()
}

/// The roll shown for the same choice from this turn in a turn since undone, if this move would
/// roll it again: the same action's dice and DC, or a death save while dying.
fn shown_roll(
    player_move: &PlayerMove,
    key: &str,
    state: &CampaignState,
    turn: u32,
) -> Option<PendingRoll> {
    let shown = state.shown_rolls.iter().find(|shown| shown.key == key)?;
    let again = if state.sheet.vitality().is_dying() {
        shown.reason == DEATH_SAVE
    } else if let PlayerMove::Action(action) = player_move {
        action.roll_reason() == shown.reason
            && action.explains(
                &state.sheet,
                state.sheet.conditions().roll_effects().checks,
                &shown.resolution,
            )
    } else {
        false
    };
    again.then(|| PendingRoll {
        turn,
        action_id: key.to_owned(),
        reason: shown.reason.clone(),
        resolution: shown.resolution.clone(),
    })
}

/// Another seat's move of a round, as its browser sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The seat.
    pub seat: Seat,
    /// The move.
    pub input: MoveInput,
}

/// The other seats' moves parsed against `state`: a move from a seat nobody holds any more, of
/// a fallen hero, or no longer readable (its action gone) is left out of the round.
fn seat_moves(table: &[TableMove], state: &CampaignState) -> Vec<SeatMove> {
    table
        .iter()
        .filter(|table_move| {
            state
                .party
                .at(table_move.seat)
                .is_some_and(|member| !member.has_fallen())
        })
        .filter_map(|table_move| {
            let player_move = read_move(&table_move.input, state).ok()?;
            Some(SeatMove {
                seat: table_move.seat,
                player_move,
            })
        })
        .collect()
}

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
            Ok(shown) => {
                for shown in shown {
                    if let Shown::Entry { entry, .. } = &shown {
                        self.story.push(entry.clone());
                    }
                    (self.sink)(turn_update(shown, &self.state));
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

/// A narration's result: the events to store, the state after them, the story entries they
/// add and the last request sent.
pub(super) struct Narrated {
    pub events: Vec<CampaignEvent>,
    pub state: Arc<CampaignState>,
    pub story: Vec<StoryEntry>,
    pub sent: SentRequest,
}

impl Narrated {
    /// The commit of this phase, built on `before` (the state it began from, as stored).
    pub(super) fn commit<'a>(&'a self, before: &'a CampaignState) -> Commit<'a> {
        Commit {
            events: &self.events,
            story: &self.story,
            state: &self.state,
            request: Some(&self.sent),
            before: Some(before),
        }
    }
}

impl Game<'_> {
    /// Phase 1 through the projector: narrates `player_move` from the projection's state, every
    /// event applied (and shown to the player) as it happens; the model's new messages last.
    pub(super) async fn narrate<R: Rng + Send>(
        &self,
        mut projection: Projection<'_>,
        memory: Memory<'_>,
        player_move: &PlayerMove,
        rng: &mut R,
    ) -> Result<Narrated, ServiceError> {
        let state = projection.state.clone();
        let narration = self
            .in_time(narrate(
                self.llm,
                self.gm,
                &state,
                memory,
                player_move,
                rng,
                &mut |event: &TurnEvent| projection.apply(CampaignEvent::Turn(event.clone())),
            ))
            .await?;
        let Narration {
            events,
            messages,
            sent,
            ..
        } = narration;
        let mut events: Vec<CampaignEvent> = events.into_iter().map(CampaignEvent::Turn).collect();
        events.push(CampaignEvent::ModelMessages { messages });
        if let Some(messages) = events.last() {
            projection.apply(messages.clone());
        }
        let layers = super::layer_views(&sent);
        (projection.sink)(TurnUpdate::Model {
            change: ModelChange {
                from_turn: 0,
                added: None,
                layers: Some(layers),
            },
        });
        let (state, story) = projection.finish()?;
        Ok(Narrated {
            events,
            state: Arc::new(state),
            story,
            sent,
        })
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
        self.play_round(owner, id, request, &[], now, rng, updates)
            .await
    }

    /// Phase 1 of a round at a table of friends: the host's move (`request`) with the other
    /// seats' moves (`table`), each rolled against its own sheet, narrated once and committed.
    #[allow(clippy::too_many_arguments)]
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "narrate", campaign = %id))]
    pub async fn play_round<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        request: MoveRequest<'_>,
        table: &[TableMove],
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<(u32, (u32, u32)), ServiceError> {
        let loaded = self.at_turn(owner, id, request.expected_turn).await?;
        if loaded.state.sheet.vitality().is_dead() {
            return Err(ServiceError::Ended);
        }
        if !loaded.state.proposals.is_empty() {
            return Err(ServiceError::invalid(
                "move",
                "accept or refuse the game master's proposed changes first",
            ));
        }
        parse_move(request.input, &loaded.state)?;
        let running = self.in_flight.take(id).await?;
        // Read again under the guard: a summary may have been committed meanwhile.
        let loaded = self.at_turn(owner, id, request.expected_turn).await?;
        let player_move = parse_move(request.input, &loaded.state)?;
        let turn = loaded.record.turn;
        let player_move = final_roll(&running, turn, player_move, &loaded.state, rng).await?;
        let next = turn.checked_add(1).ok_or_else(|| {
            ServiceError::invalid(
                "turn",
                "this campaign has played the most turns one may have",
            )
        })?;
        let table = seat_moves(table, &loaded.state);
        let recalled = self.recall(owner, id, &loaded.state, &player_move).await?;
        let memory = Memory {
            previous: loaded.request.as_deref(),
            recalled: &recalled,
            table: &table,
        };
        let projection = Projection::new(CampaignState::clone(&loaded.state), next, updates);
        let narrated = self.narrate(projection, memory, &player_move, rng).await?;
        let commit = narrated.commit(&loaded.state);
        let turn = self
            .store
            .commit(owner, id, turn, Append::NextTurn, commit, now)
            .await?;
        running.release().await;
        tracing::info!(turn, "the move is narrated and saved");
        Ok((turn, tokens(&narrated.state)))
    }

    /// Phase 2 for the campaign's current turn: generates and commits its actions if missing.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "actions", campaign = %id))]
    pub async fn ensure_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<ActionsView, ServiceError> {
        let loaded = self.current(owner, id).await?;
        let loaded = self.generate_actions(owner, id, loaded, now).await?;
        Ok(ActionsView {
            turn: loaded.state.turn,
            actions: action_views(&loaded.state),
            tokens: tokens(&loaded.state),
        })
    }

    /// The campaign with its actions if they can be generated now: once a phase is saved, a
    /// failure of the next one (or another request generating them) must not fail the load.
    pub(super) async fn actions_if_possible(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<Loaded, ServiceError> {
        let loaded = self.current(owner, id).await?;
        match self.generate_actions(owner, id, loaded.clone(), now).await {
            Err(ServiceError::Gm(error)) => {
                tracing::warn!(%error, "the actions could not be generated yet");
                Ok(loaded)
            }
            Err(ServiceError::Busy) => Ok(loaded),
            other => other,
        }
    }

    async fn generate_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        now: i64,
    ) -> Result<Loaded, ServiceError> {
        // A story that has ended offers nothing more.
        if loaded.state.actions.is_some()
            || loaded.record.turn == 0
            || loaded.state.sheet.vitality().is_dead()
        {
            return Ok(loaded);
        }
        let running = self.in_flight.take(id).await?;
        let loaded = self.current(owner, id).await?;
        if loaded.state.actions.is_some() {
            return Ok(loaded);
        }
        let offered = match self.offer_and_commit(owner, id, loaded, now).await {
            // Another tab moved on meanwhile: what is saved wins.
            Err(ServiceError::Stale { .. }) => self.current(owner, id).await,
            other => other,
        };
        running.release().await;
        offered
    }

    /// New actions for the campaign's current turn, generated and committed.
    pub(super) async fn offer_and_commit(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        now: i64,
    ) -> Result<Loaded, ServiceError> {
        let offered = self
            .in_time(offer_actions(
                self.llm,
                self.gm,
                &loaded.state,
                loaded.request.as_deref(),
            ))
            .await?;
        let events = offered
            .events
            .into_iter()
            .map(CampaignEvent::Turn)
            .collect();
        self.append(owner, id, loaded, events, Some(offered.sent), now)
            .await
    }

    /// Appends `events` to the campaign's current turn (nobody watching) with the request that
    /// produced them, if any: the campaign as it is afterwards.
    pub(super) async fn append(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        events: Vec<CampaignEvent>,
        request: Option<SentRequest>,
        now: i64,
    ) -> Result<Loaded, ServiceError> {
        let turn = loaded.record.turn;
        let (state, story) = project(CampaignState::clone(&loaded.state), turn, &events)?;
        self.commit_same_turn(owner, id, loaded, (events, state, story), request, now)
            .await
    }

    /// [`Game::append`] with what the players see change, for the campaign's followers.
    pub(super) async fn append_seen(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        events: Vec<CampaignEvent>,
        now: i64,
    ) -> Result<(Loaded, Vec<TurnUpdate>), ServiceError> {
        let turn = loaded.record.turn;
        let mut seen = Vec::new();
        let (state, story) = {
            let mut sink = |update: TurnUpdate| seen.push(update);
            let mut projection =
                Projection::new(CampaignState::clone(&loaded.state), turn, &mut sink);
            for event in &events {
                projection.apply(event.clone());
            }
            projection.finish()?
        };
        let after = self
            .commit_same_turn(owner, id, loaded, (events, state, story), None, now)
            .await?;
        Ok((after, seen))
    }

    async fn commit_same_turn(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        (events, state, story): (Vec<CampaignEvent>, CampaignState, Vec<StoryEntry>),
        request: Option<SentRequest>,
        now: i64,
    ) -> Result<Loaded, ServiceError> {
        let turn = loaded.record.turn;
        let state = Arc::new(state);
        let commit = Commit {
            events: &events,
            story: &story,
            state: &state,
            request: request.as_ref(),
            before: Some(&loaded.state),
        };
        self.store
            .commit(owner, id, turn, Append::SameTurn, commit, now)
            .await?;
        Ok(Loaded {
            state,
            request: request.map(Arc::new).or(loaded.request),
            record: loaded.record,
        })
    }

    /// The model's part of a phase, stopped at the phase's deadline (every call, retry and tool
    /// round included).
    pub(super) async fn in_time<T>(
        &self,
        work: impl std::future::Future<Output = Result<T, crate::gm::TurnError>>,
    ) -> Result<T, ServiceError> {
        let after = self.gm.phase_deadline;
        match tokio::time::timeout(after, work).await {
            Ok(done) => Ok(done?),
            Err(_) => Err(ServiceError::Deadline { after }),
        }
    }

    /// The campaign, if it is at the turn the browser showed.
    pub(super) async fn at_turn(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
    ) -> Result<Loaded, ServiceError> {
        let loaded = self.current(owner, id).await?;
        if loaded.record.turn == expected_turn {
            Ok(loaded)
        } else {
            Err(ServiceError::Stale {
                current: loaded.record.turn,
            })
        }
    }
}

/// Applies stored-to-be events of `turn` to `state` (nobody watching): the state and the story
/// entries they add.
fn project(
    state: CampaignState,
    turn: u32,
    events: &[CampaignEvent],
) -> Result<(CampaignState, Vec<StoryEntry>), ServiceError> {
    let mut ignore = |_| {};
    let mut projection = Projection::new(state, turn, &mut ignore);
    for event in events {
        projection.apply(event.clone());
    }
    projection.finish()
}

/// The player's move, checked against what is on offer and what the hero carries (a move that
/// uses what they lack is answered by the rules, nothing spent).
fn parse_move(input: &MoveInput, state: &CampaignState) -> Result<PlayerMove, ServiceError> {
    let player_move = read_move(input, state)?;
    if let Some(words) = player_move.words() {
        lacking(words, state.sheet.inventory()).map_err(|lacking| {
            ServiceError::invalid("move", format!("{lacking}; nothing was spent"))
        })?;
        if let Some(Err(refused)) = checked_cast(words, &state.sheet) {
            return Err(ServiceError::invalid(
                "move",
                format!("{refused}; nothing was spent"),
            ));
        }
    }
    Ok(player_move)
}

/// Checks a seat's move before it is kept for the round: the host's as a move of their own;
/// a friend's as words a move may have, or an action on offer.
pub(super) fn check_move(
    input: &MoveInput,
    state: &CampaignState,
    seat: Seat,
) -> Result<(), ServiceError> {
    if !state.proposals.is_empty() {
        return Err(ServiceError::invalid(
            "move",
            "the host must accept or refuse the game master's proposed changes first",
        ));
    }
    if seat.is_host() {
        parse_move(input, state).map(drop)
    } else {
        read_move(input, state).map(drop)
    }
}

/// A move as the browser sent it: typed words, or an action still on offer.
fn read_move(input: &MoveInput, state: &CampaignState) -> Result<PlayerMove, ServiceError> {
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
                .filter(|action| state.still_offers(action))
                .map(PlayerMove::Action)
                .ok_or_else(|| {
                    ServiceError::invalid("action", "that action is not on offer any more")
                })
        }
    }
}
