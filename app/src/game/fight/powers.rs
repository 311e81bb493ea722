//! A spell or a class feature as the fight uses it: a known spell's figures for its slot and the
//! caster's level, and the action a feature makes (Second Wind, Action Surge, Cunning Action,
//! Channel Divinity).

use super::hero::{hide_check, weapon_profile};
use super::FightError;
use crate::game::attributes::Attribute;
use crate::game::bestiary::{AttackName, CreatureError, Damage};
use crate::game::combat::{CastEffect, Combat, CombatError, FightDice, HeroAction, SpellCast};
use crate::game::dice::{Check, DiceExpr};
use crate::game::features::{self, Feature};
use crate::game::powers::PowerError;
use crate::game::sheet::CharacterSheet;
use crate::game::spellcasting;
use crate::game::spells::{CastingTime, Spell, SpellEffect, SpellLevel};

/// A known `spell` as the fight casts it with a `slot`: its figures for the slot and the
/// caster's level, the caster's attack bonus and save DC.
pub(super) fn spell_cast(
    sheet: &CharacterSheet,
    spell: &Spell,
    slot: SpellLevel,
) -> Result<SpellCast, FightError> {
    if let CastingTime::Minutes(_) = spell.casting_time {
        return Err(FightError::TooSlow(spell.name.clone()));
    }
    let figures =
        spell
            .figures(slot, sheet.level().value())
            .map_err(|low| PowerError::SlotTooLow {
                spell: low.spell,
                level: low.level.ordinal(),
            })?;
    let dice = || figures.dice.clone().ok_or(FightError::Differs);
    let effect = match &spell.effect {
        SpellEffect::Damage { damage_type, .. } => CastEffect::Damage {
            damage: Damage::new(dice()?, *damage_type).map_err(CombatError::from)?,
            beams: figures.beams,
        },
        SpellEffect::Healing { .. } => CastEffect::Healing {
            dice: sheet.healing_dice(spell, slot).ok_or(FightError::Differs)?,
        },
        SpellEffect::HitPointPool { .. } => CastEffect::Pool { dice: dice()? },
        SpellEffect::Condition => CastEffect::Condition,
        SpellEffect::Rider { dice, on } => CastEffect::Rider {
            dice: dice.clone(),
            on: *on,
        },
        SpellEffect::ArmorBonus { bonus } => CastEffect::Ward { bonus: *bonus },
        SpellEffect::Utility => CastEffect::Utility,
    };
    Ok(SpellCast {
        spell: spell.name.clone(),
        attack_name: AttackName::new(&spell.name.to_lowercase()).map_err(CreatureError::from)?,
        slot,
        delivery: spell.delivery,
        effect,
        condition: spell.condition,
        attack_bonus: sheet.spell_attack_bonus().unwrap_or(0),
        save_dc: sheet.spell_save_dc().unwrap_or(8),
        concentration: spell.concentration,
        reach: figures.targets,
    })
}

/// The fight's action for a class `feature` used on `target` (or the first foe standing).
pub(super) fn feature_action(
    feature: Feature,
    target: Option<&String>,
    combat: &Combat,
    sheet: &CharacterSheet,
    dice: &mut FightDice<'_>,
) -> Result<HeroAction, FightError> {
    sheet.usable(feature)?;
    let first = combat
        .current()
        .and_then(|encounter| encounter.standing().next())
        .map(|foe| foe.label().to_string());
    let target = target.cloned().or(first).ok_or(CombatError::NoEncounter)?;
    let strike = |strikes: u8,
                  heal: Option<DiceExpr>,
                  hide: Option<Check>|
     -> Result<HeroAction, FightError> {
        Ok(HeroAction::Strike {
            target: target.clone(),
            weapon: weapon_profile(sheet, None)?,
            strikes,
            heal,
            hide,
        })
    };
    match feature {
        Feature::SecondWind => strike(1, Some(features::second_wind_dice(sheet.level())), None),
        Feature::ActionSurge => strike(2, None, None),
        Feature::CunningAction => strike(1, None, Some(hide_check(combat, sheet, dice))),
        Feature::ChannelDivinity => Ok(HeroAction::TurnUndead {
            dc: spellcasting::save_dc(
                sheet.proficiency_bonus(),
                sheet.attributes().get(Attribute::Wisdom).modifier(),
            ),
        }),
        other => Err(FightError::NotAFightMove(other.name())),
    }
}
