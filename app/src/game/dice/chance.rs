//! The chance of success: how likely a roll of some dice meets a difficulty class, worked out
//! exactly from the dice (every face of every die equally likely), never estimated. A d20 check
//! at +4 against DC 12 succeeds on 8 to 20: 13 faces of 20, 65%. Advantage and disadvantage
//! (`2d20kh1`, `2d20kl1`) and kept dice are counted the same way, by their outcomes.

use std::fmt;

use super::check::DifficultyClass;
use super::edge::Edge;
use super::notation::{DiceExpr, DiceTerm, Keep};

/// The most outcomes a term with kept dice is enumerated over (`4d6kh3` has 1,296).
const MAX_KEPT_OUTCOMES: u64 = 200_000;

/// The most work (the distribution's width times a die's sides, summed over the dice) a chance
/// may take: a handful of dice is exact at once, a hundred d1000 is not worked out at all.
const MAX_CONVOLUTION_WORK: u64 = 4_000_000;

/// How likely a roll meets its difficulty class, 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chance(f64);

impl Chance {
    /// The chance that `dice` plus `bonus` totals `dc` or more, or `None` for dice too many to
    /// work out within the bounds.
    pub fn to_meet(dice: &DiceExpr, bonus: i32, dc: DifficultyClass) -> Option<Self> {
        let distribution = Distribution::of(dice)?;
        let needed = i32::from(dc.value()) - bonus;
        Some(Self(distribution.at_least(needed)))
    }

    /// The chance an attack roll hits: a d20 (two with an edge) plus `to_hit` against
    /// `armor_class`, where a natural 20 always hits and a natural 1 always misses.
    pub fn to_hit(edge: Edge, to_hit: i32, armor_class: u8) -> Self {
        let hitting = (1..=20)
            .filter(|face| *face == 20 || (*face != 1 && face + to_hit >= i32::from(armor_class)))
            .count();
        let one = hitting as f64 / 20.0;
        Self(match edge {
            Edge::Normal => one,
            Edge::Advantage => 1.0 - (1.0 - one) * (1.0 - one),
            Edge::Disadvantage => one * one,
        })
    }

    /// The probability, 0 to 1.
    pub fn probability(self) -> f64 {
        self.0
    }

    /// The chance in whole percent, rounded; a chance that is neither none nor certain never
    /// shows as 0% or 100%.
    pub fn percent(self) -> u8 {
        let rounded = (self.0 * 100.0).round().clamp(0.0, 100.0) as u8;
        match rounded {
            0 if self.0 > 0.0 => 1,
            100 if self.0 < 1.0 => 99,
            other => other,
        }
    }
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

/// The probability of each total of some dice, from the lowest total up.
#[derive(Clone, Debug, PartialEq)]
struct Distribution {
    lowest: i32,
    weights: Vec<f64>,
}

impl Distribution {
    /// A total that is always `value`.
    fn constant(value: i32) -> Self {
        Self {
            lowest: value,
            weights: vec![1.0],
        }
    }

    /// The totals of `dice`, or `None` past the bounds of the work.
    fn of(dice: &DiceExpr) -> Option<Self> {
        let mut total = Self::constant(dice.modifier());
        let mut work = 0_u64;
        for term in dice.terms() {
            let part = match term.keep() {
                None => Self::plain_term(term, &mut work)?,
                Some(keep) => Self::kept_term(term, keep)?,
            };
            work += (total.weights.len() * part.weights.len()) as u64;
            if work > MAX_CONVOLUTION_WORK {
                return None;
            }
            total = total.plus(&part);
        }
        Some(total)
    }

    /// The sum of a term's dice, all kept, signed.
    fn plain_term(term: &DiceTerm, work: &mut u64) -> Option<Self> {
        let die = Self::die(term.sides());
        let mut sum = Self::constant(0);
        for _ in 0..term.count() {
            *work += (sum.weights.len() * die.weights.len()) as u64;
            if *work > MAX_CONVOLUTION_WORK {
                return None;
            }
            sum = sum.plus(&die);
        }
        Some(sum.signed(term.is_negative()))
    }

    /// The sum of the kept dice of a term, counted over every outcome of its dice.
    fn kept_term(term: &DiceTerm, keep: Keep) -> Option<Self> {
        let sides = u64::from(term.sides());
        let count = u32::from(term.count());
        let outcomes = sides
            .checked_pow(count)
            .filter(|n| *n <= MAX_KEPT_OUTCOMES)?;
        let kept = usize::from(keep.count()).min(count as usize);
        let lowest = kept as i32;
        let mut weights = vec![0.0; kept * (sides as usize - 1) + 1];
        let mut faces = vec![1_u16; count as usize];
        let each = 1.0 / outcomes as f64;
        for _ in 0..outcomes {
            let mut sorted = faces.clone();
            sorted.sort_unstable();
            let chosen = match keep {
                Keep::Highest(_) => &sorted[sorted.len() - kept..],
                Keep::Lowest(_) => &sorted[..kept],
            };
            let sum: i32 = chosen.iter().map(|face| i32::from(*face)).sum();
            weights[(sum - lowest) as usize] += each;
            advance(&mut faces, term.sides());
        }
        Some(Self { lowest, weights }.signed(term.is_negative()))
    }

    /// One die of `sides` faces.
    fn die(sides: u16) -> Self {
        Self {
            lowest: 1,
            weights: vec![1.0 / f64::from(sides); usize::from(sides)],
        }
    }

    /// The same totals subtracted instead of added, when `negative`.
    fn signed(self, negative: bool) -> Self {
        if !negative {
            return self;
        }
        let highest = self.lowest + self.weights.len() as i32 - 1;
        let mut weights = self.weights;
        weights.reverse();
        Self {
            lowest: -highest,
            weights,
        }
    }

    /// The totals of this and `other` added together.
    fn plus(&self, other: &Self) -> Self {
        let mut weights = vec![0.0; self.weights.len() + other.weights.len() - 1];
        for (i, a) in self.weights.iter().enumerate() {
            for (j, b) in other.weights.iter().enumerate() {
                weights[i + j] += a * b;
            }
        }
        Self {
            lowest: self.lowest + other.lowest,
            weights,
        }
    }

    /// The probability of a total of `needed` or more.
    fn at_least(&self, needed: i32) -> f64 {
        let skip = (needed - self.lowest).max(0) as usize;
        let chance: f64 = self.weights.iter().skip(skip).sum();
        chance.clamp(0.0, 1.0)
    }
}

/// The next outcome of some dice, as an odometer counts: the first die turns fastest.
fn advance(faces: &mut [u16], sides: u16) {
    for face in faces {
        if *face < sides {
            *face += 1;
            return;
        }
        *face = 1;
    }
}

#[cfg(test)]
mod tests;
