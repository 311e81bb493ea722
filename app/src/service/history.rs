//! Taking turns back: undo the latest turn (kept in the log, so it can be redone until a new move
//! replaces it), redo it, tell it again — the same move and the same dice, a new narration — or
//! offer new actions for it.
//! Each is one commit that appends markers (and, for a retelling, the new turn's events) and
//! replaces the derived story and snapshot with a replay of the log.

use std::sync::Arc;

use rand::Rng;

use super::play::Projection;
use super::{Game, Loaded, ServiceError};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::CampaignState;
use crate::campaign::store::{Append, Commit};
use crate::campaign::timeline::timeline;
use crate::campaign::turn_event::TurnEvent;
use crate::game::Slug;
use crate::gm::{Memory, MoveText, PlayerMove, Retelling, SeatMove};
use crate::wire::view::CampaignView;
use crate::wire::{CampaignId, PlayerId};

impl Game<'_> {
    /// Takes back the campaign's latest turn (not the opening scene): the campaign is exactly
    /// as it was before it.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "undo", campaign = %id))]
    pub async fn undo(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        self.step(owner, id, expected_turn, CampaignEvent::Undone, now)
            .await
    }

    /// Puts back the latest undone turn.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "redo", campaign = %id))]
    pub async fn redo(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        self.step(owner, id, expected_turn, CampaignEvent::Redone, now)
            .await
    }

    /// One step back (`Undone`) or forward (`Redone`) in the campaign's timeline.
    async fn step(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        marker: CampaignEvent,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        let running = self.lease(owner, id).await?;
        let loaded = self.at_turn(owner, id, expected_turn).await?;
        let turn = loaded.record.turn;
        let to = match marker {
            CampaignEvent::Undone if turn <= 1 => {
                return Err(ServiceError::invalid(
                    "undo",
                    "the opening scene cannot be undone; start over instead",
                ))
            }
            CampaignEvent::Redone if loaded.state.redoable == 0 => {
                return Err(ServiceError::invalid(
                    "redo",
                    "there is no undone turn to redo",
                ))
            }
            CampaignEvent::Undone => turn - 1,
            _ => turn + 1,
        };
        let (_, log) = self.store.log(owner, id).await?;
        self.rewrite(owner, id, &loaded, log, vec![marker], to, now)
            .await?;
        drop(running);
        self.load(owner, id, now).await
    }

    /// Tells the latest turn again: the same move, the player's roll and the narrator's rolls
    /// read from the log, a new narration (its actions are generated afresh).
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "retell", campaign = %id))]
    pub async fn retell<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignView, ServiceError> {
        let running = self.lease(owner, id).await?;
        let loaded = self.at_turn(owner, id, expected_turn).await?;
        let turn = loaded.record.turn;
        let (_, log) = self.store.log(owner, id).await?;
        let last_turn = latest_turn_events(&log, turn);
        let mut undone = log.clone();
        undone.push(StoredEvent {
            turn: turn - 1,
            event: CampaignEvent::Undone,
        });
        let mut before = CampaignState::replay(&undone)?.state;
        // What the player refused of this turn's proposals, the new telling must not rely on.
        before.refused = loaded.state.refused.clone();
        let player_move = retold_move(&last_turn, &before)?;
        let table = retold_seat_moves(&last_turn, &before);
        let recalled = self.recall(owner, id, &before, &player_move).await?;
        let memory = Memory {
            previous: loaded.request.as_deref(),
            recalled: &recalled,
            table: &table,
        };
        let mut ignore = |_| {};
        let projection = Projection::new(before, turn, &mut ignore);
        let narrated = self.narrate(projection, memory, &player_move, rng).await?;
        let mut events = vec![CampaignEvent::Undone];
        events.extend(narrated.events);
        self.rewrite(owner, id, &loaded, log, events, turn, now)
            .await?;
        drop(running);
        self.load(owner, id, now).await
    }

    /// Offers new actions for the latest scene in place of the ones on offer.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "new actions", campaign = %id))]
    pub async fn reoffer_actions(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        let running = self.lease(owner, id).await?;
        let loaded = self.at_turn(owner, id, expected_turn).await?;
        self.offer_and_commit(owner, id, loaded, now).await?;
        drop(running);
        self.load(owner, id, now).await
    }

    /// Appends `events` (markers first) to `log` (the campaign's, as read under the turn guard)
    /// and replaces the story and snapshot with a replay of it all; the campaign moves to `turn`.
    #[allow(clippy::too_many_arguments)] // The campaign, what it holds, and the change.
    async fn rewrite(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: &Loaded,
        mut log: Vec<StoredEvent>,
        events: Vec<CampaignEvent>,
        turn: u32,
        now: i64,
    ) -> Result<(), ServiceError> {
        let mut stored_turn = loaded.record.turn;
        for event in &events {
            stored_turn = match event {
                CampaignEvent::Undone => stored_turn - 1,
                CampaignEvent::Redone => stored_turn + 1,
                _ => turn,
            };
            log.push(StoredEvent {
                turn: stored_turn,
                event: event.clone(),
            });
        }
        let replay = CampaignState::replay(&log)?;
        let state = Arc::new(replay.state);
        let commit = Commit {
            events: &events,
            story: &replay.story,
            state: &state,
            request: None,
            before: Some(&loaded.state),
        };
        let how = Append::Replace { turn };
        self.store
            .commit(owner, id, loaded.record.turn, how, commit, now)
            .await?;
        Ok(())
    }
}

