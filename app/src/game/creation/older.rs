//! Characters as older creation rules made them, so that a file exported then still checks
//! against the creation rules: before spells and class features counted, and before items
//! were typed.

use super::create::abilities;
use super::presets::preset;
use crate::game::sheet::CharacterSheet;
use crate::game::text::Slug;

/// `made`, a character as the creation rules make it, as they made it before spells and class
/// features counted: no powers, and a preset's signature abilities all listed as text.
pub fn created_before_powers(made: &CharacterSheet) -> CharacterSheet {
    if made.powers().is_none() {
        return made.clone();
    }
    let mut sheet = made.clone().before_powers();
    if let Ok(all) = abilities(preset(made.class().as_str()), "") {
        if preset(made.class().as_str()).is_some() {
            sheet.abilities = all;
        }
    }
    sheet
}

/// `fresh`, a character just made by [`CharacterDraft::create`](super::CharacterDraft::create), as
/// the creation rules made it before items were typed: without the gear its class gained then
/// ([`ClassPreset::gear_added_with_kinds`](super::ClassPreset::gear_added_with_kinds)), every item
/// plain gear, nothing equipped, no proficiencies.
pub fn created_before_typed_items(fresh: &CharacterSheet) -> CharacterSheet {
    let added: Vec<Slug> = preset(fresh.class().as_str())
        .map_or(&[][..], |p| p.gear_added_with_kinds)
        .iter()
        .filter_map(|name| Slug::new(name).ok())
        .collect();
    let mut sheet = fresh.clone().before_hit_dice_pool().before_proficiencies();
    sheet.inventory = fresh.inventory().untyped(&added);
    sheet
}
