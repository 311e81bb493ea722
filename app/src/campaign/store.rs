//! `CampaignStore`: the port to the database that keeps campaigns and their event logs.
//!
//! Every call is scoped by the owner: another player's campaign is "not found". Appends are
//! guarded by the turn the caller read (optimistic concurrency), and each append is one
//! transaction.

use futures::future::BoxFuture;

use super::event::{CampaignEvent, StoredEvent};
use super::{CampaignId, PlayerId};

/// A campaign's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignRecord {
    /// Its id.
    pub id: CampaignId,
    /// The player it belongs to.
    pub owner: PlayerId,
    /// Its title.
    pub title: String,
    /// Created, seconds since the Unix epoch.
    pub created_at: i64,
    /// Last changed, seconds since the Unix epoch.
    pub updated_at: i64,
    /// Scenes narrated so far.
    pub turn: u32,
}

/// How an append moves the campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Append {
    /// A narration: the events belong to the next turn, which becomes the campaign's turn.
    NextTurn,
    /// More events for the current turn (the actions offered for it).
    SameTurn,
}

/// Why a store call failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No such campaign for this player.
    #[error("campaign not found")]
    NotFound,
    /// The campaign moved on since the caller read it (another tab played a turn).
    #[error("this campaign has moved on to turn {current}; reload to continue from there")]
    Stale {
        /// The campaign's turn now.
        current: u32,
    },
    /// The database failed.
    #[error("the game could not be saved or loaded: {0}")]
    Database(String),
}

/// The database of campaigns.
pub trait CampaignStore: Send + Sync {
    /// Creates a campaign with its first events, in one transaction.
    fn create<'a>(
        &'a self,
        record: &'a CampaignRecord,
        events: &'a [StoredEvent],
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The player's campaigns, most recently played first.
    fn list<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Vec<CampaignRecord>, StoreError>>;

    /// A campaign and its whole log, oldest event first.
    fn load<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(CampaignRecord, Vec<StoredEvent>), StoreError>>;

    /// Appends events if the campaign is still at `expected_turn`, in one transaction; returns
    /// the campaign's turn afterwards.
    fn append<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        expected_turn: u32,
        how: Append,
        events: &'a [CampaignEvent],
        now: i64,
    ) -> BoxFuture<'a, Result<u32, StoreError>>;

    /// Deletes a campaign and its log.
    fn delete<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
}
