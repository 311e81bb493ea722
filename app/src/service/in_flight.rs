//! One turn at a time per campaign, across every server instance on the database: a phase (a
//! move, actions, undo, a journal edit, a restart) takes the campaign's lease before it calls the
//! model; a second request meanwhile is answered "busy" instead of a second model call.
//! Summaries (which run beside the turns) have a lease of their own: one at a time.
//!
//! A lease is renewed while its holder works and given back when the holder is dropped; the
//! lease of a process that crashed runs out after [`LEASE_TTL`].

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::Rng;

use super::ServiceError;
use crate::campaign::lease::{LeaseStore, LeaseTerms, PendingRoll, Work};
use crate::wire::CampaignId;

/// How long a lease lasts unless renewed.
pub const LEASE_TTL: Duration = Duration::from_secs(30);

/// How long a request waits for a lease before it is answered "busy": a phase that has just
/// finished gives its lease back a moment after its answer.
const PATIENCE: Duration = Duration::from_millis(600);

/// How often a waiting request asks again.
const POLL: Duration = Duration::from_millis(30);

/// The campaigns' leases, taken through the database.
#[derive(Clone)]
pub struct TurnsInFlight {
    leases: Arc<dyn LeaseStore>,
}

/// Held while a phase runs; dropping it gives the campaign back.
pub struct InFlight {
    leases: Arc<dyn LeaseStore>,
    id: CampaignId,
    work: Work,
    holder: String,
    renewal: tokio::task::JoinHandle<()>,
}

impl TurnsInFlight {
    /// Leases taken in `leases`.
    pub fn new(leases: Arc<dyn LeaseStore>) -> Self {
        Self { leases }
    }

    /// Takes the campaign for a phase, or says it is busy.
    pub async fn take(&self, id: &CampaignId) -> Result<InFlight, ServiceError> {
        self.try_take(id).await?.ok_or(ServiceError::Busy)
    }

    /// Takes the campaign for a phase, or `None` if one is running.
    pub async fn try_take(&self, id: &CampaignId) -> Result<Option<InFlight>, ServiceError> {
        self.take_for(id, Work::Turn).await
    }

    /// Takes the campaign's summary, or `None` if one is being written.
    pub async fn take_summary(&self, id: &CampaignId) -> Result<Option<InFlight>, ServiceError> {
        self.take_for(id, Work::Summary).await
    }

    async fn take_for(
        &self,
        id: &CampaignId,
        work: Work,
    ) -> Result<Option<InFlight>, ServiceError> {
        let holder = format!("{:032x}", rand::rng().random::<u128>());
        let patience = tokio::time::Instant::now() + PATIENCE;
        while !self.leases.take_lease(terms(id, work, &holder)).await? {
            if tokio::time::Instant::now() >= patience {
                return Ok(None);
            }
            tokio::time::sleep(POLL).await;
        }
        Ok(Some(InFlight {
            renewal: tokio::spawn(renew(self.leases.clone(), id.clone(), work, holder.clone())),
            leases: self.leases.clone(),
            id: id.clone(),
            work,
            holder,
        }))
    }
}

impl InFlight {
    /// The roll saved for the campaign's move in progress, if any.
    pub async fn pending_roll(&self) -> Result<Option<PendingRoll>, ServiceError> {
        Ok(self.leases.pending_roll(&self.id).await?)
    }

    /// Saves the roll of the move about to be narrated, before anyone sees it.
    pub async fn save_roll(&self, roll: &PendingRoll) -> Result<(), ServiceError> {
        Ok(self.leases.save_pending_roll(&self.id, roll).await?)
    }

    /// Gives the campaign back now, so that the phase the browser asks for next (the actions
    /// after a move) finds it free instead of waiting a poll for the release a drop sends.
    pub async fn release(mut self) {
        self.renewal.abort();
        let holder = std::mem::take(&mut self.holder);
        if let Err(error) = self
            .leases
            .release_lease(&self.id, self.work, &holder)
            .await
        {
            tracing::warn!(campaign = %self.id.as_str(), %error, "giving a lease back");
        }
    }
}

/// Renews the lease every third of its lifetime until the holder drops it.
async fn renew(leases: Arc<dyn LeaseStore>, id: CampaignId, work: Work, holder: String) {
    loop {
        tokio::time::sleep(LEASE_TTL / 3).await;
        match leases.renew_lease(terms(&id, work, &holder)).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(campaign = %id.as_str(), "a running phase lost its lease");
                return;
            }
            Err(error) => tracing::warn!(campaign = %id.as_str(), %error, "renewing a lease"),
        }
    }
}

fn terms<'a>(id: &'a CampaignId, work: Work, holder: &'a str) -> LeaseTerms<'a> {
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        });
    LeaseTerms {
        id,
        work,
        holder,
        now_ms,
        until_ms: now_ms.saturating_add(LEASE_TTL.as_millis() as i64),
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.renewal.abort();
        let (leases, id, work) = (self.leases.clone(), self.id.clone(), self.work);
        let holder = std::mem::take(&mut self.holder);
        if holder.is_empty() {
            return; // given back by `release`
        }
        tokio::spawn(async move {
            if let Err(error) = leases.release_lease(&id, work, &holder).await {
                tracing::warn!(campaign = %id.as_str(), %error, "giving a lease back");
            }
        });
    }
}
