//! What the projector says changed, as the play screen's stream gets it: each [`Shown`] becomes
//! one [`TurnUpdate`], the part of the state it names read right after the event was applied.

use super::actions::{action_views, proposal_views};
use super::fight::encounter_view;
use super::map::campaign_map;
use super::sheet::{llm_view, sheet_view};
use super::spine::spine_view;
use super::table::table_members;
use crate::campaign::shown::Shown;
use crate::campaign::state::{CampaignState, SceneCheck};
use crate::wire::view::{LedgerCheckView, ModelChange, ModelTurnView, TurnUpdate};

/// The update the play screen gets for `shown`, with `state` as it is right after the event.
pub fn turn_update(shown: Shown, state: &CampaignState) -> TurnUpdate {
    match shown {
        Shown::Narrative(text) => TurnUpdate::Narrative { text },
        Shown::NarrativeReplaced(text) => TurnUpdate::NarrativeReplaced { text },
        Shown::Entry { index, entry } => TurnUpdate::Entry { index, entry },
        Shown::Sheet => TurnUpdate::Sheet {
            sheet: Box::new(sheet_view(&state.sheet)),
        },
        Shown::TablePending(table) => TurnUpdate::TablePending { table },
        Shown::Agreement => TurnUpdate::Agreement {
            agreement: state.agreement.clone(),
        },
        Shown::Model {
            from_turn,
            turn,
            messages,
        } => TurnUpdate::Model {
            change: ModelChange {
                from_turn,
                added: Some(ModelTurnView {
                    turn,
                    messages: messages.iter().map(llm_view).collect(),
                }),
                layers: None,
            },
        },
        Shown::Proposals => TurnUpdate::Proposals {
            pending: proposal_views(state),
        },
        Shown::Actions => TurnUpdate::Actions {
            actions: action_views(state),
        },
        Shown::Encounter => TurnUpdate::Encounter {
            encounter: encounter_view(state),
        },
        Shown::Journal => TurnUpdate::Journal {
            entries: state.journal.entries().to_vec(),
        },
        Shown::Spine => TurnUpdate::Spine {
            spine: spine_view(&state.spine),
        },
        Shown::Party => TurnUpdate::Table {
            members: table_members(state, &[]),
        },
        Shown::Map => TurnUpdate::Map {
            map: campaign_map(state),
        },
        Shown::Waiting { attempt, attempts } => TurnUpdate::Waiting {
            text: retrying(attempt, attempts),
        },
    }
}

/// Every update of `shown`, in order, with `state` as it is right after the event.
pub fn turn_updates(shown: Vec<Shown>, state: &CampaignState) -> Vec<TurnUpdate> {
    shown
        .into_iter()
        .map(|shown| turn_update(shown, state))
        .collect()
}

/// What the player reads while the model's call is tried again.
fn retrying(attempt: u32, attempts: u32) -> String {
    format!("The game master's model did not answer; trying again ({attempt} of {attempts})…")
}

impl From<&SceneCheck> for LedgerCheckView {
    fn from(check: &SceneCheck) -> Self {
        Self {
            turn: check.turn,
            claims: check.claims,
            asked: check.asked.clone(),
            notes: check.notes.clone(),
        }
    }
}
