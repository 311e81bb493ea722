//! Approval mode between turns: the player accepts or refuses the changes the game master
//! proposed (one, several or all at once), and turns the mode on or off. An accepted change is
//! applied by the rules as it would have been at once; a refused one changes nothing and the
//! model hears of it at its next telling. Each decision is an event the ledger shows with who
//! decided.

use super::{Game, ServiceError};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::CampaignState;
use crate::wire::present::actions::proposal_views;
use crate::wire::present::map::campaign_map;
use crate::wire::present::sheet::sheet_view;
use crate::wire::view::{ProposalDecision, TurnUpdate};
use crate::wire::{CampaignId, PlayerId};

/// The most decisions one request may carry (as many as a turn can propose, with room).
pub const MAX_DECISIONS: usize = 64;

impl Game<'_> {
    /// Applies the player's `decisions` in order, all or nothing: a proposal that is not
    /// waiting, the same one decided twice, or an accepted change the rules no longer allow is
    /// refused and nothing changes. Returns what the play screen shows change.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "decide proposals", campaign = %id))]
    pub async fn decide_proposals(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        decisions: &[ProposalDecision],
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        if decisions.is_empty() || decisions.len() > MAX_DECISIONS {
            return Err(ServiceError::invalid(
                "decisions",
                format!("decide 1 to {MAX_DECISIONS} proposals at a time"),
            ));
        }
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        let mut state = CampaignState::clone(&loaded.state);
        let mut events = Vec::with_capacity(decisions.len());
        for decision in decisions {
            let event = state
                .decision(decision.id, decision.accept)
                .map_err(|error| ServiceError::invalid("decisions", error))?;
            let event = CampaignEvent::Turn(event);
            state.apply(&StoredEvent {
                turn: loaded.record.turn,
                event: event.clone(),
            })?;
            events.push(event);
        }
        let shown_from = loaded.state.story_len;
        let after = self.append(owner, id, loaded, events, None, now).await?;
        let mut updates = vec![
            TurnUpdate::Sheet {
                sheet: Box::new(sheet_view(&after.state.sheet)),
            },
            TurnUpdate::Journal {
                entries: after.state.journal.entries().to_vec(),
            },
            TurnUpdate::Map {
                map: campaign_map(&after.state),
            },
            TurnUpdate::Proposals {
                pending: proposal_views(&after.state),
            },
        ];
        updates.extend(self.new_entries(owner, id, &after, shown_from).await?);
        Ok(updates)
    }

    /// Turns approval mode on or off from the next change the game master makes; the changes
    /// already waiting still wait for the player.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "approval", campaign = %id))]
    pub async fn set_approval(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        on: bool,
        now: i64,
    ) -> Result<bool, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        if loaded.state.approval == on {
            return Ok(on);
        }
        let events = vec![CampaignEvent::ApprovalSet { on }];
        let after = self.append(owner, id, loaded, events, None, now).await?;
        Ok(after.state.approval)
    }
}
