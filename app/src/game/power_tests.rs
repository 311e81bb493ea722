//! Tests of the hero's powers: slots spent and restored by the right rest, feature uses,
//! hit dice never below zero, hit points never above the maximum, a long rest once a day, and
//! casts the rules refuse changing nothing.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::creation::tests_support::of_class;
use super::delta::{DeltaError, RestKind, StateDelta};
use super::features::Feature;
use super::powers::PowerError;
use super::spells::SpellLevel;
use super::text::Slug;
use super::CharacterSheet;

fn cast(spell: &str, slot: u8) -> StateDelta {
    StateDelta::CastSpell {
        spell: Slug::new(spell).unwrap(),
        slot: SpellLevel::new(slot).unwrap(),
        roll: None,
    }
}

fn apply(sheet: &mut CharacterSheet, delta: StateDelta) -> Result<(), DeltaError> {
    StateDelta::apply_all(&[delta], sheet).map(|_| ())
}

fn rest(kind: RestKind) -> StateDelta {
    StateDelta::Rest { kind }
}

#[test]
fn a_wizard_spends_slots_until_none_is_left_and_a_long_rest_brings_them_back() {
    let mut wizard = of_class("Wizard");
    assert_eq!(wizard.spell_slots()[0], (2, 2));
    // INT 15 (+2) and proficiency +2: DC 8 + 2 + 2, attack +4.
    assert_eq!(wizard.spell_save_dc(), Some(12));
    assert_eq!(wizard.spell_attack_bonus(), Some(4));
    apply(&mut wizard, cast("magic-missile", 1)).unwrap();
    apply(&mut wizard, cast("sleep", 1)).unwrap();
    assert_eq!(wizard.spell_slots()[0], (2, 0));
    let before = wizard.clone();
    let refused = apply(&mut wizard, cast("magic-missile", 1)).unwrap_err();
    assert_eq!(refused.to_string(), "No 1st-level slot left");
    let unknown = apply(&mut wizard, cast("fireball", 3)).unwrap_err();
    assert_eq!(unknown.to_string(), "You don't know Fireball");
    // A cantrip spends nothing.
    apply(&mut wizard, cast("fire-bolt", 0)).unwrap();
    assert_eq!(wizard.spell_slots(), before.spell_slots());
    // A short rest gives no slot back; a long one gives them all.
    apply(&mut wizard, rest(RestKind::Short)).unwrap();
    assert_eq!(wizard.spell_slots()[0], (2, 0));
    apply(&mut wizard, rest(RestKind::Long)).unwrap();
    assert_eq!(wizard.spell_slots()[0], (2, 2));
    // A second long rest the same day is refused and changes nothing.
    let rested = wizard.clone();
    let again = apply(&mut wizard, rest(RestKind::Long)).unwrap_err();
    assert!(again.to_string().contains("less than a day ago"), "{again}");
    assert_eq!(wizard, rested);
}

#[test]
fn arcane_recovery_brings_slots_back_only_right_after_a_short_rest() {
    let mut wizard = of_class("Wizard");
    apply(&mut wizard, cast("magic-missile", 1)).unwrap();
    let recover = StateDelta::UseFeature {
        feature: Feature::ArcaneRecovery,
        roll: None,
    };
    let early = apply(&mut wizard, recover.clone()).unwrap_err();
    assert!(matches!(early, DeltaError::Power(PowerError::NotResting)));
    apply(&mut wizard, rest(RestKind::Short)).unwrap();
    apply(&mut wizard, recover.clone()).unwrap();
    assert_eq!(wizard.spell_slots()[0], (2, 2));
    // Once a day: its use is spent until a long rest.
    apply(&mut wizard, cast("sleep", 1)).unwrap();
    apply(&mut wizard, rest(RestKind::Short)).unwrap();
    let spent = apply(&mut wizard, recover).unwrap_err();
    assert!(spent.to_string().contains("long rest"), "{spent}");
}

