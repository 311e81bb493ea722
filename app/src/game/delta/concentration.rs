//! The spell a hero concentrates on, as a change: one taken up (ending the one held before) or
//! the one held ended, by a blow that fells the hero, a rest, or a failed save.

use super::change::Change;
use crate::game::powers::PowerError;
use crate::game::sheet::CharacterSheet;
use crate::game::spells::SpellBook;
use crate::game::text::Slug;

/// Concentrates on `spell` (or on nothing): what was held before ends.
pub(super) fn concentrate(
    sheet: &mut CharacterSheet,
    spell: Option<Slug>,
    out: &mut Vec<Change>,
) -> Result<(), PowerError> {
    let name = |slug: &Option<Slug>| {
        slug.as_ref().map(|slug| {
            SpellBook::srd()
                .get(slug.as_str())
                .map_or_else(|_| slug.to_string(), |spell| spell.name.clone())
        })
    };
    let powers = sheet.powers.as_mut().ok_or(PowerError::NoPowers)?;
    if powers.concentration != spell {
        let from = std::mem::replace(&mut powers.concentration, spell);
        out.push(Change::Concentration {
            from: name(&from),
            to: name(&powers.concentration),
        });
    }
    Ok(())
}
