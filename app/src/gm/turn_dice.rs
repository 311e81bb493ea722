//! The dice of one telling of a turn: the one place every roll the rules make while a turn is
//! told comes from. A check the game master asks for, a save, the oracle, an outcome table, a
//! sanity save, a hazard, a fight's step, the narrator's own dice, a complication: each draws
//! from a generator of its own, seeded by the turn's seed and by what is rolled (its kind, and
//! which of that kind it is in the turn). The seed is logged with the turn, so telling it again,
//! or making the same move again after an undo, rolls every die the same whatever order the new
//! telling calls its tools in, and a new kind of roll is kept the same way (there is no other
//! way to roll in a turn).

use std::collections::HashMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The dice of a turn being told.
#[derive(Clone, Debug)]
pub struct TurnDice {
    seed: u64,
    drawn: HashMap<String, u32>,
}

impl TurnDice {
    /// The dice of the turn whose seed is `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            drawn: HashMap::new(),
        }
    }

    /// The turn's seed, as the log keeps it.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The generator of the next roll of `kind` in this turn (`check DEX Stealth`, `oracle`,
    /// `hazard`…): the same for the same seed, kind and place among that kind's rolls.
    pub fn for_roll(&mut self, kind: &str) -> ChaCha8Rng {
        let count = self.drawn.entry(kind.to_owned()).or_default();
        let index = *count;
        *count += 1;
        ChaCha8Rng::seed_from_u64(mix(self.seed, kind, index))
    }
}

/// One seed from the turn's seed, a roll's kind and its index (FNV-1a over the kind, mixed with
/// the others): fixed across releases and platforms, unlike the standard library's hasher.
fn mix(seed: u64, kind: &str, index: u32) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for byte in kind.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(PRIME);
    }
    seed ^ hash.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(index).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    fn draw(dice: &mut TurnDice, kind: &str) -> u32 {
        dice.for_roll(kind).random_range(1..=20)
    }

    #[test]
    fn the_same_kind_rolls_the_same_whatever_the_order() {
        let mut first = TurnDice::new(42);
        let a = [draw(&mut first, "oracle"), draw(&mut first, "check DEX")];
        let second_oracle = draw(&mut first, "oracle");
        let mut again = TurnDice::new(42);
        // Told again in another order, with a roll of another kind between.
        let check = draw(&mut again, "check DEX");
        draw(&mut again, "hazard");
        let oracle = draw(&mut again, "oracle");
        assert_eq!([oracle, check], a);
        assert_eq!(draw(&mut again, "oracle"), second_oracle);
    }

    #[test]
    fn other_seeds_and_kinds_roll_otherwise() {
        let many = |seed: u64, kind: &str| -> Vec<u32> {
            let mut dice = TurnDice::new(seed);
            (0..16).map(|_| draw(&mut dice, kind)).collect()
        };
        assert_eq!(many(1, "oracle"), many(1, "oracle"));
        assert_ne!(many(1, "oracle"), many(2, "oracle"));
        assert_ne!(many(1, "oracle"), many(1, "hazard"));
    }

    #[test]
    fn a_seed_rolls_what_it_rolled_in_earlier_releases() {
        // The stream is part of the log's meaning: a change here re-rolls every kept turn.
        let mut dice = TurnDice::new(7);
        let faces: Vec<u32> = (0..6).map(|_| draw(&mut dice, "roll 1d20")).collect();
        assert_eq!(faces, FACES_OF_SEED_7);
    }

    /// The first six `roll 1d20` faces of seed 7, as the first release with kept dice rolled them.
    const FACES_OF_SEED_7: [u32; 6] = [19, 1, 11, 12, 6, 10];
}
