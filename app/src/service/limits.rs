//! What one player may spend: turns per minute and new campaigns per hour (per-player rate
//! limits, and the same per client address, so that a client who drops its cookie does not get
//! a fresh allowance), and how many campaigns they may keep. Requests past a limit are refused
//! with how long to wait, and change nothing.

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use super::{Game, ServiceError};
use crate::wire::PlayerId;

/// How many players' allowance one client address gets unless configured otherwise: a
/// household or an office behind one router shares it.
pub const PLAYERS_PER_ADDRESS: u32 = 4;

/// The limits' sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    /// Requests that call the model (moves, retellings, new actions) per minute, per player.
    pub turns_per_minute: NonZeroU32,
    /// Campaigns started, imported or branched per hour, per player.
    pub campaigns_per_hour: NonZeroU32,
    /// Requests that call the model per minute from one client address, all its players together.
    pub turns_per_minute_per_address: NonZeroU32,
    /// Campaigns started, imported or branched per hour from one client address.
    pub campaigns_per_hour_per_address: NonZeroU32,
    /// Campaigns one player may keep.
    pub campaigns_per_player: u32,
}

impl LimitSettings {
    /// Limits of these per-player sizes; each client address may spend
    /// [`PLAYERS_PER_ADDRESS`] players' allowance.
    pub fn per_player(
        turns_per_minute: NonZeroU32,
        campaigns_per_hour: NonZeroU32,
        campaigns_per_player: u32,
    ) -> Self {
        Self {
            turns_per_minute,
            campaigns_per_hour,
            turns_per_minute_per_address: turns_per_minute.saturating_mul(SHARE),
            campaigns_per_hour_per_address: campaigns_per_hour.saturating_mul(SHARE),
            campaigns_per_player,
        }
    }
}

/// [`PLAYERS_PER_ADDRESS`], as a factor.
const SHARE: NonZeroU32 = NonZeroU32::new(PLAYERS_PER_ADDRESS).expect("not zero");

impl Default for LimitSettings {
    fn default() -> Self {
        Self::per_player(
            NonZeroU32::new(12).expect("not zero"),
            NonZeroU32::new(20).expect("not zero"),
            200,
        )
    }
}

/// Where a request comes from, as the limits count it: an IPv4 address, or the /64 network of an
/// IPv6 address (one home or machine is usually given a whole /64, so its addresses are one
/// client). An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddress(IpAddr);

impl From<IpAddr> for ClientAddress {
    fn from(address: IpAddr) -> Self {
        Self(match address.to_canonical() {
            IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & u128::MAX << 64)),
            v4 => v4,
        })
    }
}

/// Each keyed limiter stops growing past this many keys: the idle ones are dropped.
const TRACKED_KEYS: usize = 10_000;

/// A limiter with one allowance per key, on the clock `C`.
type Keyed<K, C> =
    RateLimiter<K, DefaultKeyedStateStore<K>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// One allowance counted twice: per player and per client address.
struct Allowance<C: Clock> {
    players: Keyed<PlayerId, C>,
    addresses: Keyed<ClientAddress, C>,
}

impl<C: Clock + Clone> Allowance<C> {
    fn new(per_player: Quota, per_address: Quota, clock: &C) -> Self {
        Self {
            players: RateLimiter::new(per_player, Default::default(), clock.clone()),
            addresses: RateLimiter::new(per_address, Default::default(), clock.clone()),
        }
    }

    /// Counts a request against the player's allowance, then against the address's.
    ///
    /// A limiter cannot be asked without counting, so the player's comes first: a player past
    /// their own allowance never spends their household's, and a request the address refuses has
    /// spent one of the player's own (which they would not have been able to use anyway).
    fn spend(&self, player: &PlayerId, client: &ClientAddress) -> Result<(), ServiceError> {
        check(&self.players, player)?;
        check(&self.addresses, client)
    }
}

/// Tries of a recovery code per hour, per player and per client address.
const RECOVERY_TRIES_PER_HOUR: NonZeroU32 = NonZeroU32::new(10).expect("not zero");

/// The per-player and per-address rate limits, on the clock `C` (the system's monotonic one
/// outside tests).
pub struct RateLimits<C: Clock = DefaultClock> {
    settings: LimitSettings,
    turns: Allowance<C>,
    campaigns: Allowance<C>,
    recovery: Allowance<C>,
}

