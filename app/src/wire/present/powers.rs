//! The hero's powers as the character panel shows them: the casting figures, slots by level,
//! the spells known (each with why it cannot be cast now, if it cannot), the spell held, the
//! class features with their uses, and whether hit dice may be spent.

use crate::game::features::Feature;
use crate::game::CharacterSheet;
use crate::wire::view::{FeatureView, PowersView, SpellView};

/// The panel's powers for `sheet`, `None` for a sheet made before they counted.
pub fn powers_view(sheet: &CharacterSheet) -> Option<PowersView> {
    let powers = sheet.powers()?;
    let casting = powers.casting().map(|casting| {
        format!(
            "{}: spell attack {:+}, save DC {}",
            casting.ability,
            sheet.spell_attack_bonus().unwrap_or(0),
            sheet.spell_save_dc().unwrap_or(0)
        )
    });
    let slots = (1..=9u8)
        .zip(sheet.spell_slots())
        .filter(|(_, (total, _))| *total > 0)
        .map(|(level, (total, left))| (level, total, left))
        .collect();
    let spells = sheet
        .known_spells()
        .into_iter()
        .map(|spell| SpellView {
            slug: spell.slug().to_string(),
            name: spell.name.clone(),
            level: spell.level.value(),
            summary: spell.summary.clone(),
            refused: sheet
                .castable(&spell.name, None)
                .err()
                .map(|error| error.to_string()),
            concentration: spell.concentration,
        })
        .collect();
    let features = sheet
        .features()
        .into_iter()
        .map(|(feature, uses)| FeatureView {
            key: feature_key(feature),
            name: feature.name().to_owned(),
            summary: feature.summary().to_owned(),
            uses,
            usable: matches!(feature, Feature::SecondWind | Feature::ArcaneRecovery)
                && sheet.usable(feature).is_ok(),
        })
        .collect();
    let resting = powers.short_rest_ended() == Some(sheet.time().minutes());
    Some(PowersView {
        casting,
        slots,
        spells,
        concentration: powers.concentration().map(|spell| spell.name.clone()),
        features,
        resting,
        hit_dice_left: sheet.hit_dice().map_or(0, |(left, _)| left),
    })
}

/// The feature's key as the browser sends it back (`secondWind`).
fn feature_key(feature: Feature) -> String {
    serde_json::to_value(feature)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}
