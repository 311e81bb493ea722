//! Failure with teeth, after the scene: when the player's check failed on an action that named
//! what rides on it and the scene changed nothing (no change to the sheet, no check, no fight),
//! the rules apply a complication from their table (see
//! [`complication`](crate::game::complication)) and tell the narrator what it cost.

use rand::Rng;

use crate::campaign::conversation::Message;
use crate::campaign::proposal::Proposed;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::complication::Complication;
use crate::game::spine::clock::TickCause;
use crate::game::spine::SpineEvent;
use crate::game::stakes::DEATH_SAVE;
use crate::game::{Action, CharacterSheet, Resolution, StateDelta};

/// The complication due after a scene of the chosen `action` whose events are `events`,
/// applied to `sheet`: the event to log and the note the narrator reads with the next move.
/// `None` when nothing is due. A move told again keeps the complication it had (`recorded`)
/// while that is still what the rules give.
pub fn after_failure<R: Rng + ?Sized>(
    action: &Action,
    recorded: Option<&Complication>,
    events: &[TurnEvent],
    sheet: &mut CharacterSheet,
    rng: &mut R,
) -> Option<(TurnEvent, Message)> {
    let stakes = action.stakes()?;
    if !failed_check(events) || events.iter().any(costs_something) {
        return None;
    }
    let complication = match recorded {
        Some(kept) if kept.is_the_rules(sheet) => kept.clone(),
        _ => Complication::roll(sheet, rng),
    };
    let changes = StateDelta::apply_all(&complication.deltas(), sheet).ok()?;
    let note = Message::user(format!(
        "[The rules] The failed roll cost nothing in the scene, so the rules applied a \
         complication: {}. It has happened; let the next scene show it.",
        complication.describe()
    ));
    let event = TurnEvent::Complicated {
        stakes: stakes.failure.as_str().to_owned(),
        complication,
        changes,
    };
    Some((event, note))
}

/// Whether the player's own check (not a death save) failed this turn.
pub fn failed_check(events: &[TurnEvent]) -> bool {
    events.iter().any(|event| {
        matches!(event, TurnEvent::PlayerRoll {
            reason,
            resolution: Resolution::Check(check),
            ..
        } if reason != DEATH_SAVE && !check.is_success())
    })
}

/// Whether an event of the turn already cost the character something the rules can see: a
/// change to the sheet, a check asked for, a fight begun or fought, a threat's clock ticked.
pub fn costs_something(event: &TurnEvent) -> bool {
    match event {
        TurnEvent::ToolResult {
            effect: Some(effect),
            ..
        } => match effect {
            ToolEffect::Changed { changes, .. }
            | ToolEffect::Proposed {
                proposed: Proposed::Sheet { changes, .. },
                ..
            } => !changes.is_empty(),
            ToolEffect::Checked { .. }
            | ToolEffect::SanityChecked { .. }
            | ToolEffect::Hazard { .. }
            | ToolEffect::Fought { .. } => true,
            _ => false,
        },
        TurnEvent::Ruled { changes, .. } | TurnEvent::Decided { changes, .. } => {
            !changes.is_empty()
        }
        TurnEvent::Fought { .. } | TurnEvent::Complicated { .. } => true,
        // A threat's clock the failure ticked: the story's price for it.
        TurnEvent::Spine {
            change:
                SpineEvent::Ticked {
                    cause: TickCause::Failure { .. },
                    ..
                },
        } => true,
        _ => false,
    }
}
