//! One turn at a time per campaign, across every server instance on the database: a phase (a
//! move, actions, undo, a journal edit, a restart) takes the campaign's lease before it calls the
//! model; a second request meanwhile is answered "busy" instead of a second model call.
//! Summaries (which run beside the turns) have a lease of their own: one at a time.
//!
//! A lease is renewed while its holder works and given back when the holder is dropped; the
//! lease of a process that crashed runs out after [`LEASE_TTL`].
//!
//! A database only one process serves (SQLite) needs no shared lease: there the leases are held
//! in the process's memory ([`TurnsInFlight::in_process`]), which spares every phase three
//! writes (take, renew, give back) on the database's one writing connection.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
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

/// The campaigns' leases, taken through the database or in this process; the pending rolls are
/// always kept in the database.
#[derive(Clone)]
pub struct TurnsInFlight {
    leases: Arc<dyn LeaseStore>,
    local: Option<Arc<LocalLeases>>,
}

/// The leases held in this process: the campaigns (and the work) that have a phase running.
#[derive(Default)]
struct LocalLeases(Mutex<HashSet<(CampaignId, Work)>>);

impl LocalLeases {
    /// Takes the lease if it is free.
    fn take(&self, id: &CampaignId, work: Work) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((id.clone(), work))
    }

    fn give_back(&self, id: &CampaignId, work: Work) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(id.clone(), work));
    }
}

/// Held while a phase runs; dropping it gives the campaign back.
pub struct InFlight {
    leases: Arc<dyn LeaseStore>,
    id: CampaignId,
    work: Work,
    hold: Hold,
}

/// How an [`InFlight`] holds its lease.
enum Hold {
    /// In the database, renewed by a task while held.
    Shared {
        holder: String,
        renewal: tokio::task::JoinHandle<()>,
    },
    /// In this process's memory.
    Local(Arc<LocalLeases>),
    /// Given back already.
    Released,
}

impl TurnsInFlight {
    /// Leases taken in `leases`, shared by every process on the database.
    pub fn new(leases: Arc<dyn LeaseStore>) -> Self {
        Self {
            leases,
            local: None,
        }
    }

    /// Leases held in this process's memory, for a database no other process serves; the
    /// pending rolls are kept in `leases`.
    pub fn in_process(leases: Arc<dyn LeaseStore>) -> Self {
        Self {
            leases,
            local: Some(Arc::default()),
        }
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
        let patience = tokio::time::Instant::now() + PATIENCE;
        let hold = loop {
            if let Some(hold) = self.try_hold(id, work).await? {
                break hold;
            }
            if tokio::time::Instant::now() >= patience {
                return Ok(None);
            }
            tokio::time::sleep(POLL).await;
        };
        Ok(Some(InFlight {
            leases: self.leases.clone(),
            id: id.clone(),
            work,
            hold,
        }))
    }

    /// The lease, if it is free now.
    async fn try_hold(&self, id: &CampaignId, work: Work) -> Result<Option<Hold>, ServiceError> {
        if let Some(local) = &self.local {
            return Ok(local.take(id, work).then(|| Hold::Local(local.clone())));
        }
        let holder = format!("{:032x}", rand::rng().random::<u128>());
        if !self.leases.take_lease(terms(id, work, &holder)).await? {
            return Ok(None);
        }
        Ok(Some(Hold::Shared {
            renewal: tokio::spawn(renew(self.leases.clone(), id.clone(), work, holder.clone())),
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
        match std::mem::replace(&mut self.hold, Hold::Released) {
            Hold::Shared { holder, renewal } => {
                renewal.abort();
                if let Err(error) = self
                    .leases
                    .release_lease(&self.id, self.work, &holder)
                    .await
                {
                    tracing::warn!(campaign = %self.id.as_str(), %error, "giving a lease back");
                }
            }
            Hold::Local(local) => local.give_back(&self.id, self.work),
            Hold::Released => {}
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
        match std::mem::replace(&mut self.hold, Hold::Released) {
            Hold::Shared { holder, renewal } => {
                renewal.abort();
                let (leases, id, work) = (self.leases.clone(), self.id.clone(), self.work);
                tokio::spawn(async move {
                    if let Err(error) = leases.release_lease(&id, work, &holder).await {
                        tracing::warn!(campaign = %id.as_str(), %error, "giving a lease back");
                    }
                });
            }
            Hold::Local(local) => local.give_back(&self.id, self.work),
            Hold::Released => {}
        }
    }
}
