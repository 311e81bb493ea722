//! `TableStore`: the port to the database that keeps a table of friends beside its campaign —
//! the invitations the host made (only their digests, each for one friend and a day), who sits
//! at which seat (each seat its own player cookie), and the moves of the round under way (kept
//! until the round is narrated, so a move sent is never lost). The characters themselves are in
//! the campaign's log ([`super::event::CampaignEvent::Seated`]); none of this is exported.

use futures::future::BoxFuture;

use super::ids::{CampaignId, PlayerId};
use super::store::StoreError;
use crate::game::party::Seat;

/// How long an invitation lasts, in seconds: a day.
pub const INVITATION_SECS: i64 = 24 * 60 * 60;

/// What an invitation's digest turned out to be when a friend brought it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invitation {
    /// A live invitation: the campaign and its host.
    Valid {
        /// The campaign.
        id: CampaignId,
        /// Its host.
        owner: PlayerId,
    },
    /// It ran out.
    Expired,
    /// A friend used it already.
    Used,
    /// No such invitation (never made, or revoked).
    Unknown,
}

/// A friend at the table: their seat and the player they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// The seat.
    pub seat: Seat,
    /// The player sitting there.
    pub player: PlayerId,
}

/// Where a player sits at a campaign as a friend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The campaign.
    pub id: CampaignId,
    /// Its host.
    pub owner: PlayerId,
    /// The friend's seat.
    pub seat: Seat,
}

/// A seat's move of the round under way, as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundMove {
    /// The seat.
    pub seat: Seat,
    /// The move as the browser sent it (JSON of the move form).
    pub body: String,
    /// When it came, seconds since the Unix epoch.
    pub at: i64,
}

/// The database of tables.
pub trait TableStore: Send + Sync {
    /// Keeps an invitation to campaign `id` by its `digest`, running out at `expires_at`.
    fn invite<'a>(
        &'a self,
        id: &'a CampaignId,
        digest: &'a str,
        expires_at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Forgets every invitation to campaign `id` not yet used; how many.
    fn revoke_invitations<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<u64, StoreError>>;

    /// What the invitation with `digest` is at `now` (nothing is changed).
    fn invitation<'a>(
        &'a self,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Invitation, StoreError>>;

    /// Seats `player` at `seat` of campaign `id` by the invitation with `digest`, used up in
    /// the same transaction (one use only, even when two friends bring it at once);
    /// [`StoreError::Stale`], changing nothing, when the invitation was used meanwhile, the
    /// seat is taken or the player sits there already.
    fn add_seat<'a>(
        &'a self,
        id: &'a CampaignId,
        seat: Seat,
        player: &'a PlayerId,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Who sits where at campaign `id`, by seat.
    fn seats<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Vec<SeatRecord>, StoreError>>;

    /// The seat `player` holds at campaign `id`, with its host, if any.
    fn seat_of<'a>(
        &'a self,
        player: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Option<Joined>, StoreError>>;

    /// Frees `seat` of campaign `id` (and its move of the round); whether anyone sat there.
    fn remove_seat<'a>(
        &'a self,
        id: &'a CampaignId,
        seat: Seat,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Keeps `seat`'s move answering turn `turn` of campaign `id` (a second one replaces it).
    fn put_move<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
        round_move: &'a RoundMove,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The moves answering turn `turn` of campaign `id`, by seat.
    fn moves<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
    ) -> BoxFuture<'a, Result<Vec<RoundMove>, StoreError>>;

    /// Forgets the moves of campaign `id` answering turns before `turn` (rounds narrated).
    fn clear_moves<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
}
