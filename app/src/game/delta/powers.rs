//! How the deltas about powers change the sheet: a spell cast (its slot, its concentration, its
//! healing), a class feature used, a hit die spent after a short rest, the rests of a hero whose
//! powers count, and the spells a level brings. Each checks everything before it changes
//! anything. The spell held is taken up and ended in `concentration.rs`.

use super::change::Change;
use super::concentration::concentrate;
use super::hp::set_hp_within;
use crate::game::dice::Roll;
use crate::game::features::{self, Feature, Recharge};
use crate::game::powers::{check_roll, PowerError, Powers, LONG_REST_GAP_MINUTES};
use crate::game::sheet::{CharacterSheet, GameTime};
use crate::game::spellcasting;
use crate::game::spells::{SpellBook, SpellLevel};
use crate::game::text::Slug;

/// The highest slot level Arcane Recovery brings back.
const ARCANE_RECOVERY_MAX_LEVEL: usize = 5;

fn powers_mut(sheet: &mut CharacterSheet) -> Result<&mut Powers, PowerError> {
    sheet.powers.as_mut().ok_or(PowerError::NoPowers)
}

/// Casts the known spell `slug` with a `slot` (ignored for a cantrip): the slot spent, the
/// concentration it needs taken up (ending any other), its healing (`roll`) applied.
pub(super) fn cast_spell(
    sheet: &mut CharacterSheet,
    slug: &Slug,
    slot: SpellLevel,
    roll: Option<&Roll>,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    let wanted = (!SpellBook::srd().get(slug.as_str())?.level.is_cantrip()).then_some(slot);
    let (spell, slot) = sheet.castable(slug.as_str(), wanted)?;
    let healing = sheet.healing_dice(spell, slot);
    check_roll(healing.as_ref(), roll)?;
    spend_slot(sheet, slot, out)?;
    if spell.concentration {
        concentrate(sheet, Some(spell.slug()), out)?;
    }
    heal_by(sheet, roll, out);
    Ok(())
}

/// Heals by `roll`'s total (none below 0), if there is a roll.
fn heal_by(sheet: &mut CharacterSheet, roll: Option<&Roll>, out: &mut Vec<Change>) {
    if let Some(roll) = roll {
        let current = i64::from(sheet.hit_points.current());
        set_hp_within(sheet, current + i64::from(roll.total().max(0)), out);
    }
}

/// Spends one slot of `slot`'s level (none for a cantrip).
pub(super) fn spend_slot(
    sheet: &mut CharacterSheet,
    slot: SpellLevel,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    if slot.is_cantrip() {
        return Ok(());
    }
    let index = usize::from(slot.value()) - 1;
    let (_, left) = sheet.spell_slots()[index];
    if left == 0 {
        return Err(PowerError::NoSlot {
            level: slot.ordinal(),
        });
    }
    powers_mut(sheet)?.slots_spent[index] += 1;
    out.push(Change::Slots {
        level: slot.value(),
        from: left,
        to: left - 1,
    });
    Ok(())
}

/// Uses `feature`: a use spent, Second Wind's `roll` healing, Arcane Recovery's slots back.
pub(super) fn use_feature(
    sheet: &mut CharacterSheet,
    feature: Feature,
    roll: Option<&Roll>,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    sheet.usable(feature)?;
    let healing =
        (feature == Feature::SecondWind).then(|| features::second_wind_dice(sheet.level()));
    check_roll(healing.as_ref(), roll)?;
    if feature == Feature::ArcaneRecovery {
        arcane_recovery(sheet, out)?;
    }
    spend_use(sheet, feature, out)?;
    heal_by(sheet, roll, out);
    Ok(())
}

/// Spends a use of `feature` if it has a count.
pub(super) fn spend_use(
    sheet: &mut CharacterSheet,
    feature: Feature,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    let Some(total) = feature.uses(sheet.level(), sheet.attributes()) else {
        return Ok(());
    };
    let powers = powers_mut(sheet)?;
    let spent = powers.uses_spent.entry(feature).or_insert(0);
    let from = total.saturating_sub(*spent);
    *spent = spent.saturating_add(1);
    out.push(Change::Uses {
        feature,
        from,
        to: from.saturating_sub(1),
    });
    Ok(())
}

/// Arcane Recovery, at the end of a short rest: spent slots back, the highest first, their
/// levels adding up to at most half the wizard's level (rounded up), none above 5th.
fn arcane_recovery(sheet: &mut CharacterSheet, out: &mut Vec<Change>) -> Result<(), PowerError> {
    if !resting(sheet) {
        return Err(PowerError::NotResting);
    }
    let mut budget = features::arcane_recovery_budget(sheet.level());
    let slots = sheet.spell_slots();
    let powers = powers_mut(sheet)?;
    let mut regained = false;
    for index in (0..ARCANE_RECOVERY_MAX_LEVEL).rev() {
        let level = u8::try_from(index + 1).unwrap_or(u8::MAX);
        while powers.slots_spent[index] > 0 && level <= budget {
            powers.slots_spent[index] -= 1;
            budget -= level;
            regained = true;
            let (total, before) = slots[index];
            let from = before.min(total);
            out.push(Change::Slots {
                level,
                from,
                to: from + 1,
            });
        }
    }
    if regained {
        Ok(())
    } else {
        Err(PowerError::Pointless(
            "Arcane Recovery brings back spent slots; none of 5th level or lower is spent",
        ))
    }
}

