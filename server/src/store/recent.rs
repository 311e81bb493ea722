//! The campaigns played lately, as last read or committed, kept in memory for a database only
//! this process writes (SQLite): a turn reads its campaign four times (before and under its lease,
//! in each phase), and each read would decode the stored snapshot again.
//!
//! A read hands out the kept state and last request shared (`Arc`), not copied, and a commit
//! keeps the very state it wrote: a turn copies the state only where it changes it.
//!
//! The roll of each such campaign's move in progress (or that it has none) is kept beside it: a
//! move reads it before it rolls, and each read would be a round trip to the database's thread.
//!
//! Every write of the store passes here: a commit updates the campaign it wrote, any other write
//! forgets what it touched. A read that missed fills the cache only if no write happened while it
//! read (a global count of writes), so a slow read never brings back what a commit replaced.

use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard, PoisonError};

use app::campaign::lease::PendingRoll;
use app::campaign::store::Current;
use app::wire::{CampaignId, PlayerId};
use lru::LruCache;

/// Campaigns kept (the least recently used is dropped first): a long campaign's state is some
/// tens of kilobytes in memory. More than the players who play at once: each comes back to their
/// campaign every few tens of seconds, a cycle through all of them that a smaller cache would
/// miss every time (each move then decoding its snapshot again; the crowd bench).
const KEPT: NonZeroUsize = match NonZeroUsize::new(4_096) {
    Some(kept) => kept,
    None => unreachable!(),
};

/// The recent campaigns and the count of writes so far.
#[derive(Debug)]
pub(super) struct Recent(Mutex<Inner>);

#[derive(Debug)]
struct Inner {
    campaigns: LruCache<CampaignId, Current>,
    rolls: LruCache<CampaignId, Option<PendingRoll>>,
    writes: u64,
}

/// What a read saw before it went to the database: whether it may fill the cache afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ticket(u64);

impl Default for Recent {
    fn default() -> Self {
        Self(Mutex::new(Inner {
            campaigns: LruCache::new(KEPT),
            rolls: LruCache::new(KEPT),
            writes: 0,
        }))
    }
}

impl Recent {
    /// The owner's campaign as kept, or a ticket to fill it with what the database says.
    pub(super) fn get(&self, owner: &PlayerId, id: &CampaignId) -> Result<Current, Ticket> {
        let mut inner = self.lock();
        let writes = inner.writes;
        match inner.campaigns.get(id) {
            Some(kept) if kept.record.owner == *owner => Ok(kept.clone()),
            _ => Err(Ticket(writes)),
        }
    }

    /// Keeps what a read found, unless something was written since it was issued `ticket`.
    pub(super) fn fill(&self, ticket: Ticket, current: &Current) {
        let mut inner = self.lock();
        if inner.writes == ticket.0 {
            inner
                .campaigns
                .put(current.record.id.clone(), current.clone());
        }
    }

    /// A commit of campaign `id` succeeded: `update` brings the kept copy, if any, up to it.
    pub(super) fn committed(&self, id: &CampaignId, update: impl FnOnce(&mut Current)) {
        let mut inner = self.lock();
        inner.writes += 1;
        if let Some(kept) = inner.campaigns.get_mut(id) {
            update(kept);
        }
    }

    /// The roll of campaign `id`'s move in progress as kept (`None` inside: it has none), or a
    /// ticket to fill it with what the database says.
    pub(super) fn pending_roll(&self, id: &CampaignId) -> Result<Option<PendingRoll>, Ticket> {
        let mut inner = self.lock();
        let writes = inner.writes;
        inner.rolls.get(id).cloned().ok_or(Ticket(writes))
    }

    /// Keeps the roll a read found, unless something was written since it was issued `ticket`.
    pub(super) fn fill_roll(&self, ticket: Ticket, id: &CampaignId, roll: Option<PendingRoll>) {
        let mut inner = self.lock();
        if inner.writes == ticket.0 {
            inner.rolls.put(id.clone(), roll);
        }
    }

    /// Campaign `id`'s roll in progress is now `roll` in the database (saved, or cleared by a
    /// commit).
    pub(super) fn rolled(&self, id: &CampaignId, roll: Option<PendingRoll>) {
        let mut inner = self.lock();
        inner.writes += 1;
        inner.rolls.put(id.clone(), roll);
    }

    /// Campaign `id` was written some other way (or a commit failed): read it again next time.
    pub(super) fn forget(&self, id: &CampaignId) {
        let mut inner = self.lock();
        inner.writes += 1;
        inner.campaigns.pop(id);
        inner.rolls.pop(id);
    }

