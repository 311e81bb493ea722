//! Where a fight's dice come from: the caller's RNG in play, scripted faces in tests.

use rand::Rng;

use crate::game::attributes::AttributeBonus;
use crate::game::dice::{DiceExpr, Roll};

/// Rolls dice for the combat rules.
pub(super) trait Roller {
    /// Rolls `dice`, adding the attribute's modifier if given.
    fn roll(&mut self, dice: &DiceExpr, bonus: Option<AttributeBonus>) -> Roll;
}

/// Dice rolled with an RNG.
pub(super) struct RngRoller<'a, R: ?Sized>(pub(super) &'a mut R);

impl<R: Rng + ?Sized> Roller for RngRoller<'_, R> {
    fn roll(&mut self, dice: &DiceExpr, bonus: Option<AttributeBonus>) -> Roll {
        match bonus {
            Some(bonus) => dice.roll_with_bonus(bonus, self.0),
            None => dice.roll(self.0),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// Dice showing the given faces in order (clamped to each die), then 1s.
    pub(in crate::game) struct Scripted(pub(in crate::game) VecDeque<u16>);

    impl Scripted {
        /// Dice that will show `faces`.
        pub(in crate::game) fn new(faces: &[u16]) -> Self {
            Self(faces.iter().copied().collect())
        }
    }

    impl Roller for Scripted {
        fn roll(&mut self, dice: &DiceExpr, bonus: Option<AttributeBonus>) -> Roll {
            dice.roll_faces(bonus, |_| self.0.pop_front().unwrap_or(1))
        }
    }
}
