//! Where a request's dice come from: the operating system's randomness, or (for tests, with a
//! scripted model) a generator seeded from a fixed number, so that nothing in a test depends on
//! luck: a move at a given turn always rolls the same dice, whatever ran before it.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::rngs::StdRng;
use rand::SeedableRng;

/// The dice of every request.
#[derive(Debug, Default)]
pub enum Dice {
    /// The operating system's randomness.
    #[default]
    System,
    /// A generator seeded from `seed` and what the request is for.
    Seeded {
        /// The fixed seed.
        seed: u64,
        /// New campaigns so far (each gets dice, and an id, of its own).
        campaigns: AtomicU64,
    },
}

impl Dice {
    /// Dice seeded from `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self::Seeded {
            seed,
            campaigns: AtomicU64::new(0),
        }
    }

    /// The dice of a move (or a retelling) made at `turn`.
    pub fn for_turn(&self, turn: u32) -> StdRng {
        self.generator(|seed| mix(seed, 1, u64::from(turn)))
    }

    /// The dice (and the id) of a new campaign: started, restarted, imported or branched.
    pub fn for_new_campaign(&self) -> StdRng {
        self.generator(|seed| {
            let Self::Seeded { campaigns, .. } = self else {
                return seed;
            };
            mix(seed, 2, campaigns.fetch_add(1, Ordering::Relaxed))
        })
    }

    fn generator(&self, seeded: impl FnOnce(u64) -> u64) -> StdRng {
        match self {
            Self::System => StdRng::from_os_rng(),
            Self::Seeded { seed, .. } => StdRng::seed_from_u64(seeded(*seed)),
        }
    }
}

/// One seed from the fixed seed, what the dice are for, and which of those.
fn mix(seed: u64, purpose: u64, which: u64) -> u64 {
    seed ^ purpose.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ which.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn seeded_dice_repeat_by_turn_and_differ_between_campaigns() {
        let dice = Dice::seeded(7);
        let roll = |mut rng: StdRng| rng.random::<u64>();
        assert_eq!(roll(dice.for_turn(3)), roll(Dice::seeded(7).for_turn(3)));
        assert_ne!(roll(dice.for_turn(3)), roll(dice.for_turn(4)));
        assert_ne!(roll(dice.for_turn(3)), roll(Dice::seeded(8).for_turn(3)));
        let first = roll(dice.for_new_campaign());
        assert_ne!(first, roll(dice.for_new_campaign()));
        assert_eq!(first, roll(Dice::seeded(7).for_new_campaign()));
    }
}