/// Whether a short rest has just ended (time has not moved on since).
fn resting(sheet: &CharacterSheet) -> bool {
    sheet
        .powers
        .as_ref()
        .and_then(|powers| powers.short_rest_ended)
        == Some(sheet.time.minutes())
}

/// Spends a hit die at the end of a short rest: `roll` (the die plus CON) heals, at least 0.
pub(super) fn spend_hit_die(
    sheet: &mut CharacterSheet,
    roll: &Roll,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    if !resting(sheet) {
        return Err(PowerError::NotResting);
    }
    let (dice, bonus) = sheet.hit_die_roll();
    if roll.attribute() != Some(bonus) {
        return Err(PowerError::WrongDice {
            notation: roll.notation().to_owned(),
            expected: dice.notation_with_bonus(i32::from(bonus.total())),
        });
    }
    check_roll(Some(&dice), Some(roll))?;
    let Some((left, total)) = sheet.hit_dice() else {
        return Err(PowerError::NoPowers);
    };
    if left == 0 {
        return Err(PowerError::NoHitDice);
    }
    sheet.hit_dice_spent = Some(total - left + 1);
    out.push(Change::HitDice {
        from: left,
        to: left - 1,
    });
    heal_by(sheet, Some(roll), out);
    Ok(())
}

/// A short rest of a hero whose powers count: the uses of short-rest features come back, and
/// hit dice may be spent until time moves on.
pub(super) fn short_rest(sheet: &mut CharacterSheet, out: &mut Vec<Change>) {
    restore_uses(sheet, Recharge::ShortRest, out);
    let ended = sheet.time.minutes();
    if let Some(powers) = sheet.powers.as_mut() {
        powers.short_rest_ended = Some(ended);
    }
}

/// Refuses a long rest that begins less than a day after the last began.
pub(super) fn check_long_rest(sheet: &CharacterSheet) -> Result<(), PowerError> {
    let last = sheet.powers.as_ref().and_then(|p| p.long_rest_ended);
    match last {
        Some(ended) if sheet.time.minutes() < ended.saturating_add(LONG_REST_GAP_MINUTES) => {
            let ready = GameTime::from_minutes(ended.saturating_add(LONG_REST_GAP_MINUTES));
            Err(PowerError::LongRestTooSoon {
                ready: ready.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// A long rest of a hero whose powers count, once its hours have passed: every slot and use
/// back, concentration ended, and the time it ended kept.
pub(super) fn long_rest(sheet: &mut CharacterSheet, out: &mut Vec<Change>) {
    restore_uses(sheet, Recharge::LongRest, out);
    let slots = sheet.spell_slots();
    let ended = sheet.time.minutes();
    let Some(powers) = sheet.powers.as_mut() else {
        return;
    };
    for (index, (total, left)) in slots.into_iter().enumerate() {
        if left < total {
            out.push(Change::Slots {
                level: u8::try_from(index + 1).unwrap_or(u8::MAX),
                from: left,
                to: total,
            });
        }
    }
    powers.slots_spent = [0; 9];
    powers.long_rest_ended = Some(ended);
    powers.short_rest_ended = None;
    let _ = concentrate(sheet, None, out);
}

/// The uses of the features that come back on a `rest` (a long rest brings back both kinds).
fn restore_uses(sheet: &mut CharacterSheet, rest: Recharge, out: &mut Vec<Change>) {
    let features = sheet.features();
    let Some(powers) = sheet.powers.as_mut() else {
        return;
    };
    for (feature, uses) in features {
        let back = matches!(
            (feature.recharge(), rest),
            (Some(Recharge::ShortRest), _) | (Some(Recharge::LongRest), Recharge::LongRest)
        );
        if let (true, Some((left, total))) = (back, uses) {
            powers.uses_spent.remove(&feature);
            if left < total {
                out.push(Change::Uses {
                    feature,
                    from: left,
                    to: total,
                });
            }
        }
    }
}

/// The spells a hero's class knows by default at their level and they do not know yet, learned.
pub(super) fn learn_for_level(sheet: &mut CharacterSheet, out: &mut Vec<Change>) {
    let level = sheet.level();
    let Some(powers) = sheet.powers.as_mut() else {
        return;
    };
    let Some(casting) = powers.casting else {
        return;
    };
    let book = SpellBook::srd();
    let mut learned = Vec::new();
    for name in spellcasting::default_spells(casting.list, level) {
        let Ok(spell) = book.get(name) else { continue };
        if !powers.known.contains(&spell.slug()) {
            powers.known.push(spell.slug());
            learned.push(spell.name.clone());
        }
    }
    if !learned.is_empty() {
        out.push(Change::Learned { spells: learned });
    }
}
