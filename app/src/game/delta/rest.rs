//! Time passing (the conditions whose time is up end) and the rests that take it: a short rest
//! spends a hit die or, for a hero whose powers count, lets them be spent; a long one brings
//! back hit points, half the hit dice, sanity, and every slot and use.

use super::change::Change;
use super::hp::set_hp;
use super::powers;
use super::{DeltaError, RestKind};
use crate::game::sheet::{CharacterSheet, Sanity};

/// Time passes; the conditions whose time is up end.
pub(super) fn advance_time(sheet: &mut CharacterSheet, minutes: u32, out: &mut Vec<Change>) {
    let from = sheet.time;
    sheet.time = from.after(minutes);
    if sheet.time != from {
        out.push(Change::Time {
            from,
            to: sheet.time,
        });
    }
    let ended = sheet.conditions.expire(sheet.time.minutes());
    out.extend(ended.into_iter().map(Change::ConditionRemoved));
}

/// A long rest gives back 5 sanity plus the WIS modifier (at least 1), in games that track it.
/// Sheets made before hit dice were a pool (and sanity had its teeth) rest as before.
fn regain_sanity(sheet: &mut CharacterSheet, kind: RestKind, out: &mut Vec<Change>) {
    let Some(from) = sheet.sanity else {
        return;
    };
    if kind != RestKind::Long || sheet.hit_dice_spent.is_none() {
        return;
    }
    let back = (5 + i64::from(sheet.attributes.wisdom.modifier())).max(1);
    let to = Sanity::clamped(i64::from(from.value()) + back);
    sheet.sanity = Some(to);
    if to != from {
        out.push(Change::Sanity {
            from: from.value(),
            to: to.value(),
        });
    }
}

/// A short rest spends a hit die, a long one restores every hit point.
pub(super) fn rest(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    if sheet.vitality.is_dying() {
        return Err(DeltaError::Dying);
    }
    if sheet.powers.is_some() {
        return powered_rest(sheet, kind, out);
    }
    spend_or_regain_hit_dice(sheet, kind, out)?;
    regain_sanity(sheet, kind, out);
    let current = i64::from(sheet.hit_points.current());
    let (healed, minutes) = match kind {
        RestKind::Short => (
            current + i64::from(sheet.hit_die.level_hp(sheet.attributes.constitution)),
            60,
        ),
        RestKind::Long => (i64::from(sheet.hit_points.max()), 8 * 60),
    };
    set_hp(sheet, healed, false, out);
    advance_time(sheet, minutes, out);
    Ok(())
}

/// The rest of a hero whose powers count. A short one is an hour; the hit dice are the player's to
/// spend after it, one [`StateDelta::SpendHitDie`](super::StateDelta::SpendHitDie) each, and
/// short-rest uses come back. A long one, at most once a day, is eight hours: every hit point, half
/// the hit dice, every slot and use back.
fn powered_rest(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    match kind {
        RestKind::Short => {
            advance_time(sheet, 60, out);
            powers::short_rest(sheet, out);
        }
        RestKind::Long => {
            powers::check_long_rest(sheet)?;
            spend_or_regain_hit_dice(sheet, kind, out)?;
            regain_sanity(sheet, kind, out);
            set_hp(sheet, i64::from(sheet.hit_points.max()), false, out);
            advance_time(sheet, 8 * 60, out);
            powers::long_rest(sheet, out);
        }
    }
    Ok(())
}

/// A short rest spends a hit die (refused with none left); a long one brings back half of them
/// (at least one). Sheets made before hit dice were a pool rest as before.
fn spend_or_regain_hit_dice(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    let (Some(spent), Some((from, total))) = (sheet.hit_dice_spent, sheet.hit_dice()) else {
        return Ok(());
    };
    // More spent than a lowered level has counts as all of them.
    let spent = spent.min(total);
    let spent_after = match kind {
        RestKind::Short if from == 0 => return Err(DeltaError::NoHitDice),
        RestKind::Short => spent + 1,
        RestKind::Long => spent.saturating_sub((total / 2).max(1)),
    };
    let to = total.saturating_sub(spent_after);
    if to != from {
        sheet.hit_dice_spent = Some(spent_after);
        out.push(Change::HitDice { from, to });
    }
    Ok(())
}
