//! The ledger (seed 003's tracked operations): every state change in a campaign with what caused
//! it, and every roll with its dice, read from the events in effect (undone turns left out).

use super::event::{CampaignEvent, StoredEvent};
use super::timeline::timeline;
use super::turn_event::{ToolEffect, TurnEvent};
use super::view::LedgerRow;
use crate::game::{AppliedChanges, Resolution, Roll};

/// The ledger of a whole log, oldest first.
pub fn ledger(events: &[StoredEvent]) -> Vec<LedgerRow> {
    let mut rows = Vec::new();
    let mut last_call = String::new();
    for stored in timeline(events).active {
        let CampaignEvent::Turn(event) = &stored.event else {
            continue;
        };
        let turn = stored.turn;
        match event {
            TurnEvent::ToolCalled { call } => {
                last_call = format!("{}({})", call.name, call.arguments);
            }
            TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            } => effect_rows(turn, effect, &last_call, &mut rows),
            TurnEvent::Ruled { cause, changes, .. } => change_rows(turn, changes, cause, &mut rows),
            TurnEvent::PlayerRoll {
                reason, resolution, ..
            } => rows.push(match resolution {
                Resolution::Check(check) => roll_row(
                    turn,
                    format!("Player: {reason}"),
                    check.roll(),
                    Some(check.dc().value()),
                    Some(verdict(check.is_success())),
                ),
                Resolution::Roll(roll) => {
                    roll_row(turn, format!("Player: {reason}"), roll, None, None)
                }
            }),
            _ => {}
        }
    }
    rows
}

fn effect_rows(turn: u32, effect: &ToolEffect, call: &str, rows: &mut Vec<LedgerRow>) {
    match effect {
        ToolEffect::Changed { changes, .. } => change_rows(turn, changes, call, rows),
        ToolEffect::Rolled { reason, roll } => rows.push(roll_row(
            turn,
            format!("Game master: {reason}"),
            roll,
            None,
            None,
        )),
        ToolEffect::Checked { reason, check } => rows.push(roll_row(
            turn,
            format!("Player check: {reason}"),
            check.roll(),
            Some(check.dc().value()),
            Some(verdict(check.is_success())),
        )),
        ToolEffect::Asked { reading } => rows.push(LedgerRow::Roll {
            turn,
            reason: format!("Oracle: {}", reading.question),
            notation: "1d100".to_owned(),
            dice: reading.roll.value().to_string(),
            modifier: 0,
            total: i32::from(reading.roll.value()),
            dc: Some(reading.likelihood.threshold()),
            verdict: Some(reading.answer.to_string()),
        }),
        ToolEffect::Mapped { record } => {
            let exits: Vec<&str> = record.connects_to.iter().map(|e| e.as_str()).collect();
            rows.push(LedgerRow::Change {
                turn,
                what: format!("Map: {}", record.place.as_str()),
                before: "—".to_owned(),
                after: format!("leads to {}", exits.join(", ")),
                cause: call.to_owned(),
            });
        }
        ToolEffect::Read | ToolEffect::Noted { .. } | ToolEffect::Aside { .. } => {}
    }
}

fn change_rows(turn: u32, changes: &AppliedChanges, cause: &str, rows: &mut Vec<LedgerRow>) {
    for change in changes.changes() {
        let (what, before, after) = change.before_after();
        rows.push(LedgerRow::Change {
            turn,
            what,
            before,
            after,
            cause: cause.to_owned(),
        });
    }
}

fn roll_row(
    turn: u32,
    reason: String,
    roll: &Roll,
    dc: Option<u8>,
    verdict: Option<String>,
) -> LedgerRow {
    let dice: Vec<String> = roll
        .terms()
        .iter()
        .flat_map(|term| term.dice())
        .map(|die| {
            if die.is_kept() {
                die.value().to_string()
            } else {
                format!("({} dropped)", die.value())
            }
        })
        .collect();
    LedgerRow::Roll {
        turn,
        reason,
        notation: roll.notation().to_owned(),
        dice: dice.join(", "),
        modifier: roll.modifier(),
        total: roll.total(),
        dc,
        verdict,
    }
}

fn verdict(success: bool) -> String {
    if success { "success" } else { "failure" }.to_owned()
}
