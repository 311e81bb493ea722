//! The dice of one telling of a turn: the one place every roll the rules make while a turn is
//! told comes from. A check the game master asks for, a save, the oracle, an outcome table, a
//! sanity save, a hazard, a fight's step, the narrator's own dice, a complication: each asks for
//! the dice of its kind (`check DEX Stealth`, `oracle`, `hazard`…), whose every draw from the
//! request's generator is kept, by kind, in the order drawn. The draws are logged with the turn,
//! so telling it again, or making the same move again after an undo, gives each kind of roll
//! back the same draws (whatever order the new telling calls its tools in), and a new kind of
//! roll is kept the same way, since there is no other way to roll in a turn. A first telling
//! draws from the generator exactly as it would without them.

use std::collections::{BTreeMap, HashMap, VecDeque};

use rand::RngCore;

/// The draws of a telling, by kind of roll, in the order drawn.
pub type Draws = BTreeMap<String, Vec<u64>>;

/// The dice of a turn being told.
pub struct TurnDice<'r> {
    source: &'r mut (dyn RngCore + Send),
    kept: HashMap<String, VecDeque<u64>>,
    drawn: Draws,
}

impl<'r> TurnDice<'r> {
    /// Dice drawing from `source`, giving back first the draws `kept` from an earlier telling.
    pub fn new(source: &'r mut (dyn RngCore + Send), kept: &Draws) -> Self {
        let kept = kept
            .iter()
            .map(|(kind, draws)| (kind.clone(), draws.iter().copied().collect()))
            .collect();
        Self {
            source,
            kept,
            drawn: Draws::new(),
        }
    }

    /// The dice of the next roll of `kind`.
    pub fn for_roll(&mut self, kind: &str) -> KindDice<'_> {
        KindDice {
            source: &mut *self.source,
            kept: self.kept.get_mut(kind),
            drawn: self.drawn.entry(kind.to_owned()).or_default(),
        }
    }

    /// Every draw of this telling, by kind, for the log.
    pub fn into_draws(self) -> Draws {
        self.drawn
            .into_iter()
            .filter(|(_, draws)| !draws.is_empty())
            .collect()
    }
}

/// The dice of one kind of roll: its kept draws first, then the source's, each noted.
pub struct KindDice<'d> {
    source: &'d mut (dyn RngCore + Send),
    kept: Option<&'d mut VecDeque<u64>>,
    drawn: &'d mut Vec<u64>,
}

impl RngCore for KindDice<'_> {
    fn next_u32(&mut self) -> u32 {
        let kept = self.kept.as_mut().and_then(|kept| kept.pop_front());
        // A kept draw of this kind was a u32 when it was drawn: the same code draws it again.
        let draw = kept.map_or_else(|| self.source.next_u32(), |draw| draw as u32);
        self.drawn.push(u64::from(draw));
        draw
    }

    fn next_u64(&mut self) -> u64 {
        let kept = self.kept.as_mut().and_then(|kept| kept.pop_front());
        let draw = kept.unwrap_or_else(|| self.source.next_u64());
        self.drawn.push(draw);
        draw
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn d20(dice: &mut TurnDice<'_>, kind: &str) -> u32 {
        dice.for_roll(kind).random_range(1..=20)
    }

    #[test]
    fn a_first_telling_draws_as_the_generator_would() {
        let mut plain = StdRng::seed_from_u64(3);
        let expected: Vec<u32> = (0..4).map(|_| plain.random_range(1..=20)).collect();
        let mut source = StdRng::seed_from_u64(3);
        let mut dice = TurnDice::new(&mut source, &Draws::new());
        let faces = [
            d20(&mut dice, "oracle"),
            d20(&mut dice, "check DEX"),
            d20(&mut dice, "oracle"),
            d20(&mut dice, "hazard"),
        ];
        assert_eq!(faces.to_vec(), expected);
        let draws = dice.into_draws();
        assert_eq!(draws["oracle"].len(), 2);
    }

    #[test]
    fn a_retelling_gets_each_kind_back_whatever_the_order() {
        let mut source = StdRng::seed_from_u64(42);
        let mut first = TurnDice::new(&mut source, &Draws::new());
        let oracle = [d20(&mut first, "oracle"), d20(&mut first, "oracle")];
        let check = d20(&mut first, "check DEX");
        let draws = first.into_draws();
        // Told again from other dice, in another order, with a roll of a new kind between.
        let mut other = StdRng::seed_from_u64(7);
        let mut again = TurnDice::new(&mut other, &draws);
        assert_eq!(d20(&mut again, "check DEX"), check);
        d20(&mut again, "hazard");
        assert_eq!(
            [d20(&mut again, "oracle"), d20(&mut again, "oracle")],
            oracle
        );
        // Past what was kept, the dice are new (and kept in their turn).
        let extra: Vec<u32> = (0..16).map(|_| d20(&mut again, "oracle")).collect();
        let kept = again.into_draws();
        assert_eq!(kept["oracle"].len(), 18);
        assert_eq!(kept["check DEX"], draws["check DEX"]);
        assert!(extra.iter().any(|face| *face != extra[0]));
    }
}
