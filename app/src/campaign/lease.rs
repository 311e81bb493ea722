//! `LeaseStore`: the port to the database that says which campaign has work running, so that one
//! turn runs at a time per campaign across every server instance sharing the database; and the
//! roll a move was given before its narration, so that a roll once shown stays final.
//!
//! A lease names its holder (a random token) and expires: a holder renews it while it works, and
//! the lease of a process that crashed runs out by itself.

use futures::future::BoxFuture;

use super::ids::CampaignId;
use super::store::StoreError;
use crate::game::Resolution;

/// What runs for a campaign under a lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Work {
    /// A phase of a turn (a move, actions, undo, a journal edit, a restart).
    Turn,
    /// A summary, written beside the turns.
    Summary,
}

impl Work {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Turn => "turn",
            Self::Summary => "summary",
        }
    }
}

/// A lease to ask for: who, for what, until when (milliseconds since the Unix epoch).
#[derive(Clone, Copy, Debug)]
pub struct LeaseTerms<'a> {
    /// The campaign.
    pub id: &'a CampaignId,
    /// What runs.
    pub work: Work,
    /// The holder's token.
    pub holder: &'a str,
    /// Now.
    pub now_ms: i64,
    /// When the lease runs out unless renewed.
    pub until_ms: i64,
}

/// A player's roll made before its narration: the move it belongs to and its outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingRoll {
    /// The turn the move was made at.
    pub turn: u32,
    /// The offered action chosen.
    pub action_id: String,
    /// Why it was rolled.
    pub reason: String,
    /// The roll and its verdict.
    pub resolution: Resolution,
}

/// Leases on campaigns and the rolls of moves in progress.
pub trait LeaseStore: Send + Sync {
    /// Takes the lease if nobody holds it or the holder's has run out; `false` if it is held.
    fn take_lease<'a>(&'a self, terms: LeaseTerms<'a>) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Extends a lease its holder still has; `false` if it was lost (it ran out and was taken).
    fn renew_lease<'a>(&'a self, terms: LeaseTerms<'a>) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Gives a lease back (nothing if the holder no longer has it).
    fn release_lease<'a>(
        &'a self,
        id: &'a CampaignId,
        work: Work,
        holder: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The roll saved for the campaign's move in progress, if any. A commit of the campaign
    /// removes it.
    fn pending_roll<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Option<PendingRoll>, StoreError>>;

    /// Saves the roll of the move about to be narrated (replacing any other).
    fn save_pending_roll<'a>(
        &'a self,
        id: &'a CampaignId,
        roll: &'a PendingRoll,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
}