    /// Many campaigns were written at once (a purge, a player's campaigns moved).
    pub(super) fn forget_all(&self) {
        let mut inner = self.lock();
        inner.writes += 1;
        inner.campaigns.clear();
        inner.rolls.clear();
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A write of campaign `id` under way: dropped before it [succeeded](Unsure::succeeded) (it
/// failed, or its caller gave up part way: a closed tab, a timed-out request), it forgets the
/// campaign, for the database may or may not hold what was written.
pub(super) struct Unsure<'a> {
    recent: Option<&'a Recent>,
    id: &'a CampaignId,
}

impl<'a> Unsure<'a> {
    /// A write of campaign `id` begins.
    pub(super) fn new(recent: Option<&'a Recent>, id: &'a CampaignId) -> Self {
        Self { recent, id }
    }

    /// The write succeeded: `keep` brings what is kept in memory, if anything is, up to it.
    pub(super) fn succeeded(mut self, keep: impl FnOnce(&Recent)) {
        if let Some(recent) = self.recent.take() {
            keep(recent);
        }
    }
}

impl Drop for Unsure<'_> {
    fn drop(&mut self) {
        if let Some(recent) = self.recent {
            recent.forget(self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::campaign::store::CampaignRecord;
    use app::game::action::Resolution;
    use rand::{rngs::StdRng, SeedableRng};

    fn campaign(owner: &PlayerId, turn: u32) -> Current {
        let mut rng = StdRng::seed_from_u64(7);
        Current {
            record: CampaignRecord {
                id: CampaignId::random(&mut rng),
                owner: owner.clone(),
                title: "A road in the rain".into(),
                created_at: 1,
                updated_at: 1,
                turn,
                usage: Default::default(),
            },
            state: None,
            request: None,
        }
    }

    fn owners() -> (PlayerId, PlayerId) {
        let mut rng = StdRng::seed_from_u64(8);
        (PlayerId::random(&mut rng), PlayerId::random(&mut rng))
    }

    #[test]
    fn a_read_fills_the_cache_for_its_owner_only() {
        let (owner, other) = owners();
        let recent = Recent::default();
        let read = campaign(&owner, 3);
        let id = read.record.id.clone();
        let ticket = recent.get(&owner, &id).unwrap_err();
        recent.fill(ticket, &read);
        assert_eq!(recent.get(&owner, &id), Ok(read));
        assert!(
            recent.get(&other, &id).is_err(),
            "another player's read misses"
        );
    }

    #[test]
    fn a_read_that_overlapped_a_write_is_not_kept() {
        let (owner, _) = owners();
        let recent = Recent::default();
        let stale = campaign(&owner, 3);
        let id = stale.record.id.clone();
        let ticket = recent.get(&owner, &id).unwrap_err();
        recent.committed(&id, |_| {});
        recent.fill(ticket, &stale);
        assert!(recent.get(&owner, &id).is_err());
    }

    #[test]
    fn a_crowd_coming_back_in_turn_finds_every_campaign_kept() {
        let (owner, _) = owners();
        let recent = Recent::default();
        let mut rng = StdRng::seed_from_u64(9);
        let crowd: Vec<Current> = (0..3_000)
            .map(|_| {
                let mut read = campaign(&owner, 3);
                read.record.id = CampaignId::random(&mut rng);
                read
            })
            .collect();
        for read in &crowd {
            recent.fill(recent.get(&owner, &read.record.id).unwrap_err(), read);
        }
        assert!(crowd
            .iter()
            .all(|read| recent.get(&owner, &read.record.id).is_ok()));
    }

    fn roll(turn: u32) -> PendingRoll {
        let dice: app::game::dice::DiceExpr = "1d20+2".parse().unwrap();
        PendingRoll {
            turn,
            action_id: "strike".into(),
            reason: "Attack".into(),
            resolution: Resolution::Roll(dice.roll(&mut StdRng::seed_from_u64(u64::from(turn)))),
        }
    }

    #[test]
    fn a_roll_is_kept_as_written_and_a_read_that_overlapped_a_write_is_not() {
        let (owner, _) = owners();
        let recent = Recent::default();
        let id = campaign(&owner, 3).record.id;
        let ticket = recent.pending_roll(&id).unwrap_err();
        recent.rolled(&id, Some(roll(3)));
        recent.fill_roll(ticket, &id, None);
        assert_eq!(
            recent.pending_roll(&id),
            Ok(Some(roll(3))),
            "the stale read is dropped"
        );
        recent.rolled(&id, None);
        assert_eq!(recent.pending_roll(&id), Ok(None), "a commit cleared it");
        recent.forget(&id);
        let ticket = recent.pending_roll(&id).unwrap_err();
        recent.fill_roll(ticket, &id, Some(roll(4)));
        assert_eq!(recent.pending_roll(&id), Ok(Some(roll(4))));
        recent.forget_all();
        assert!(recent.pending_roll(&id).is_err());
    }

    #[test]
    fn a_commit_updates_the_kept_copy_and_other_writes_forget_it() {
        let (owner, _) = owners();
        let recent = Recent::default();
        let read = campaign(&owner, 3);
        let id = read.record.id.clone();
        recent.fill(recent.get(&owner, &id).unwrap_err(), &read);
        recent.committed(&id, |kept| kept.record.turn = 4);
        assert_eq!(recent.get(&owner, &id).map(|kept| kept.record.turn), Ok(4));
        recent.forget(&id);
        assert!(recent.get(&owner, &id).is_err());
        recent.fill(recent.get(&owner, &id).unwrap_err(), &read);
        recent.forget_all();
        assert!(recent.get(&owner, &id).is_err());
    }
}
