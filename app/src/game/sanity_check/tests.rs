use proptest::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

use super::*;
use crate::game::sheet::tests::mira;
use crate::game::sheet::Sanity;

/// Mira with `sanity` (0..=100) under `stakes`.
fn haunted(sanity: i64, stakes: Stakes) -> CharacterSheet {
    let mut sheet = mira().with_sanity(Sanity::new(sanity).unwrap());
    sheet.stakes = stakes;
    sheet
}

/// A check of `severity` whose save shows `die` and whose loss shows `faces`.
fn rolled(sheet: &CharacterSheet, severity: Severity, die: u16, faces: &[u16]) -> SanityCheck {
    let bonus = sheet.attributes().bonus(Attribute::Wisdom);
    let save = Check::new(
        DiceExpr::d20().roll_faces(Some(bonus), |_| die),
        severity.dc(),
    );
    let mut faces = faces.iter().copied();
    let loss = (!save.is_success()).then(|| {
        severity
            .loss_dice()
            .roll_faces(None, |_| faces.next().unwrap_or(1))
    });
    SanityCheck {
        severity,
        save,
        loss,
    }
}

#[test]
fn the_severity_sets_the_dc_and_the_dice_of_the_loss() {
    let table = [
        (Severity::Minor, 10, "1d6"),
        (Severity::Serious, 13, "2d6"),
        (Severity::Dire, 16, "3d6"),
    ];
    for (severity, dc, dice) in table {
        assert_eq!(severity.dc().value(), dc);
        assert_eq!(severity.loss_dice().to_string(), dice);
    }
}

#[test]
fn a_passed_save_costs_nothing_and_a_failed_one_its_dice() {
    let sheet = haunted(50, Stakes::Heroic);
    let passed = rolled(&sheet, Severity::Serious, 15, &[]);
    assert!(passed.save.is_success() && passed.loss.is_none());
    assert!(passed.deltas(&sheet).is_empty());
    let failed = rolled(&sheet, Severity::Serious, 4, &[3, 4]);
    assert_eq!(
        failed.deltas(&sheet),
        [StateDelta::ChangeSanity { amount: -7 }]
    );
    assert!(failed
        .describe("the thing in the well")
        .starts_with("Rolled 1d20 for Sanity save (serious horror: the thing in the well)"));
    assert!(failed
        .describe("the thing in the well")
        .ends_with("vs DC 13: failure; 7 sanity lost (2d6: 3, 4)"));
}

#[test]
fn at_zero_the_mind_breaks_and_a_gritty_story_ends() {
    for (stakes, ends) in [(Stakes::Heroic, false), (Stakes::Gritty, true)] {
        let mut sheet = haunted(5, stakes);
        let check = rolled(&sheet, Severity::Dire, 2, &[2, 2, 2]);
        let changes = StateDelta::apply_all(&check.deltas(&sheet), &mut sheet).unwrap();
        assert_eq!(sheet.sanity().map(Sanity::value), Some(0));
        let madness = ConditionName::new(MADNESS).unwrap();
        let broken = sheet.conditions().get(&madness).expect("madness");
        assert_eq!(broken.kind, Some(ConditionKind::Madness));
        assert_eq!(broken.ends_at, None, "it lasts");
        assert_eq!(
            sheet.conditions().roll_effects().checks,
            crate::game::dice::Edge::Disadvantage
        );
        assert_eq!(sheet.vitality().is_dead(), ends, "{stakes:?}: {changes:?}");
        // Already broken: another loss breaks nothing more.
        let again = rolled(&sheet, Severity::Minor, 1, &[3]);
        assert_eq!(
            again.deltas(&sheet),
            [StateDelta::ChangeSanity { amount: -3 }]
        );
    }
}

#[test]
fn a_forged_check_is_not_the_rules() {
    let sheet = haunted(50, Stakes::Heroic);
    let honest = rolled(&sheet, Severity::Serious, 4, &[3, 4]);
    assert!(honest.is_the_rules(&sheet));
    let mut easier = honest.clone();
    easier.severity = Severity::Minor;
    assert!(!easier.is_the_rules(&sheet));
    let mut lighter = honest.clone();
    lighter.loss = Some(Severity::Minor.loss_dice().roll_faces(None, |_| 1));
    assert!(!lighter.is_the_rules(&sheet));
    let mut spared = honest.clone();
    spared.loss = None;
    assert!(!spared.is_the_rules(&sheet));
}

#[test]
fn a_long_rest_gives_sanity_back_and_a_short_one_does_not() {
    let mut sheet = haunted(40, Stakes::Heroic);
    let rest = |kind| StateDelta::Rest { kind };
    rest(crate::game::RestKind::Short)
        .apply(&mut sheet)
        .unwrap();
    assert_eq!(sheet.sanity().map(Sanity::value), Some(40));
    rest(crate::game::RestKind::Long).apply(&mut sheet).unwrap();
    // 5 + WIS 10 (+0).
    assert_eq!(sheet.sanity().map(Sanity::value), Some(45));
}

proptest! {
    /// Whatever the dice, a rolled check is the rules', its loss within its dice, and sanity
    /// never leaves 0..=100.
    #[test]
    fn every_rolled_check_is_the_rules_and_bounded(seed in any::<u64>(), sanity in 0i64..=100, dire in any::<bool>()) {
        let sheet = haunted(sanity, Stakes::Heroic);
        let severity = if dire { Severity::Dire } else { Severity::Minor };
        let check = SanityCheck::roll(&sheet, severity, &mut StdRng::seed_from_u64(seed));
        prop_assert!(check.is_the_rules(&sheet));
        let mut after = sheet.clone();
        StateDelta::apply_all(&check.deltas(&sheet), &mut after).unwrap();
        let lost = i64::from(sheet.sanity().unwrap().value()) - i64::from(after.sanity().unwrap().value());
        prop_assert!((0..=18).contains(&lost));
    }
}
