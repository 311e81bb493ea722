//! A campaign log from outside (an imported file) checked against the rules, event by event: the
//! character is a fresh creation, every state change is exactly what its tool call does to the
//! sheet as it stood, every roll is what its dice show, and the player's rolls belong to the
//! action they chose. The first event that fails is named; nothing the rules would not have
//! produced gets in. (Scenes' HTML is not taken from a file at all: the import renders it again.)

use std::collections::HashMap;

use super::start::parse_form;
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::CampaignState;
use crate::campaign::timeline::timeline;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::campaign::view::NewCampaign;
use crate::game::creation::CharacterDraft;
use crate::game::CharacterSheet;
use crate::game::{ActionList, Slug, StateDelta};
use crate::gm::memory::MAX_SUMMARY_CHARS;
use crate::gm::tools::{self, ToolCommand};

/// Why a log was refused: which event, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {index} (turn {turn}) is refused: {reason}")]
pub struct Refusal {
    /// Its position in the file's list of events (0 is the first).
    pub index: usize,
    /// The turn it claims.
    pub turn: u32,
    /// What is wrong.
    pub reason: String,
}

/// Checks a whole log; `Ok` when every event in effect is what the rules would have produced.
pub fn verify(events: &[StoredEvent]) -> Result<(), Refusal> {
    let index_of: HashMap<*const StoredEvent, usize> = events
        .iter()
        .enumerate()
        .map(|(index, stored)| (stored as *const StoredEvent, index))
        .collect();
    let refuse = |stored: &StoredEvent, reason: String| Refusal {
        index: index_of.get(&(stored as *const _)).copied().unwrap_or(0),
        turn: stored.turn,
        reason,
    };
    let active = timeline(events).active;
    let Some((first, rest)) = active.split_first() else {
        return Err(Refusal {
            index: 0,
            turn: 0,
            reason: "the file holds no events".into(),
        });
    };
    let mut state = started(first).map_err(|reason| refuse(first, reason))?;
    let mut checker = Checker::default();
    for stored in rest {
        if stored.turn > state.turn {
            checker.offered = state.actions.take();
            checker.chosen = None;
            checker.calls.clear();
        }
        checker
            .check(stored, &state)
            .map_err(|reason| refuse(stored, reason))?;
        state
            .apply(stored)
            .map_err(|error| refuse(stored, error.to_string()))?;
    }
    Ok(())
}

/// The start: a premise and a character exactly as the new-adventure form makes them.
fn started(stored: &StoredEvent) -> Result<CampaignState, String> {
    let CampaignEvent::Started { premise, sheet } = &stored.event else {
        return Err("a campaign starts with its premise and character".into());
    };
    let form = NewCampaign {
        premise: premise.clone(),
        character: CharacterDraft::of(sheet),
    };
    let (_, fresh) = parse_form(&form).map_err(|error| error.to_string())?;
    // Files exported before character creation start from a plain sheet (every score 10).
    let plain = CharacterSheet::new(
        sheet.name().clone(),
        sheet.class().clone(),
        fresh.location().clone(),
    );
    if &fresh != sheet && &plain != sheet {
        return Err("the character is not as a new adventure creates it".into());
    }
    Ok(CampaignState::start(premise, sheet.clone()))
}

/// What the checks of one turn remember: the actions offered before it, the one chosen, and
/// its tool calls.
#[derive(Default)]
struct Checker {
    offered: Option<ActionList>,
    chosen: Option<String>,
    calls: HashMap<String, Result<ToolCommand, String>>,
}

impl Checker {
    fn check(&mut self, stored: &StoredEvent, state: &CampaignState) -> Result<(), String> {
        match &stored.event {
            CampaignEvent::Started { .. } => Err("the campaign starts twice".into()),
            CampaignEvent::Summarized { text, .. } if text.chars().count() > MAX_SUMMARY_CHARS => {
                Err("the summary is too long".into())
            }
            CampaignEvent::Turn(event) => self.check_turn(event, state),
            _ => Ok(()),
        }
    }

    fn check_turn(&mut self, event: &TurnEvent, state: &CampaignState) -> Result<(), String> {
        match event {
            TurnEvent::Move { action_id, .. } => {
                if let Some(id) = action_id {
                    self.offered(id)?;
                }
                self.chosen.clone_from(action_id);
                Ok(())
            }
            TurnEvent::PlayerRoll {
                reason,
                resolution,
                description,
            } => {
                let action = self
                    .chosen
                    .as_deref()
                    .ok_or("a player's roll without a chosen action")
                    .and_then(|id| self.offered(id).map_err(|_| "the chosen action is unknown"))?;
                let explained = action.explains(state.sheet.attributes(), resolution)
                    && action.roll_reason() == reason
                    && *description == resolution.describe(reason);
                if explained {
                    Ok(())
                } else {
                    Err("the player's roll is not what the chosen action rolls".into())
                }
            }
            TurnEvent::ToolCalled { call } => {
                let parsed = tools::parse_call(call).map_err(|rejection| rejection.reason);
                self.calls.insert(call.id.clone(), parsed);
                Ok(())
            }
            TurnEvent::ToolResult {
                call_id,
                effect: Some(effect),
                ..
            } => match self.calls.get(call_id) {
                Some(Ok(command)) => effect_of(command, effect, state),
                _ => Err("a change without a valid tool call".into()),
            },
            _ => Ok(()),
        }
    }

    fn offered(&self, id: &str) -> Result<&crate::game::Action, String> {
        Slug::new(id)
            .ok()
            .and_then(|slug| self.offered.as_ref().and_then(|actions| actions.get(&slug)))
            .ok_or_else(|| format!("the action \"{id}\" was not on offer"))
    }
}

/// Whether `effect` is exactly what `command` does to `state`.
fn effect_of(
    command: &ToolCommand,
    effect: &ToolEffect,
    state: &CampaignState,
) -> Result<(), String> {
    let same = match (command, effect) {
        (ToolCommand::Change(called), ToolEffect::Changed { deltas, changes }) => {
            let mut sheet = state.sheet.clone();
            called == deltas
                && StateDelta::apply_all(deltas, &mut sheet)
                    .is_ok_and(|applied| &applied == changes)
        }
        (ToolCommand::RollDice { dice, reason }, ToolEffect::Rolled { reason: r, roll }) => {
            reason == r && dice.explains(roll)
        }
        (ToolCommand::Journal(called), ToolEffect::Noted { change }) => called == change,
        (ToolCommand::ReadSheet, ToolEffect::Read) => true,
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err("the change is not what its tool call does".into())
    }
}
