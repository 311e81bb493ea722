//! Which of a campaign's logged events are in effect. Undo takes the latest turn out of play (its
//! events stay in the log, after them an `Undone` marker), redo puts the latest undone turn back
//! (a `Redone` marker), and the first event of a new turn after an undo discards whatever was
//! still undone. The log is never rewritten: replaying it always gives the same timeline.

use super::conversation::TokenUsage;
use super::event::{CampaignEvent, StoredEvent};
use super::turn_event::TurnEvent;

/// The events in effect, and what undo left aside.
#[derive(Debug, Default)]
pub struct Timeline<'e> {
    /// The events in effect, in log order.
    pub active: Vec<&'e StoredEvent>,
    /// How many undone turns can be redone.
    pub redoable: u32,
    /// Tokens spent on turns that are no longer in effect (spent all the same).
    pub set_aside_usage: TokenUsage,
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
    Timeline {
        active: turns.into_iter().flatten().collect(),
        redoable: u32::try_from(undone.len()).unwrap_or(u32::MAX),
        set_aside_usage: set_aside,
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
