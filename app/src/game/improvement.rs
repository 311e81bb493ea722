//! Ability score improvements: at levels 4, 8, 12, 16 and 19 a character earns one, which the
//! player spends from the character panel as +2 to one score or +1 to two, no score past 20.
//! A higher CON raises the maximum hit points as if it had always been that high (every level's
//! hit points follow from it, see [`max_hp`](super::progression::max_hp)), and the current hit
//! points by as much, unless the character is down.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeScore};
use super::progression::{max_hp, Level};
use super::sheet::{CharacterSheet, HitPoints};
use super::stakes::Vitality;

/// The levels that bring an ability score improvement.
pub const IMPROVEMENT_LEVELS: [u8; 5] = [4, 8, 12, 16, 19];

/// The highest score an improvement can reach.
pub const IMPROVEMENT_CAP: u8 = 20;

/// An improvement as the player chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AbilityImprovement {
    /// +2 to one score.
    PlusTwo {
        /// The score raised.
        attribute: Attribute,
    },
    /// +1 to each of two different scores.
    PlusOneEach {
        /// One score raised.
        first: Attribute,
        /// The other.
        second: Attribute,
    },
}

impl AbilityImprovement {
    /// Each score it raises and by how much.
    pub fn increases(self) -> Vec<(Attribute, u8)> {
        match self {
            AbilityImprovement::PlusTwo { attribute } => vec![(attribute, 2)],
            AbilityImprovement::PlusOneEach { first, second } => vec![(first, 1), (second, 1)],
        }
    }
}

/// Why an improvement is refused; the sheet is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImprovementError {
    /// No improvement is waiting at this level.
    #[error(
        "No ability score improvement is due at level {level}; they come at levels 4, 8, 12, 16 \
         and 19"
    )]
    NoneDue {
        /// The character's level.
        level: u8,
    },
    /// A score would pass 20.
    #[error("{attribute} is {score}: an improvement cannot raise a score past {IMPROVEMENT_CAP}")]
    PastCap {
        /// The score.
        attribute: Attribute,
        /// Its value now.
        score: u8,
    },
    /// +1 and +1 to the same score.
    #[error("+1 to two scores means two different scores; choose +2 to raise one")]
    SameTwice,
}

/// How many improvements a character of `level` has earned.
pub fn earned(level: Level) -> u8 {
    // At most five: the cast is lossless.
    IMPROVEMENT_LEVELS
        .iter()
        .filter(|at| **at <= level.value())
        .count() as u8
}

impl CharacterSheet {
    /// The improvements earned and not yet spent.
    pub fn improvements_due(&self) -> u8 {
        earned(self.level).saturating_sub(self.improvements)
    }
}

/// What an improvement changed: each score raised (before, after), and the hit points before and
/// after when a higher CON raised them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::game) struct Improved {
    /// Each score raised: which, before, after.
    pub scores: Vec<(Attribute, u8, u8)>,
    /// The hit points before and after, when they rose.
    pub hit_points: Option<(HitPoints, HitPoints)>,
}

/// Spends one due improvement on `sheet`; checks everything first, so an error changes nothing.
pub(in crate::game) fn improve(
    sheet: &mut CharacterSheet,
    improvement: AbilityImprovement,
) -> Result<Improved, ImprovementError> {
    if sheet.improvements_due() == 0 {
        return Err(ImprovementError::NoneDue {
            level: sheet.level.value(),
        });
    }
    if let AbilityImprovement::PlusOneEach { first, second } = improvement {
        if first == second {
            return Err(ImprovementError::SameTwice);
        }
    }
    let increases = improvement.increases();
    for (attribute, by) in &increases {
        let score = sheet.attributes.get(*attribute).value();
        if score + by > IMPROVEMENT_CAP {
            return Err(ImprovementError::PastCap {
                attribute: *attribute,
                score,
            });
        }
    }
    let constitution = sheet.attributes.constitution;
    let mut scores = Vec::new();
    for (attribute, by) in increases {
        let from = sheet.attributes.get(attribute).value();
        let to = from + by;
        sheet
            .attributes
            .set(attribute, AttributeScore::clamped(i64::from(to)));
        scores.push((attribute, from, to));
    }
    sheet.improvements += 1;
    let hit_points = hardier(sheet, constitution);
    Ok(Improved { scores, hit_points })
}

/// Raises the maximum hit points, and the current ones of a character on their feet, by what a
/// higher CON (than `before`) adds over every level; the hit points before and after, if they
/// rose.
fn hardier(sheet: &mut CharacterSheet, before: AttributeScore) -> Option<(HitPoints, HitPoints)> {
    let (die, level) = (sheet.hit_die, sheet.level);
    let gained = i64::from(max_hp(die, level, sheet.attributes.constitution))
        - i64::from(max_hp(die, level, before));
    if gained <= 0 {
        return None;
    }
    let hp = sheet.hit_points;
    sheet
        .hit_points
        .set_max_clamped(i64::from(hp.max()) + gained);
    // A character who is down stays at 0: hardier is not healed.
    if sheet.vitality == Vitality::Up {
        sheet
            .hit_points
            .set_current_clamped(i64::from(hp.current()) + gained);
    }
    Some((hp, sheet.hit_points))
}

#[cfg(test)]
mod tests;
