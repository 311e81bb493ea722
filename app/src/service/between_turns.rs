//! The campaign's memory between turns: the summary phase, which folds old turns into "the story
//! so far" beside the game (a failed or slow summary never blocks or loses a turn: it is tried
//! again after the next one, and until then the window is cut to fit), and the player's own
//! journal edits.

use std::time::Duration;

use super::in_flight::InFlight;
use super::{Game, Loaded, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::campaign::turn_event::{Phase, TurnEvent};
use crate::game::JournalChange;
use crate::gm::{summarize, Summarized};
use crate::wire::view::TurnUpdate;
use crate::wire::{CampaignId, PlayerId};

/// How long a finished summary waits for a running phase to end before it is dropped (and
/// written again after the next turn).
const COMMIT_PATIENCE: Duration = Duration::from_secs(120);

/// How often it looks.
const COMMIT_POLL: Duration = Duration::from_millis(100);

/// What the summary phase did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryOutcome {
    /// Every verbatim turn still fits: nothing to fold.
    NotNeeded,
    /// Another summary of this campaign is being written.
    AlreadyRunning,
    /// A new summary, through this turn, was saved.
    Saved {
        /// The last turn it covers.
        through_turn: u32,
    },
    /// The summary was written, but the campaign had moved past it or stayed busy; dropped.
    Dropped,
}

impl Game<'_> {
    /// The summary phase: if the campaign's verbatim turns no longer fit, the model folds the
    /// oldest into a new summary, saved as an event. The turn guard is held only to commit, on
    /// the state as it is then, so turns go on while the model writes.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "summary", campaign = %id))]
    pub async fn summarize(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<SummaryOutcome, ServiceError> {
        // The owner first: another player learns nothing and takes nothing.
        self.store.current(owner, id).await?;
        let Some(_summarizing) = self.in_flight.take_summary(id).await? else {
            return Ok(SummaryOutcome::AlreadyRunning);
        };
        let loaded = self.current(owner, id).await?;
        let written = self
            .in_time(summarize(
                self.llm,
                self.gm,
                &loaded.state,
                loaded.request.as_deref(),
            ))
            .await?;
        let Some(summary) = written else {
            return Ok(SummaryOutcome::NotNeeded);
        };
        let Some(_turn) = self.wait_for_turn(id).await? else {
            return Ok(SummaryOutcome::Dropped);
        };
        let loaded = self.current(owner, id).await?;
        let covered = loaded
            .state
            .summary
            .as_ref()
            .is_some_and(|known| known.through_turn >= summary.through_turn);
        if covered {
            return Ok(SummaryOutcome::Dropped);
        }
        let through_turn = summary.through_turn;
        match self.commit_summary(owner, id, loaded, summary, now).await {
            Ok(()) => Ok(SummaryOutcome::Saved { through_turn }),
            Err(ServiceError::Stale { .. }) => Ok(SummaryOutcome::Dropped),
            Err(error) => Err(error),
        }
    }

    async fn commit_summary(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        loaded: Loaded,
        summary: Summarized,
        now: i64,
    ) -> Result<(), ServiceError> {
        let events = vec![
            CampaignEvent::Turn(TurnEvent::Usage {
                phase: Phase::Summary,
                usage: summary.usage,
            }),
            CampaignEvent::Summarized {
                through_turn: summary.through_turn,
                text: summary.text,
            },
        ];
        self.append(owner, id, loaded, events, Some(summary.sent), now)
            .await
            .map(drop)
    }

    /// The turn guard, once no phase of the campaign runs (`None` after [`COMMIT_PATIENCE`]).
    async fn wait_for_turn(&self, id: &CampaignId) -> Result<Option<InFlight>, ServiceError> {
        let deadline = tokio::time::Instant::now() + COMMIT_PATIENCE;
        loop {
            if let Some(guard) = self.in_flight.try_take(id).await? {
                return Ok(Some(guard));
            }
            if tokio::time::Instant::now() >= deadline {
                return Ok(None);
            }
            tokio::time::sleep(COMMIT_POLL).await;
        }
    }

    /// The player's change to the journal (pin, edit, delete), saved as an event the game
    /// master sees from its next request. Returns the journal's entries after it.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "journal", campaign = %id))]
    pub async fn edit_journal(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        change: JournalChange,
        now: i64,
    ) -> Result<TurnUpdate, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        let mut journal = loaded.state.journal.clone();
        journal
            .apply(&change)
            .map_err(|error| ServiceError::invalid("journal", error))?;
        let events = vec![CampaignEvent::JournalEdited { change }];
        let after = self.append(owner, id, loaded, events, None, now).await?;
        Ok(TurnUpdate::Journal {
            entries: after.state.journal.entries().to_vec(),
        })
    }
}
