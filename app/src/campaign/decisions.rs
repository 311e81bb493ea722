//! Approval mode in the projector: a change the game master proposed kept waiting for the
//! player, and the player's decision on it, accepted (applied by the same rules) or refused.

use super::proposal::{Proposal, ProposalError, Proposed, Tables};
use super::shown::Shown;
use super::state::{CampaignState, ProjectionError};
use super::story::StoryEntry;
use super::turn_event::TurnEvent;
use crate::game::map::WorldMap;
use crate::game::{AppliedChanges, CharacterSheet, Journal};

impl CampaignState {
    /// A change the game master proposed (approval mode): kept waiting for the player, shown in
    /// the story with what led to it. Proposals are numbered in order.
    pub(super) fn propose(
        &mut self,
        id: u32,
        proposed: &Proposed,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        if id != self.proposals_made + 1 {
            return Err(ProjectionError::NoProposal(id));
        }
        self.proposals_made = id;
        let labels = proposed.labels(&self.journal);
        let cause = self
            .last_roll
            .clone()
            .filter(|_| proposed.changes_hit_points());
        self.proposals.push(Proposal {
            id,
            turn: self.turn,
            proposed: proposed.clone(),
            labels: labels.clone(),
            cause: cause.clone(),
        });
        updates.push(self.entry(StoryEntry::Proposal { labels, cause }));
        updates.push(Shown::Proposals);
        Ok(())
    }

    /// The player's decision on a waiting proposal: accepted, it is applied by the rules (the
    /// stored changes must be what applying it changes); refused, nothing changes and the model
    /// is told at its next telling.
    pub(super) fn decide(
        &mut self,
        id: u32,
        accepted: bool,
        changes: &AppliedChanges,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        let index = self
            .proposals
            .iter()
            .position(|proposal| proposal.id == id)
            .ok_or(ProjectionError::NoProposal(id))?;
        let proposal = self.proposals[index].clone();
        if accepted {
            let (sheet, journal, map, applied) = self.accepted(&proposal.proposed)?;
            if applied != *changes {
                return Err(ProjectionError::Decision(id));
            }
            (self.sheet, self.journal, self.map) = (sheet, journal, map);
            updates.push(match proposal.proposed {
                Proposed::Sheet { .. } => Shown::Sheet,
                Proposed::Journal { .. } => Shown::Journal,
                Proposed::Map { .. } => Shown::Map,
            });
        } else if changes.is_empty() {
            self.refused.push(proposal.labels.join(", "));
        } else {
            return Err(ProjectionError::Decision(id));
        }
        self.proposals.remove(index);
        let labels = proposal.labels;
        updates.push(self.entry(StoryEntry::Decision { accepted, labels }));
        updates.push(Shown::Proposals);
        Ok(())
    }

    /// The event that records the player's decision on the waiting proposal `id`: accepted,
    /// with what applying it changes now; refused, with nothing. A proposal that is not waiting,
    /// or an accepted change the rules no longer allow, is an error.
    pub fn decision(&self, id: u32, accept: bool) -> Result<TurnEvent, ProjectionError> {
        let proposal = self
            .proposals
            .iter()
            .find(|proposal| proposal.id == id)
            .ok_or(ProjectionError::NoProposal(id))?;
        let changes = if accept {
            self.accepted(&proposal.proposed)?.3
        } else {
            AppliedChanges::default()
        };
        Ok(TurnEvent::Decided {
            id,
            accepted: accept,
            changes,
        })
    }

    /// The sheet, journal and map with `proposed` applied (this state left as it is), and what
    /// it changed on the sheet.
    fn accepted(
        &self,
        proposed: &Proposed,
    ) -> Result<(CharacterSheet, Journal, WorldMap, AppliedChanges), ProposalError> {
        let (mut sheet, mut journal, mut map) =
            (self.sheet.clone(), self.journal.clone(), self.map.clone());
        let tables = Tables {
            sheet: &mut sheet,
            journal: &mut journal,
            map: &mut map,
        };
        let changes = proposed.apply(tables)?;
        Ok((sheet, journal, map, changes))
    }
}