impl RateLimits {
    /// Limits of these sizes. A burst of the whole allowance is allowed at once.
    pub fn new(settings: LimitSettings) -> Self {
        Self::with_clock(settings, &DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimits<C> {
    /// Limits of these sizes counted on `clock`.
    pub fn with_clock(settings: LimitSettings, clock: &C) -> Self {
        Self {
            settings,
            turns: Allowance::new(
                Quota::per_minute(settings.turns_per_minute),
                Quota::per_minute(settings.turns_per_minute_per_address),
                clock,
            ),
            campaigns: Allowance::new(
                Quota::per_hour(settings.campaigns_per_hour),
                Quota::per_hour(settings.campaigns_per_hour_per_address),
                clock,
            ),
            recovery: Allowance::new(
                Quota::per_hour(RECOVERY_TRIES_PER_HOUR),
                Quota::per_hour(RECOVERY_TRIES_PER_HOUR),
                clock,
            ),
        }
    }

    /// Counts a request that calls the model, or refuses it (see [`Allowance::spend`]).
    pub fn turn(&self, player: &PlayerId, client: &ClientAddress) -> Result<(), ServiceError> {
        self.turns.spend(player, client)
    }

    /// Counts a new campaign, or refuses it (see [`Allowance::spend`]).
    pub fn new_campaign(
        &self,
        player: &PlayerId,
        client: &ClientAddress,
    ) -> Result<(), ServiceError> {
        self.campaigns.spend(player, client)
    }

    /// Counts a try of a recovery code, or refuses it (see [`Allowance::spend`]).
    pub fn recovery_try(
        &self,
        player: &PlayerId,
        client: &ClientAddress,
    ) -> Result<(), ServiceError> {
        self.recovery.spend(player, client)
    }

    /// The most campaigns one player may keep.
    pub fn campaigns_per_player(&self) -> u32 {
        self.settings.campaigns_per_player
    }
}

/// Counts one request of `key`, or says how long until the next one is allowed.
fn check<K: Clone + Eq + Hash, C: Clock>(
    limiter: &Keyed<K, C>,
    key: &K,
) -> Result<(), ServiceError> {
    if limiter.len() > TRACKED_KEYS {
        limiter.retain_recent();
    }
    limiter
        .check_key(key)
        .map_err(|not_until| ServiceError::RateLimited {
            retry_after: not_until.wait_time_from(limiter.clock().now()),
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
    use governor::clock::FakeRelativeClock;
    use rand::{rngs::StdRng, SeedableRng};
    use std::time::Duration;

    fn address(text: &str) -> ClientAddress {
        ClientAddress::from(text.parse::<IpAddr>().unwrap())
    }

    fn players(count: usize) -> Vec<PlayerId> {
        let mut rng = StdRng::seed_from_u64(1);
        (0..count).map(|_| PlayerId::random(&mut rng)).collect()
    }

    #[test]
    fn each_player_has_their_own_allowance_and_is_told_how_long_to_wait() {
        let clock = FakeRelativeClock::default();
        let settings = LimitSettings {
            turns_per_minute: NonZeroU32::new(3).unwrap(),
            ..LimitSettings::default()
        };
        let limits = RateLimits::with_clock(settings, &clock);
        let [fast, other] = <[PlayerId; 2]>::try_from(players(2)).unwrap();
        let home = address("192.0.2.1");

        for _ in 0..3 {
            limits.turn(&fast, &home).expect("within the allowance");
        }
        let refused = limits.turn(&fast, &home).unwrap_err();
        let ServiceError::RateLimited { retry_after } = refused else {
            panic!("{refused:?}");
        };
        assert_eq!(
            retry_after,
            Duration::from_secs(20),
            "one turn back every 20 s"
        );
        clock.advance(Duration::from_secs(5));
        let ServiceError::RateLimited { retry_after } = limits.turn(&fast, &home).unwrap_err()
        else {
            panic!("still refused five seconds on");
        };
        assert_eq!(retry_after, Duration::from_secs(15), "the wait counts down");
        clock.advance(retry_after);
        limits
            .turn(&fast, &home)
            .expect("one turn back once the wait is over");
        limits
            .turn(&other, &home)
            .expect("another player is not slowed");
        limits
            .new_campaign(&fast, &home)
            .expect("campaigns are counted apart");
    }

    #[test]
    fn new_players_at_one_address_share_its_allowance() {
        let limits = RateLimits::new(LimitSettings {
            turns_per_minute_per_address: NonZeroU32::new(2).unwrap(),
            campaigns_per_hour_per_address: NonZeroU32::new(1).unwrap(),
            ..LimitSettings::default()
        });
        let fresh = players(4);
        let (home, elsewhere) = (address("192.0.2.1"), address("192.0.2.2"));

        limits.turn(&fresh[0], &home).unwrap();
        limits.turn(&fresh[1], &home).unwrap();
        let refused = limits.turn(&fresh[2], &home).unwrap_err();
        assert!(
            matches!(refused, ServiceError::RateLimited { .. }),
            "{refused:?}"
        );
        limits
            .turn(&fresh[2], &elsewhere)
            .expect("another address is not slowed");

        limits.new_campaign(&fresh[0], &home).unwrap();
        let refused = limits.new_campaign(&fresh[3], &home).unwrap_err();
        assert!(
            matches!(refused, ServiceError::RateLimited { .. }),
            "{refused:?}"
        );
    }

    #[test]
    fn a_player_past_their_own_allowance_does_not_spend_their_addresss() {
        let limits = RateLimits::new(LimitSettings {
            turns_per_minute: NonZeroU32::new(1).unwrap(),
            turns_per_minute_per_address: NonZeroU32::new(2).unwrap(),
            ..LimitSettings::default()
        });
        let [eager, housemate] = <[PlayerId; 2]>::try_from(players(2)).unwrap();
        let home = address("192.0.2.1");

        limits.turn(&eager, &home).unwrap();
        for _ in 0..5 {
            limits.turn(&eager, &home).unwrap_err();
        }
        limits
            .turn(&housemate, &home)
            .expect("the refused requests spent nothing of the address's");
    }

    #[test]
    fn an_ipv6_client_is_its_64_and_a_mapped_ipv4_client_its_ipv4_address() {
        assert_eq!(address("2001:db8:1:2::1"), address("2001:db8:1:2:ffff::9"));
        assert_eq!(address("2001:db8:1:2::1"), address("2001:db8:1:2::"));
        assert_ne!(address("2001:db8:1:2::1"), address("2001:db8:1:3::1"));
        assert_eq!(address("::ffff:192.0.2.1"), address("192.0.2.1"));
        assert_ne!(address("192.0.2.1"), address("192.0.2.2"));
    }

    #[test]
    fn each_address_may_spend_four_players_allowance_by_default() {
        let settings = LimitSettings::default();
        assert_eq!(settings.turns_per_minute_per_address.get(), 48);
        assert_eq!(settings.campaigns_per_hour_per_address.get(), 80);
        let huge = NonZeroU32::new(u32::MAX).unwrap();
        let saturated = LimitSettings::per_player(huge, huge, 1);
        assert_eq!(saturated.turns_per_minute_per_address, huge);
    }
}
