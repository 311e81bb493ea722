//! Applying a delta: every check before any change, the changes pushed in order, and a list
//! of deltas applied all or nothing. Each kind of delta is applied by the file that holds its
//! part of the sheet; conditions and the location are applied here.

use super::change::{AppliedChanges, Change};
use super::concentration::concentrate;
use super::hp::{set_hp, set_max_hp, set_vitality};
use super::powers;
use super::rest::{advance_time, rest};
use super::scores::{change_sanity, gain_experience, improve_abilities, set_attribute, set_level};
use super::{DeltaError, StateDelta};
use crate::game::sheet::CharacterSheet;

impl StateDelta {
    /// Applies the delta to `sheet`, clamping numbers into range, and reports what changed.
    /// On error `sheet` is unchanged.
    pub fn apply(&self, sheet: &mut CharacterSheet) -> Result<AppliedChanges, DeltaError> {
        let mut changes = AppliedChanges::default();
        self.apply_into(sheet, &mut changes)?;
        Ok(changes)
    }

    /// Applies every delta in order, all or nothing: on the first error `sheet` is left as it
    /// was before the first delta.
    pub fn apply_all(
        deltas: &[StateDelta],
        sheet: &mut CharacterSheet,
    ) -> Result<AppliedChanges, DeltaError> {
        let mut next = sheet.clone();
        let mut changes = AppliedChanges::default();
        for delta in deltas {
            delta.apply_into(&mut next, &mut changes)?;
        }
        *sheet = next;
        Ok(changes)
    }

    /// Applies the delta, pushing what changed. Every check comes before any mutation, so an
    /// error leaves `sheet` as it was.
    fn apply_into(
        &self,
        sheet: &mut CharacterSheet,
        changes: &mut AppliedChanges,
    ) -> Result<(), DeltaError> {
        if sheet.vitality.is_dead() {
            return Err(DeltaError::Fallen);
        }
        let out = &mut changes.0;
        match self {
            StateDelta::ChangeHp { amount } => {
                let current = i64::from(sheet.hit_points.current());
                set_hp(sheet, current + i64::from(*amount), *amount < 0, out);
            }
            StateDelta::SetHp { hp } => set_hp(sheet, i64::from(*hp), false, out),
            StateDelta::SetMaxHp { max_hp } => set_max_hp(sheet, *max_hp, out),
            StateDelta::SetLevel { level } => set_level(sheet, *level, out),
            StateDelta::SetAttribute { attribute, score } => {
                set_attribute(sheet, *attribute, *score, out);
            }
            StateDelta::ChangeSanity { amount } => change_sanity(sheet, *amount, out)?,
            StateDelta::AddItem { .. }
            | StateDelta::ChangeItemQuantity { .. }
            | StateDelta::Equip { .. }
            | StateDelta::Unequip { .. }
            | StateDelta::UseItem { .. } => self.apply_to_items(sheet, out)?,
            StateDelta::AddCondition { condition } => {
                let mut condition = condition.clone();
                let now = sheet.time.minutes();
                condition.ends_at = condition.minutes.map(|m| now.saturating_add(m));
                let previous = sheet.conditions.add(condition.clone())?;
                if previous.as_ref() != Some(&condition) {
                    out.push(Change::ConditionAdded(condition));
                }
            }
            StateDelta::RemoveCondition { name } => {
                let removed = sheet.conditions.remove(name)?;
                out.push(Change::ConditionRemoved(removed));
            }
            StateDelta::MoveTo { location } => {
                if &sheet.location != location {
                    let from = std::mem::replace(&mut sheet.location, location.clone());
                    out.push(Change::Location {
                        from,
                        to: location.clone(),
                    });
                }
            }
            StateDelta::AdvanceTime { minutes } => advance_time(sheet, *minutes, out),
            StateDelta::GainExperience { amount } => gain_experience(sheet, *amount, out)?,
            StateDelta::DeathSave { die } => {
                let (after, revived) = sheet.vitality.after_death_save(*die);
                if revived {
                    set_hp(sheet, 1, false, out);
                } else {
                    set_vitality(sheet, after, out);
                }
            }
            StateDelta::Rest { kind } => rest(sheet, *kind, out)?,
            StateDelta::ImproveAbilities { improvement } => {
                improve_abilities(sheet, *improvement, out)?;
            }
            StateDelta::CastSpell { spell, slot, roll } => {
                powers::cast_spell(sheet, spell, *slot, roll.as_ref(), out)?;
            }
            StateDelta::UseFeature { feature, roll } => {
                powers::use_feature(sheet, *feature, roll.as_ref(), out)?;
            }
            StateDelta::SpendHitDie { roll } => powers::spend_hit_die(sheet, roll, out)?,
            StateDelta::EndConcentration => concentrate(sheet, None, out)?,
        }
        Ok(())
    }
}
