//! The deltas about the hero's growth and mind: the level set, experience earned (and the level
//! and hit points it brings), an attribute score set, an ability score improvement spent, and
//! sanity changed.

use super::change::Change;
use super::hp::{push_hit_points, set_hp};
use super::powers::learn_for_level;
use super::DeltaError;
use crate::game::attributes::{Attribute, AttributeScore};
use crate::game::improvement::{improve, AbilityImprovement, ImprovementError};
use crate::game::progression::{self, MAX_AWARD};
use crate::game::sheet::{CharacterSheet, Level, Sanity};

/// Sets the level, clamped into 1..=20.
pub(super) fn set_level(sheet: &mut CharacterSheet, level: i32, out: &mut Vec<Change>) {
    let from = sheet.level;
    sheet.level = Level::clamped(i64::from(level));
    if sheet.level != from {
        out.push(Change::Level {
            from: from.value(),
            to: sheet.level.value(),
        });
        learn_for_level(sheet, out);
    }
}

/// Sets an attribute score, clamped into 1..=30.
pub(super) fn set_attribute(
    sheet: &mut CharacterSheet,
    attribute: Attribute,
    score: i32,
    out: &mut Vec<Change>,
) {
    let from = sheet.attributes.get(attribute);
    let to = AttributeScore::clamped(i64::from(score));
    sheet.attributes.set(attribute, to);
    if to != from {
        out.push(Change::Attribute {
            attribute,
            from: from.value(),
            to: to.value(),
        });
    }
}

/// Spends an ability score improvement (see [`improvement`](crate::game::improvement)), pushing the
/// scores raised and the hit points a higher CON brings.
pub(super) fn improve_abilities(
    sheet: &mut CharacterSheet,
    improvement: AbilityImprovement,
    out: &mut Vec<Change>,
) -> Result<(), ImprovementError> {
    let improved = improve(sheet, improvement)?;
    out.extend(
        improved
            .scores
            .into_iter()
            .map(|(attribute, from, to)| Change::Attribute {
                attribute,
                from,
                to,
            }),
    );
    if let Some((before, after)) = improved.hit_points {
        push_hit_points(before, after, out);
    }
    Ok(())
}

/// Changes sanity, clamped into 0..=100; an error on a sheet without it.
pub(super) fn change_sanity(
    sheet: &mut CharacterSheet,
    amount: i32,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    let from = sheet.sanity.ok_or(DeltaError::NoSanity)?;
    let to = Sanity::clamped(i64::from(from.value()) + i64::from(amount));
    sheet.sanity = Some(to);
    if to != from {
        out.push(Change::Sanity {
            from: from.value(),
            to: to.value(),
        });
    }
    Ok(())
}

/// Adds experience; crossing the next threshold gains one level and its hit points.
pub(super) fn gain_experience(
    sheet: &mut CharacterSheet,
    amount: u32,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    if !(1..=MAX_AWARD).contains(&amount) {
        return Err(DeltaError::Award);
    }
    let from = sheet.experience;
    sheet.experience = progression::award(sheet.level, from, amount);
    if sheet.experience != from {
        out.push(Change::Experience {
            from,
            to: sheet.experience,
        });
    }
    let level = progression::level_for(sheet.level, sheet.experience);
    if level != sheet.level {
        out.push(Change::Level {
            from: sheet.level.value(),
            to: level.value(),
        });
        sheet.level = level;
        let gained = sheet.hit_die.level_hp(sheet.attributes.constitution);
        let max = sheet.hit_points.max();
        sheet
            .hit_points
            .set_max_clamped(i64::from(max) + i64::from(gained));
        out.push(Change::MaxHp {
            from: max,
            to: sheet.hit_points.max(),
        });
        let current = i64::from(sheet.hit_points.current());
        set_hp(sheet, current + i64::from(gained), false, out);
        learn_for_level(sheet, out);
    }
    Ok(())
}
