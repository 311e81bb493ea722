//! Hit points and the vitality they give: current and maximum hit points set within their
//! range, the hero moved up, down or out as the stakes say (a fall ends the spell held), and
//! what changed pushed in order.

use super::change::Change;
use super::concentration::concentrate;
use crate::game::sheet::{CharacterSheet, HitPoints};
use crate::game::stakes::Vitality;

/// Sets the maximum hit points; current hit points above it drop to it.
pub(super) fn set_max_hp(sheet: &mut CharacterSheet, max_hp: i32, out: &mut Vec<Change>) {
    let before = sheet.hit_points;
    sheet.hit_points.set_max_clamped(i64::from(max_hp));
    push_hit_points(before, sheet.hit_points, out);
}

/// Pushes what changed from `before` to `after`: the maximum, then the current hit points.
pub(super) fn push_hit_points(before: HitPoints, after: HitPoints, out: &mut Vec<Change>) {
    if after.max() != before.max() {
        out.push(Change::MaxHp {
            from: before.max(),
            to: after.max(),
        });
    }
    if after.current() != before.current() {
        out.push(Change::Hp {
            from: before.current(),
            to: after.current(),
        });
    }
}

/// Sets the hit points and moves the character up, down or out as the stakes say; `damage`
/// taken at 0 HP counts as a failed death save.
pub(super) fn set_hp(sheet: &mut CharacterSheet, value: i64, damage: bool, out: &mut Vec<Change>) {
    let from = sheet.hit_points.current();
    sheet.hit_points.set_current_clamped(value);
    let to = sheet.hit_points.current();
    if to != from {
        out.push(Change::Hp { from, to });
    }
    if to == 0
        && sheet
            .powers
            .as_ref()
            .is_some_and(|p| p.concentration.is_some())
    {
        let _ = concentrate(sheet, None, out);
    }
    let mut after = sheet.vitality.after_hp(sheet.stakes, from, to);
    if damage && from == 0 {
        after = after.after_damage_while_down();
    }
    set_vitality(sheet, after, out);
}

/// Sets the hit points to `value` (clamped into 0..=max), as healing does.
pub(super) fn set_hp_within(sheet: &mut CharacterSheet, value: i64, out: &mut Vec<Change>) {
    set_hp(sheet, value, false, out);
}

/// Sets the vitality, pushing the change if there is one.
pub(super) fn set_vitality(sheet: &mut CharacterSheet, to: Vitality, out: &mut Vec<Change>) {
    if to != sheet.vitality {
        let from = std::mem::replace(&mut sheet.vitality, to);
        out.push(Change::Vitality { from, to });
    }
}
