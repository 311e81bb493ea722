//! Where a fight's dice come from: the caller's RNG in play (every face kept for the log), the
//! faces a log recorded when it is read back, scripted faces in tests.

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

/// Why recorded dice cannot be read back: the log was not written by these rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceRecordError {
    /// A face outside its die.
    #[error("a recorded d{sides} shows {face}")]
    OutOfRange {
        /// The die's sides.
        sides: u16,
        /// The face recorded.
        face: u16,
    },
    /// The rules rolled more dice than were recorded.
    #[error("the rules roll more dice than the {recorded} recorded")]
    TooFew {
        /// How many were recorded.
        recorded: usize,
    },
    /// Dice were recorded that the rules never rolled.
    #[error("{unused} recorded dice were never rolled")]
    TooMany {
        /// How many were left over.
        unused: usize,
    },
}

/// The dice of one step of a fight: fresh from an RNG, each face kept in order for the log, or
/// read back from the faces a log recorded.
pub enum FightDice<'a> {
    /// Rolled now.
    Fresh {
        /// A face for a die of so many sides, from the caller's RNG.
        rng: &'a mut dyn FnMut(u16) -> u16,
        /// Every face shown so far, in order.
        faces: Vec<u16>,
    },
    /// Read back.
    Recorded {
        /// The faces recorded.
        faces: &'a [u16],
        /// How many were read.
        read: usize,
        /// The first problem met.
        wrong: Option<DiceRecordError>,
    },
}

impl<'a> FightDice<'a> {
    /// Dice rolled with `rng`, which gives a face for a die of so many sides.
    pub fn fresh(rng: &'a mut dyn FnMut(u16) -> u16) -> Self {
        Self::Fresh {
            rng,
            faces: Vec::new(),
        }
    }

    /// Dice showing the recorded `faces` in order.
    pub fn recorded(faces: &'a [u16]) -> Self {
        Self::Recorded {
            faces,
            read: 0,
            wrong: None,
        }
    }

    /// One face of a die with `sides` sides.
    fn face(&mut self, sides: u16) -> u16 {
        match self {
            Self::Fresh { rng, faces } => {
                let face = rng(sides).clamp(1, sides.max(1));
                faces.push(face);
                face
            }
            Self::Recorded { faces, read, wrong } => {
                let Some(&face) = faces.get(*read) else {
                    wrong.get_or_insert(DiceRecordError::TooFew {
                        recorded: faces.len(),
                    });
                    return 1;
                };
                *read += 1;
                if !(1..=sides).contains(&face) {
                    wrong.get_or_insert(DiceRecordError::OutOfRange { sides, face });
                }
                face
            }
        }
    }

    /// Rolls `dice`, adding the attribute's modifier if given.
    pub fn roll(&mut self, dice: &DiceExpr, bonus: Option<AttributeBonus>) -> Roll {
        dice.roll_faces(bonus, |sides| self.face(sides))
    }

    /// The faces shown, in order; for recorded dice, whether they were read back exactly.
    pub fn finish(self) -> Result<Vec<u16>, DiceRecordError> {
        match self {
            Self::Fresh { faces, .. } => Ok(faces),
            Self::Recorded { faces, read, wrong } => match wrong {
                Some(wrong) => Err(wrong),
                None if read < faces.len() => Err(DiceRecordError::TooMany {
                    unused: faces.len() - read,
                }),
                None => Ok(faces.to_vec()),
            },
        }
    }
}

impl Roller for FightDice<'_> {
    fn roll(&mut self, dice: &DiceExpr, bonus: Option<AttributeBonus>) -> Roll {
        FightDice::roll(self, dice, bonus)
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
