//! What one player may spend: turns per minute and new campaigns per hour (per-player rate
//! limits), and how many campaigns they may keep. Requests past a limit are refused with how
//! long to wait, and change nothing.

use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::{Game, ServiceError};
use crate::campaign::PlayerId;

/// The limits' sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    /// Requests that call the model (moves, retellings, new actions) per minute.
    pub turns_per_minute: NonZeroU32,
    /// Campaigns started, imported or branched per hour.
    pub campaigns_per_hour: NonZeroU32,
    /// Campaigns one player may keep.
    pub campaigns_per_player: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        Self {
            turns_per_minute: NonZeroU32::new(12).expect("not zero"),
            campaigns_per_hour: NonZeroU32::new(20).expect("not zero"),
            campaigns_per_player: 200,
        }
    }
}

/// Keyed limiters stop growing past this many players: the idle ones are dropped.
const TRACKED_PLAYERS: usize = 10_000;

/// The per-player rate limits.
pub struct RateLimits {
    settings: LimitSettings,
    turns: DefaultKeyedRateLimiter<PlayerId>,
    campaigns: DefaultKeyedRateLimiter<PlayerId>,
}

impl RateLimits {
    /// Limits of these sizes. A burst of the whole allowance is allowed at once.
    pub fn new(settings: LimitSettings) -> Self {
        Self {
            settings,
            turns: DefaultKeyedRateLimiter::keyed(Quota::per_minute(settings.turns_per_minute)),
            campaigns: DefaultKeyedRateLimiter::keyed(Quota::per_hour(settings.campaigns_per_hour)),
        }
    }

    /// Counts a request that calls the model, or refuses it.
    pub fn turn(&self, player: &PlayerId) -> Result<(), ServiceError> {
        check(&self.turns, player)
    }

    /// Counts a new campaign, or refuses it.
    pub fn new_campaign(&self, player: &PlayerId) -> Result<(), ServiceError> {
        check(&self.campaigns, player)
    }

    /// The most campaigns one player may keep.
    pub fn campaigns_per_player(&self) -> u32 {
        self.settings.campaigns_per_player
    }
}

fn check(
    limiter: &DefaultKeyedRateLimiter<PlayerId>,
    player: &PlayerId,
) -> Result<(), ServiceError> {
    if limiter.len() > TRACKED_PLAYERS {
        limiter.retain_recent();
    }
    limiter
        .check_key(player)
        .map_err(|not_until| ServiceError::RateLimited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
}

impl Game<'_> {
    /// Refuses a new campaign for a player who already keeps as many as `limits` allow.
    pub async fn room_for_a_campaign(
        &self,
        owner: &PlayerId,
        limits: &RateLimits,
    ) -> Result<(), ServiceError> {
        let limit = limits.campaigns_per_player();
        if self.store.count(owner).await? >= limit {
            return Err(ServiceError::TooManyCampaigns { limit });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn each_player_has_their_own_allowance_and_is_told_how_long_to_wait() {
        let limits = RateLimits::new(LimitSettings {
            turns_per_minute: NonZeroU32::new(3).unwrap(),
            ..LimitSettings::default()
        });
        let mut rng = StdRng::seed_from_u64(1);
        let (fast, other) = (PlayerId::random(&mut rng), PlayerId::random(&mut rng));

        for _ in 0..3 {
            limits.turn(&fast).expect("within the allowance");
        }
        let refused = limits.turn(&fast).unwrap_err();
        let ServiceError::RateLimited { retry_after } = refused else {
            panic!("{refused:?}");
        };
        assert!(
            retry_after.as_secs_f64() > 15.0 && retry_after.as_secs_f64() <= 20.0,
            "one turn back every 20 s: {retry_after:?}"
        );
        limits.turn(&other).expect("another player is not slowed");
        limits
            .new_campaign(&fast)
            .expect("campaigns are counted apart");
    }
}