#[test]
fn uses_come_back_on_the_rest_their_feature_names() {
    let mut fighter = of_class("Fighter");
    let mut rng = StdRng::seed_from_u64(3);
    let wind = super::features::second_wind_dice(fighter.level()).roll(&mut rng);
    // At full hit points Second Wind heals nothing but still spends its use.
    apply(
        &mut fighter,
        StateDelta::UseFeature {
            feature: Feature::SecondWind,
            roll: Some(wind.clone()),
        },
    )
    .unwrap();
    assert!(fighter.usable(Feature::SecondWind).is_err());
    // A forged roll is refused.
    let forged = super::dice::DiceExpr::parse("1d12").unwrap().roll(&mut rng);
    let mut other = of_class("Fighter");
    assert!(apply(
        &mut other,
        StateDelta::UseFeature {
            feature: Feature::SecondWind,
            roll: Some(forged),
        },
    )
    .is_err());
    apply(&mut fighter, rest(RestKind::Short)).unwrap();
    assert!(fighter.usable(Feature::SecondWind).is_ok(), "a short rest");
    // A feature the class lacks is refused by name.
    let surge = fighter.usable(Feature::SneakAttack).unwrap_err();
    assert_eq!(
        surge.to_string(),
        "Sneak Attack is not one of your features"
    );
}

#[test]
fn hit_dice_are_spent_one_at_a_time_after_a_short_rest() {
    let mut cleric = of_class("Cleric");
    let hurt = StateDelta::ChangeHp { amount: -5 };
    apply(&mut cleric, hurt).unwrap();
    let (die, bonus) = cleric.hit_die_roll();
    let mut rng = StdRng::seed_from_u64(7);
    let spend = |rng: &mut StdRng| StateDelta::SpendHitDie {
        roll: die.roll_with_bonus(bonus, rng),
    };
    let outside = apply(&mut cleric, spend(&mut rng)).unwrap_err();
    assert!(
        outside.to_string().contains("end of a short rest"),
        "{outside}"
    );
    apply(&mut cleric, rest(RestKind::Short)).unwrap();
    apply(&mut cleric, spend(&mut rng)).unwrap();
    assert_eq!(cleric.hit_dice(), Some((0, 1)));
    let none = apply(&mut cleric, spend(&mut rng)).unwrap_err();
    assert!(none.to_string().contains("No hit dice left"), "{none}");
}

#[test]
fn concentration_moves_to_the_new_spell_and_ends_at_zero_hit_points() {
    let mut cleric = of_class("Cleric");
    apply(&mut cleric, cast("bless", 1)).unwrap();
    let held = |sheet: &CharacterSheet| {
        sheet
            .powers()
            .and_then(|p| p.concentration())
            .map(|s| s.name.clone())
    };
    assert_eq!(held(&cleric).as_deref(), Some("Bless"));
    apply(&mut cleric, StateDelta::EndConcentration).unwrap();
    assert_eq!(held(&cleric), None);
    apply(&mut cleric, cast("bless", 1)).unwrap();
    apply(&mut cleric, StateDelta::ChangeHp { amount: -100 }).unwrap();
    assert_eq!(held(&cleric), None, "a hero at 0 HP holds nothing");
}

proptest! {
    /// Whatever the hero casts, spends and rests, hit dice never go below zero, hit points
    /// never pass the maximum, and slots left never pass the slots in all.
    #[test]
    fn powers_stay_within_their_bounds(steps in prop::collection::vec(0u8..6, 1..30), seed in 0u64..1000) {
        let mut sheet = of_class("Cleric");
        let mut rng = StdRng::seed_from_u64(seed);
        for step in steps {
            let delta = match step {
                0 => StateDelta::ChangeHp { amount: -3 },
                1 => rest(RestKind::Short),
                2 => rest(RestKind::Long),
                3 => {
                    let (die, bonus) = sheet.hit_die_roll();
                    StateDelta::SpendHitDie { roll: die.roll_with_bonus(bonus, &mut rng) }
                }
                4 => cast("bless", 1),
                _ => StateDelta::AdvanceTime { minutes: 600 },
            };
            let before = sheet.clone();
            if apply(&mut sheet, delta).is_err() {
                prop_assert_eq!(&sheet, &before, "a refused change changes nothing");
            }
            let (left, total) = sheet.hit_dice().unwrap();
            prop_assert!(left <= total);
            prop_assert!(sheet.hit_points().current() <= sheet.hit_points().max());
            for (total, left) in sheet.spell_slots() {
                prop_assert!(left <= total);
            }
        }
    }
}
