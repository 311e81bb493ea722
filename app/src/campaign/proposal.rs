//! Approval mode: in a campaign that asks for it, a change the game master makes with a tool
//! (damage, healing, items, conditions, experience, rests, a place, the journal) is not applied
//! but waits as a [`Proposal`] until the player accepts or refuses it. Rolls are never
//! proposals: the dice are the server's. An accepted proposal is applied by the same rules as a
//! change made at once; a refused one never touches the campaign, and the model is told.
//!
//! Approval across the layers: this file and the projector's side in `campaign/decisions.rs`; a
//! tool's change proposed instead of applied in `gm/tools/`; the player's decisions and the switch
//! in `service/approval.rs` through `api/play/decide_proposals.rs` and `api/play/set_approval.rs`;
//! the waiting changes shown by `ui/play/proposals.rs`; an imported log's proposals checked in
//! `service/verify/`.

use serde::{Deserialize, Serialize};

use crate::game::map::{PlaceRecord, WorldMap};
use crate::game::{AppliedChanges, CharacterSheet, Journal, JournalChange, StateDelta};

/// What the game master proposed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Proposed {
    /// A change to the character sheet, with what it would change on the sheet it was proposed
    /// for.
    Sheet {
        /// The deltas the tool asked for.
        deltas: Vec<StateDelta>,
        /// What they would change (the chips the player decides on).
        changes: AppliedChanges,
    },
    /// A journal entry noted or closed.
    Journal {
        /// The change.
        change: JournalChange,
    },
    /// A place reached and where it leads.
    Map {
        /// The place.
        record: PlaceRecord,
    },
}

impl Proposed {
    /// Whether it changes hit points (damage or healing), which a roll before it caused.
    pub fn changes_hit_points(&self) -> bool {
        matches!(self, Proposed::Sheet { deltas, .. } if deltas.iter().any(|delta| {
            matches!(delta, StateDelta::ChangeHp { .. } | StateDelta::SetHp { .. })
        }))
    }

    /// The chips the player decides on: `−5 HP`, `+ Dagger`, `Journal: …`, `Map: …`; `None`
    /// when the journal would refuse the change.
    pub fn labels(&self, journal: &Journal) -> Vec<String> {
        match self {
            Proposed::Sheet { changes, .. } => changes.labels(),
            Proposed::Journal { change } => {
                let label = journal.clone().apply(change).ok().flatten();
                vec![format!("Journal: {}", label.unwrap_or_default())]
            }
            Proposed::Map { record } => vec![format!("Map: {}", record.place.as_str())],
        }
    }
}

/// A change waiting for the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// Its number in the campaign (1 for the first proposal ever made).
    pub id: u32,
    /// The turn it was made in.
    pub turn: u32,
    /// What it would change.
    pub proposed: Proposed,
    /// Its chips.
    pub labels: Vec<String>,
    /// What led to damage or healing: the latest roll of its turn before it, if any
    /// (`Rolled 1d6+2 for Goblin scimitar: [3] + 2 = 5`).
    pub cause: Option<String>,
}

/// What the table a proposal would change holds.
pub struct Tables<'a> {
    /// The character sheet.
    pub sheet: &'a mut CharacterSheet,
    /// The journal.
    pub journal: &'a mut Journal,
    /// The map.
    pub map: &'a mut WorldMap,
}

/// Why an accepted proposal no longer applies (the sheet moved on since it was made).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProposalError {
    /// The sheet refuses the change now.
    #[error(transparent)]
    Sheet(#[from] crate::game::DeltaError),
    /// The journal refuses it now.
    #[error(transparent)]
    Journal(#[from] crate::game::JournalError),
    /// The map refuses it now.
    #[error(transparent)]
    Map(#[from] crate::game::map::MapError),
}

impl Proposed {
    /// Applies the accepted change, all or nothing; what it changed on the sheet (nothing for
    /// the journal and the map).
    pub fn apply(&self, tables: Tables<'_>) -> Result<AppliedChanges, ProposalError> {
        match self {
            Proposed::Sheet { deltas, .. } => Ok(StateDelta::apply_all(deltas, tables.sheet)?),
            Proposed::Journal { change } => {
                tables.journal.apply(change)?;
                Ok(AppliedChanges::default())
            }
            Proposed::Map { record } => {
                tables.map.record(record)?;
                Ok(AppliedChanges::default())
            }
        }
    }
}
