//! The deltas about items: one given or its quantity changed, one equipped or put away, and
//! one of a consumable used for its effect with the roll made for it.

use super::change::Change;
use super::hp::set_hp;
use super::{DeltaError, StateDelta};
use crate::game::consumable::{self, Outcome};
use crate::game::dice::Roll;
use crate::game::sheet::CharacterSheet;
use crate::game::text::Slug;

impl StateDelta {
    /// Applies a delta about items (any other delta changes nothing here), checking before it
    /// changes anything.
    pub(super) fn apply_to_items(
        &self,
        sheet: &mut CharacterSheet,
        out: &mut Vec<Change>,
    ) -> Result<(), DeltaError> {
        match self {
            StateDelta::AddItem { item } => {
                out.extend(sheet.inventory.add(item)?.map(Change::Item));
            }
            StateDelta::ChangeItemQuantity { slug, change } => {
                let changed = sheet.inventory.change_quantity(slug, *change)?;
                out.extend(changed.map(Change::Item));
            }
            StateDelta::Equip { slug } => {
                let changed = sheet.inventory.equip(slug)?;
                out.extend(changed.into_iter().map(Change::Equipment));
            }
            StateDelta::Unequip { slug } => {
                out.push(Change::Equipment(sheet.inventory.unequip(slug)?));
            }
            StateDelta::UseItem { slug, roll } => use_item(sheet, slug, roll.as_ref(), out)?,
            _ => {}
        }
        Ok(())
    }

    /// The delta that uses one of the carried item `slug`, its dice (if any) rolled with `rng`;
    /// an error, before any die is rolled, when it cannot be used now.
    pub fn use_item<R: rand::Rng + ?Sized>(
        sheet: &CharacterSheet,
        slug: &Slug,
        rng: &mut R,
    ) -> Result<StateDelta, DeltaError> {
        Ok(StateDelta::UseItem {
            slug: slug.clone(),
            roll: consumable::roll_for_use(sheet, slug, rng)?,
        })
    }
}

/// Uses one of the consumable `slug` with `roll`: one fewer carried, then its effect.
fn use_item(
    sheet: &mut CharacterSheet,
    slug: &Slug,
    roll: Option<&Roll>,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    // Every check is in `outcome`: nothing below fails.
    let outcome = consumable::outcome(sheet, slug, roll)?;
    out.extend(sheet.inventory.change_quantity(slug, -1)?.map(Change::Item));
    match outcome {
        Outcome::Heal(amount) => {
            let current = i64::from(sheet.hit_points.current());
            set_hp(sheet, current + i64::from(amount), false, out);
        }
        Outcome::Cure(condition) => {
            out.push(Change::ConditionRemoved(
                sheet.conditions.remove(&condition)?,
            ));
        }
    }
    Ok(())
}
