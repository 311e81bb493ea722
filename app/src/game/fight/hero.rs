//! The hero as the fight sees them, from the character sheet: armour class, hit points, DEX and
//! the edges their conditions give; the attack with a carried weapon (or bare hands); and the
//! checks rolled against the foes standing, to get away and to hide.

use super::FightError;
use crate::game::attributes::Attribute;
use crate::game::bestiary::{AttackName, CreatureError};
use crate::game::combat::{AttackProfile, Combat, FightDice, Hero};
use crate::game::dice::{Check, DiceExpr, DifficultyClass};
use crate::game::features::Feature;
use crate::game::proficiency::Skill;
use crate::game::sheet::CharacterSheet;
use crate::game::text::Slug;

/// The hero's figures in a fight, from the sheet (its conditions' edges on attacks included).
pub fn hero(sheet: &CharacterSheet) -> Hero {
    let effects = sheet.conditions().roll_effects();
    let sneak = sheet
        .features()
        .iter()
        .any(|(feature, _)| *feature == Feature::SneakAttack);
    Hero {
        attack_edge: effects.attacks,
        defence_edge: effects.against,
        max_hit_points: sheet.hit_points().max(),
        concentration_save: sheet.save_bonus(Attribute::Constitution),
        concentrating: sheet.powers().is_some_and(|p| p.concentration().is_some()),
        sneak_attack_dice: if sneak {
            sheet.level().value().div_ceil(2)
        } else {
            0
        },
        ..Hero::new(
            sheet.armor_class(),
            sheet.hit_points().current(),
            sheet.attributes().dexterity.modifier(),
        )
    }
}

/// The attack with the carried weapon `slug` (or the equipped one), as the fight uses it. Bare
/// hands strike like an improvised weapon: 1d4 bludgeoning.
pub fn weapon_profile(
    sheet: &CharacterSheet,
    slug: Option<&Slug>,
) -> Result<AttackProfile, FightError> {
    let attack = sheet.weapon_attack(slug)?;
    let dice = match attack.damage_dice() {
        Some(dice) => dice.clone(),
        None => DiceExpr::parse("1d4").expect("1d4 is dice"),
    };
    let profile = AttackProfile::new(
        AttackName::new(&attack.name().to_lowercase()).map_err(CreatureError::from)?,
        attack.to_hit(),
        dice,
        attack.damage_bonus(),
        attack.damage_type(),
    )?;
    Ok(profile)
}

/// The escape check: d20 + DEX against 10 + the best DEX modifier among the foes standing.
pub(super) fn escape_check(
    combat: &Combat,
    sheet: &CharacterSheet,
    dice: &mut FightDice<'_>,
) -> Check {
    let best = combat
        .current()
        .into_iter()
        .flat_map(|encounter| encounter.standing())
        .map(|foe| foe.creature().abilities().get(Attribute::Dexterity))
        .max()
        .unwrap_or(0);
    let dc = DifficultyClass::new(10 + i64::from(best)).expect("10 ± 10 is a DC");
    let bonus = sheet.attributes().bonus(Attribute::Dexterity);
    Check::new(dice.roll(&DiceExpr::d20(), Some(bonus)), dc)
}

/// Hiding (Cunning Action): d20 + Stealth against 10 + the best WIS modifier among the foes
/// standing (their passive Perception).
pub(super) fn hide_check(
    combat: &Combat,
    sheet: &CharacterSheet,
    dice: &mut FightDice<'_>,
) -> Check {
    let best = combat
        .current()
        .into_iter()
        .flat_map(|encounter| encounter.standing())
        .map(|foe| foe.creature().abilities().get(Attribute::Wisdom))
        .max()
        .unwrap_or(0);
    let dc = DifficultyClass::new(10 + i64::from(best)).expect("10 ± 10 is a DC");
    let bonus = sheet.check_bonus(Attribute::Dexterity, Some(Skill::Stealth));
    Check::new(dice.roll(&DiceExpr::d20(), Some(bonus)), dc)
}