/// The events in effect of turn `turn`, in order.
fn latest_turn_events(log: &[StoredEvent], turn: u32) -> Vec<TurnEvent> {
    timeline(log)
        .active
        .into_iter()
        .filter(|stored| stored.turn == turn)
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(event) => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// The move of a turn as it was made, with its dice: the opening if it had no move.
/// The friends' moves of a round told again: the same actions and words (their dice come back
/// with the turn's draws, so each rolls the same). A move no longer readable is left out.
fn retold_seat_moves(turn: &[TurnEvent], before: &CampaignState) -> Vec<SeatMove> {
    turn.iter()
        .filter_map(|event| match event {
            TurnEvent::SeatMoved {
                seat,
                text,
                action_id,
                ..
            } => {
                let player_move = match action_id {
                    Some(id) => {
                        let slug = Slug::new(id).ok()?;
                        PlayerMove::Action(before.actions.as_ref()?.get(&slug)?.clone())
                    }
                    None => PlayerMove::Text(MoveText::parse(text).ok()?),
                };
                Some(SeatMove {
                    seat: *seat,
                    player_move,
                })
            }
            _ => None,
        })
        .collect()
}

fn retold_move(turn: &[TurnEvent], before: &CampaignState) -> Result<PlayerMove, ServiceError> {
    let mut retelling = Retelling::default();
    let mut made = None;
    for event in turn {
        match event {
            TurnEvent::Move { text, action_id } => made = Some((text.clone(), action_id.clone())),
            TurnEvent::PlayerRoll {
                reason, resolution, ..
            } => retelling.player_roll = Some((reason.clone(), resolution.clone())),
            TurnEvent::DiceDrawn { draws } => retelling.draws.clone_from(draws),
            TurnEvent::Fought { record, .. }
                if retelling.fight_faces.is_empty()
                    && !matches!(record.step, crate::game::fight::FightStep::Seat { .. }) =>
            {
                retelling.fight_faces.clone_from(&record.faces);
            }
            TurnEvent::Complicated { complication, .. } => {
                retelling.complication = Some(complication.clone());
            }
            _ => {}
        }
    }
    let invalid = |error: &str| ServiceError::invalid("retell", error.to_owned());
    let original = match made {
        None => PlayerMove::Opening(
            MoveText::parse(&before.premise).map_err(|_| invalid("the premise is unreadable"))?,
        ),
        Some((_, Some(action_id))) => {
            let offered = before.actions.as_ref();
            let action = Slug::new(&action_id)
                .ok()
                .and_then(|slug| offered.and_then(|actions| actions.get(&slug)).cloned())
                .ok_or_else(|| invalid("the chosen action is no longer known"))?;
            PlayerMove::Action(action)
        }
        Some((text, None)) => {
            PlayerMove::Text(MoveText::parse(&text).map_err(|_| invalid("the move is unreadable"))?)
        }
    };
    Ok(PlayerMove::Retold(Box::new(original), retelling))
}
