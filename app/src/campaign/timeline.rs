//! Which of a campaign's logged events are in effect. Undo takes the latest turn out of play (its
//! events stay in the log, after them an `Undone` marker), redo puts the latest undone turn back
//! (a `Redone` marker), and the first event of a new turn after an undo discards whatever was
//! still undone. The log is never rewritten: replaying it always gives the same timeline.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conversation::TokenUsage;
use super::event::{CampaignEvent, StoredEvent};
use super::turn_event::TurnEvent;
use crate::game::stakes::DEATH_SAVE;
use crate::game::Resolution;

/// The events in effect, and what undo left aside.
#[derive(Debug, Default)]
pub struct Timeline<'e> {
    /// The events in effect, in log order.
    pub active: Vec<&'e StoredEvent>,
    /// How many undone turns can be redone.
    pub redoable: u32,
    /// Tokens spent on turns that are no longer in effect (spent all the same).
    pub set_aside_usage: TokenUsage,
    /// The player's rolls already shown for a move from the latest turn in effect, in turns
    /// taken back since (see [`ShownRoll`]).
    pub shown_rolls: Vec<ShownRoll>,
    /// The dice of the fight's steps already shown for a move from the latest turn in effect,
    /// in turns taken back since (see [`ShownFight`]).
    pub shown_fights: Vec<ShownFight>,
    /// The dice already drawn for a move from the latest turn in effect, in turns taken back
    /// since (see [`ShownDice`]).
    pub shown_dice: Vec<ShownDice>,
}

/// A player's roll shown for a move that was then taken back: the same choice made again from
/// the same turn gets the same dice (a shown roll is final, undo included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRoll {
    /// The chosen action's id, or [`DEATH_SAVE`] for a typed move (which rolls only as one).
    pub key: String,
    /// Why it was rolled.
    pub reason: String,
    /// The roll and its verdict.
    pub resolution: Resolution,
}

/// The dice of a fight's step shown for a move that was then taken back: the same choice made
/// again from the same turn gets the same faces, so an undo does not buy another swing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownFight {
    /// The chosen action's id, or [`DEATH_SAVE`] for a typed move.
    pub key: String,
    /// The faces its dice showed, in order.
    pub faces: Vec<u16>,
}

/// The dice a move was told with, in a turn then taken back: the same move made again from the
/// same turn gets each kind of roll's draws back (see [`move_key`]), so an undo does not buy
/// another check, oracle, table, save or hazard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownDice {
    /// The move, as [`move_key`] names it.
    pub key: String,
    /// The draws, by kind of roll.
    pub draws: BTreeMap<String, Vec<u64>>,
}

/// A move as the same move made again is known by: its chosen action's id, or the words typed.
pub fn move_key(action_id: Option<&str>, text: &str) -> String {
    match action_id {
        Some(id) => format!("action {id}"),
        None => format!("words {text}"),
    }
}

/// What a move rolls under: its chosen action's id, or [`DEATH_SAVE`] for a typed move.
pub fn roll_key(action_id: Option<&str>) -> String {
    action_id.unwrap_or(DEATH_SAVE).to_owned()
}

/// The timeline of `events` (a whole log, oldest first).
pub fn timeline(events: &[StoredEvent]) -> Timeline<'_> {
    let mut turns: Vec<Vec<&StoredEvent>> = Vec::new();
    let mut undone: Vec<Vec<&StoredEvent>> = Vec::new();
    let mut set_aside = TokenUsage::default();
    for stored in events {
        match &stored.event {
            CampaignEvent::Undone => {
                if let Some(turn) = turns.pop() {
                    undone.push(turn);
                }
            }
            CampaignEvent::Redone => {
                if let Some(turn) = undone.pop() {
                    turns.push(turn);
                }
            }
            _ => {
                let latest = turns.last().and_then(|turn| turn.first()).map(|e| e.turn);
                if latest.is_none_or(|latest| stored.turn > latest) {
                    for dropped in undone.drain(..) {
                        set_aside += usage_of(&dropped);
                    }
                    turns.push(Vec::new());
                }
                if let Some(turn) = turns.last_mut() {
                    turn.push(stored);
                }
            }
        }
    }
    for waiting in &undone {
        set_aside += usage_of(waiting);
    }
    let latest = turns.last().and_then(|turn| turn.first()).copied();
    let shown = latest.map_or_else(Shown::default, |start| shown_since(events, start));
    Timeline {
        shown_rolls: shown.rolls,
        shown_fights: shown.fights,
        shown_dice: shown.dice,
        active: turns.into_iter().flatten().collect(),
        redoable: u32::try_from(undone.len()).unwrap_or(u32::MAX),
        set_aside_usage: set_aside,
    }
}

/// What the turns taken back since the latest turn in effect showed.
#[derive(Default)]
struct Shown {
    rolls: Vec<ShownRoll>,
    fights: Vec<ShownFight>,
    dice: Vec<ShownDice>,
}

/// The player's rolls, fight steps and dice seeds of the turn after `start`'s, logged after
/// `start` (so from the same latest turn), the first for each move kept.
fn shown_since(events: &[StoredEvent], start: &StoredEvent) -> Shown {
    let next = start.turn.saturating_add(1);
    let from = events
        .iter()
        .position(|stored| std::ptr::eq(stored, start))
        .unwrap_or(events.len());
    let mut shown: Vec<ShownRoll> = Vec::new();
    let mut fights: Vec<ShownFight> = Vec::new();
    let mut dice: Vec<ShownDice> = Vec::new();
    let (mut key, mut fight_key, mut dice_key) = (None, None, None);
    for stored in events[from..].iter().filter(|stored| stored.turn == next) {
        match &stored.event {
            CampaignEvent::Turn(TurnEvent::Move { action_id, text }) => {
                key = Some(roll_key(action_id.as_deref()));
                fight_key.clone_from(&key);
                dice_key = Some(move_key(action_id.as_deref(), text));
            }
            CampaignEvent::Turn(TurnEvent::DiceDrawn { draws }) => {
                if let Some(key) = dice_key.take().filter(|k| dice.iter().all(|s| &s.key != k)) {
                    let draws = draws.clone();
                    dice.push(ShownDice { key, draws });
                }
            }
            // A friend's turn in the fight is the turn's own dice ("seat fight"), not the
            // player's move.
            CampaignEvent::Turn(TurnEvent::Fought { record, .. })
                if !matches!(record.step, crate::game::fight::FightStep::Seat { .. }) =>
            {
                if let Some(key) = fight_key
                    .take()
                    .filter(|k| fights.iter().all(|s| &s.key != k))
                {
                    fights.push(ShownFight {
                        key,
                        faces: record.faces.clone(),
                    });
                }
            }
            CampaignEvent::Turn(TurnEvent::PlayerRoll {
                reason, resolution, ..
            }) => {
                if let Some(key) = key.take().filter(|k| shown.iter().all(|s| &s.key != k)) {
                    shown.push(ShownRoll {
                        key,
                        reason: reason.clone(),
                        resolution: resolution.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    Shown {
        rolls: shown,
        fights,
        dice,
    }
}

/// The tokens a turn's events record.
fn usage_of(turn: &[&StoredEvent]) -> TokenUsage {
    let mut total = TokenUsage::default();
    for stored in turn {
        if let CampaignEvent::Turn(TurnEvent::Usage { usage, .. }) = &stored.event {
            total += *usage;
        }
    }
    total
}
