//! `CampaignStore`: the port to the database that keeps campaigns, their event logs and what is
//! derived from the logs (the snapshot of the current state and the story log).
//!
//! Every call is scoped by the owner: another player's campaign is "not found". Commits are
//! guarded by the turn the caller read (optimistic concurrency), and each commit is one
//! transaction: the events, the story entries they add and the new snapshot together. The log
//! stays the source of truth: the snapshot and the story can always be rebuilt from it.

use std::sync::Arc;

use futures::future::BoxFuture;

use super::conversation::{SentRequest, TokenUsage};
use super::event::{CampaignEvent, StoredEvent};
use super::ids::{CampaignId, PlayerId};
use super::passage::{Passage, SearchQuery, SearchScope};
use super::picture::{PictureFormat, PictureId};
use super::state::CampaignState;
use super::story::StoryEntry;

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
    /// The tokens its story has cost so far.
    pub usage: TokenUsage,
}

/// How a commit moves the campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Append {
    /// A narration: the events belong to the next turn, which becomes the campaign's turn.
    NextTurn,
    /// More events for the current turn (the actions offered for it).
    SameTurn,
    /// Undo, redo or a retelling: the campaign moves to `turn`, and the commit's story is the
    /// whole story, replacing the stored one.
    Replace {
        /// The campaign's turn afterwards.
        turn: u32,
    },
}

/// One phase's results, written together.
#[derive(Clone, Copy, Debug)]
pub struct Commit<'a> {
    /// The new events, in order.
    pub events: &'a [CampaignEvent],
    /// The story entries they add, continuing the story log.
    pub story: &'a [StoryEntry],
    /// The state after them (shared: a store that keeps campaigns in memory keeps this one).
    pub state: &'a Arc<CampaignState>,
    /// The last request the phase sent to the model, if it sent one.
    pub request: Option<&'a SentRequest>,
    /// The state the commit was built on, as the store holds it at the expected turn (`None`:
    /// not known to be stored). A store may write only what changed since; given a state it
    /// does not hold, its snapshot would be wrong until rebuilt.
    pub before: Option<&'a CampaignState>,
}

/// The current state as stored: the snapshot if there is a readable one of this version.
///
/// The state and the request are shared, not copied: a store that keeps campaigns in memory
/// hands out the same ones to every read until a commit replaces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Current {
    /// The campaign's row.
    pub record: CampaignRecord,
    /// Its snapshot; `None` when it must be rebuilt from the log (a campaign from before
    /// snapshots, or a snapshot of another format version).
    pub state: Option<Arc<CampaignState>>,
    /// The last request sent to the model, if one was recorded.
    pub request: Option<Arc<SentRequest>>,
}

/// The snapshot's format version; a snapshot of another version is rebuilt from the log (4: the
/// rebuild also writes the story's search index, which campaigns of version 3 lack; 5: the
/// model's window is stored beside the state, a turn per row).
pub const SNAPSHOT_VERSION: u32 = 5;

/// Why a store call failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such campaign for this player.
    #[error("campaign not found")]
    NotFound,
    /// The campaign moved on since the caller read it (another tab played a turn).
    #[error("the campaign has moved on to turn {current}")]
    Stale {
        /// The campaign's turn now.
        current: u32,
    },
    /// The database failed.
    #[error("the database failed: {0}")]
    Database(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    /// A database failure.
    pub fn database(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Database(error.into())
    }
}

/// The database of campaigns.
pub trait CampaignStore: Send + Sync {
    /// Creates a campaign with its first events, their story entries and its snapshot, in one
    /// transaction.
    fn create<'a>(
        &'a self,
        record: &'a CampaignRecord,
        events: &'a [StoredEvent],
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A page of the player's campaigns, most recently played first: at most `limit` of them,
    /// after the first `offset`.
    fn list<'a>(
        &'a self,
        owner: &'a PlayerId,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<CampaignRecord>, StoreError>>;

    /// How many campaigns the player has.
    fn count<'a>(&'a self, owner: &'a PlayerId) -> BoxFuture<'a, Result<u32, StoreError>>;

    /// A campaign's row and snapshot (one row read; the log is not read).
    fn current<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Current, StoreError>>;

    /// Up to `limit` story entries before index `before`, oldest first, with the first one's
    /// index.
    fn story<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        before: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<(u32, Vec<StoryEntry>), StoreError>>;

    /// The passages of the story in effect (scenes, asides and, in the `scope`, moves) that
    /// hold any of the query's words, the best match first (ranked by BM25; among equals the
    /// later one).
    fn search<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        query: &'a SearchQuery,
        scope: SearchScope,
    ) -> BoxFuture<'a, Result<Vec<Passage>, StoreError>>;

    /// A campaign and its whole log, oldest event first (for rebuilding and checking).
    fn log<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(CampaignRecord, Vec<StoredEvent>), StoreError>>;

    /// Commits a phase if the campaign is still at `expected_turn`; returns the campaign's
    /// turn afterwards.
    fn commit<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        expected_turn: u32,
        how: Append,
        commit: Commit<'a>,
        now: i64,
    ) -> BoxFuture<'a, Result<u32, StoreError>>;

    /// Replaces what is derived from the log (the whole story and the snapshot) with a rebuild,
    /// if the campaign is still at `turn`.
    fn rebuild<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        turn: u32,
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Gives a campaign a new title (already cleaned: printable and bounded).
    fn rename<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        title: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Deletes a campaign for good, its log and what is derived from it, whether it is in play
    /// or in the trash.
    fn delete<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Moves a campaign in play to the trash at `now` (seconds since the Unix epoch): from then
    /// on no call scoped by its player finds it, until it is restored.
    fn trash<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The player's campaigns in the trash that were trashed at `since` or later, the most
    /// recently trashed first, with when each was trashed.
    fn trashed<'a>(
        &'a self,
        owner: &'a PlayerId,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<(CampaignRecord, i64)>, StoreError>>;

    /// Brings a campaign trashed at `since` or later back into play.
    fn restore<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        since: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Deletes for good every campaign trashed before `before`, of every player; returns how
    /// many.
    fn purge(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>>;

    /// Keeps `digest` as the player's recovery code, made at `now`, in place of any other.
    fn set_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// When the player's recovery code was made, if they have one.
    fn recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<i64>, StoreError>>;

    /// Forgets the player's recovery code; whether there was one.
    fn revoke_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// The player whose recovery code has `digest`, if any; `newcomer`'s campaigns (in play and
    /// in the trash) become theirs, in one transaction.
    fn redeem<'a>(
        &'a self,
        digest: &'a str,
        newcomer: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<PlayerId>, StoreError>>;

    /// Keeps a picture's bytes beside the campaign's log (one already kept stays as it is). The
    /// caller has checked that the campaign is the player's and the bytes are the picture.
    fn put_picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a KeptPicture,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A picture kept for the campaign, if any (the caller has checked that the player may see
    /// the campaign).
    fn picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a PictureId,
    ) -> BoxFuture<'a, Result<Option<KeptPicture>, StoreError>>;

    /// Every picture kept for the campaign, for its export (the caller has checked that it is
    /// the player's).
    fn pictures<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Vec<KeptPicture>, StoreError>>;
}

/// A picture's bytes as the store keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptPicture {
    /// Its id (the digest of its bytes).
    pub id: PictureId,
    /// How it is encoded.
    pub format: PictureFormat,
    /// The bytes.
    pub bytes: Vec<u8>,
}
