//! Progression by the rules: experience points, the level they give, and what a level brings.
//!
//! Levels follow the SRD's experience table (300 XP for level 2 … 355,000 for level 20). An
//! award gains at most one level: experience past the next level's threshold is kept only up to
//! one point below the level after it. A level brings hit points: the class's hit die's average
//! (half the die plus one) plus the CON modifier, at least 1. Maximum hit points therefore follow
//! from class, level and CON alone ([`max_hp`]); the model cannot set them. A level also sets the
//! proficiency bonus ([`proficiency_bonus`]).

use serde::{Deserialize, Serialize};

use super::attributes::AttributeScore;

/// A level outside 1..=20.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level must be {}..={} (got {value})", Level::MIN, Level::MAX)]
pub struct LevelError {
    /// The rejected value.
    pub value: i64,
}

/// A character level, 1..=20.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct Level(u8);

impl Level {
    /// The first level.
    pub const MIN: u8 = 1;
    /// The last level.
    pub const MAX: u8 = 20;

    /// The level `value`, or an error outside 1..=20.
    pub fn new(value: i64) -> Result<Self, LevelError> {
        u8::try_from(value)
            .ok()
            .filter(|v| (Self::MIN..=Self::MAX).contains(v))
            .map(Self)
            .ok_or(LevelError { value })
    }

    /// The level `value` clamped into 1..=20.
    pub fn clamped(value: i64) -> Self {
        // The clamp makes the cast lossless.
        Self(value.clamp(i64::from(Self::MIN), i64::from(Self::MAX)) as u8)
    }

    /// The level as a number.
    pub fn value(self) -> u8 {
        self.0
    }
}

impl Default for Level {
    fn default() -> Self {
        Self(Self::MIN)
    }
}

impl TryFrom<i64> for Level {
    type Error = LevelError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

/// Experience needed for each level, from level 1.
const THRESHOLDS: [u32; 20] = [
    0, 300, 900, 2_700, 6_500, 14_000, 23_000, 34_000, 48_000, 64_000, 85_000, 100_000, 120_000,
    140_000, 165_000, 195_000, 225_000, 265_000, 305_000, 355_000,
];

/// The most experience one award may give.
pub const MAX_AWARD: u32 = 10_000;

/// Experience needed to reach `level`.
pub fn threshold(level: Level) -> u32 {
    THRESHOLDS[usize::from(level.value() - 1)]
}

/// A class's hit die: d6, d8, d10 or d12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct HitDie(u8);

/// A hit die that is not d6, d8, d10 or d12.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a hit die is d6, d8, d10 or d12 (got d{0})")]
pub struct HitDieError(u8);

impl HitDie {
    /// d6 (wizards).
    pub const D6: HitDie = HitDie(6);
    /// d8 (most classes).
    pub const D8: HitDie = HitDie(8);
    /// d10 (fighters, rangers).
    pub const D10: HitDie = HitDie(10);
    /// d12 (barbarians).
    pub const D12: HitDie = HitDie(12);

    /// The die's sides.
    pub fn sides(self) -> u8 {
        self.0
    }

    /// Hit points at level 1: the die's maximum plus the CON modifier, at least 1.
    pub fn first_level_hp(self, constitution: AttributeScore) -> u16 {
        at_least_one(i16::from(self.0) + i16::from(constitution.modifier()))
    }

    /// Hit points each later level brings: the die's average plus the CON modifier, at least 1.
    pub fn level_hp(self, constitution: AttributeScore) -> u16 {
        at_least_one(i16::from(self.0 / 2 + 1) + i16::from(constitution.modifier()))
    }
}

impl Default for HitDie {
    fn default() -> Self {
        HitDie::D8
    }
}

impl TryFrom<u8> for HitDie {
    type Error = HitDieError;

    fn try_from(sides: u8) -> Result<Self, Self::Error> {
        match sides {
            6 | 8 | 10 | 12 => Ok(HitDie(sides)),
            other => Err(HitDieError(other)),
        }
    }
}

impl From<HitDie> for u8 {
    fn from(die: HitDie) -> u8 {
        die.0
    }
}

fn at_least_one(value: i16) -> u16 {
    // max(1) makes the cast lossless.
    value.max(1) as u16
}

/// Maximum hit points of a character of this hit die, level and CON.
pub fn max_hp(die: HitDie, level: Level, constitution: AttributeScore) -> u16 {
    die.first_level_hp(constitution) + u16::from(level.value() - 1) * die.level_hp(constitution)
}

/// The proficiency bonus a level brings (SRD 5.1): +2 at levels 1–4, +3 at 5–8, … +6 at 17–20.
pub fn proficiency_bonus(level: Level) -> i8 {
    // At most 2 + 19 / 4 = 6: the cast is lossless.
    2 + ((level.value() - 1) / 4) as i8
}

/// Experience after an award of `amount` to a character at `level` with `experience`: capped so
/// that the award gains at most one level.
pub fn award(level: Level, experience: u32, amount: u32) -> u32 {
    let after = experience.saturating_add(amount.min(MAX_AWARD));
    match Level::new(i64::from(level.value()) + 2) {
        Ok(beyond) => after.min(threshold(beyond) - 1),
        Err(_) => after.min(threshold(Level::clamped(20))),
    }
}

/// The level `experience` reaches, but at most one above `level`.
pub fn level_for(level: Level, experience: u32) -> Level {
    let next = Level::clamped(i64::from(level.value()) + 1);
    if next != level && experience >= threshold(next) {
        next
    } else {
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(value: i64) -> AttributeScore {
        AttributeScore::new(value).unwrap()
    }

    fn level(value: i64) -> Level {
        Level::new(value).unwrap()
    }

    #[test]
    fn max_hp_follows_die_level_and_con() {
        assert_eq!(max_hp(HitDie::D10, level(1), score(14)), 12);
        assert_eq!(max_hp(HitDie::D10, level(3), score(14)), 12 + 2 * 8);
        assert_eq!(max_hp(HitDie::D6, level(1), score(8)), 5);
        // A very low CON still gains at least 1 per level.
        assert_eq!(max_hp(HitDie::D6, level(5), score(1)), 1 + 4);
        assert_eq!(max_hp(HitDie::D12, level(20), score(30)), 22 + 19 * 17);
    }

    #[test]
    fn an_award_gains_at_most_one_level() {
        assert_eq!(award(level(1), 0, 100), 100);
        assert_eq!(award(level(1), 0, 5_000), 899);
        assert_eq!(level_for(level(1), 899), level(2));
        assert_eq!(level_for(level(2), 899), level(2));
        assert_eq!(level_for(level(1), 299), level(1));
        assert_eq!(award(level(1), 0, u32::MAX), 899);
        assert_eq!(award(level(19), 300_000, 10_000), 310_000);
        assert_eq!(award(level(20), 355_000, 10_000), 355_000);
        assert_eq!(level_for(level(20), 400_000), level(20));
    }

    #[test]
    fn proficiency_rises_every_four_levels() {
        let bonuses: Vec<i8> = [1, 4, 5, 8, 9, 13, 17, 20]
            .map(|l| proficiency_bonus(level(l)))
            .to_vec();
        assert_eq!(bonuses, [2, 2, 3, 3, 4, 5, 6, 6]);
    }

    #[test]
    fn hit_dice_are_the_four_known_ones() {
        assert!(HitDie::try_from(7).is_err());
        assert_eq!(HitDie::try_from(12).unwrap(), HitDie::D12);
        assert_eq!(
            serde_json::from_str::<HitDie>("4").unwrap_err().to_string(),
            "a hit die is d6, d8, d10 or d12 (got d4)"
        );
    }
}
