//! The improvements as the sheet takes them: when they come, their bounds, and the hit points a
//! higher CON brings.

use super::*;
use crate::game::delta::Change;
use crate::game::sheet::tests::mira;
use crate::game::{Attributes, StateDelta};
use proptest::prelude::*;

fn at_level(level: u8) -> CharacterSheet {
    mira().with_level(Level::new(i64::from(level)).unwrap())
}

fn improve_by(sheet: &mut CharacterSheet, improvement: AbilityImprovement) -> Vec<Change> {
    let delta = StateDelta::ImproveAbilities { improvement };
    delta.apply(sheet).unwrap().changes().to_vec()
}

#[test]
fn improvements_come_at_the_srd_levels() {
    let earned_at: Vec<u8> = (1..=20).map(|l| earned(Level::new(l).unwrap())).collect();
    assert_eq!(
        earned_at,
        [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5]
    );
}

#[test]
fn plus_two_and_plus_one_each_raise_the_scores_once_per_level() {
    let mut sheet = at_level(8);
    assert_eq!(sheet.improvements_due(), 2);
    let dex = AbilityImprovement::PlusTwo {
        attribute: Attribute::Dexterity,
    };
    let changes = improve_by(&mut sheet, dex);
    assert_eq!(changes[0].label(), "DEX 12");
    let split = AbilityImprovement::PlusOneEach {
        first: Attribute::Wisdom,
        second: Attribute::Charisma,
    };
    improve_by(&mut sheet, split);
    assert_eq!(sheet.attributes().wisdom.value(), 11);
    assert_eq!(sheet.attributes().charisma.value(), 11);
    assert_eq!(sheet.improvements_due(), 0);
    let refused = StateDelta::ImproveAbilities { improvement: dex }.apply(&mut sheet);
    assert_eq!(
        refused.unwrap_err().to_string(),
        "No ability score improvement is due at level 8; they come at levels 4, 8, 12, 16 \
         and 19"
    );
}

#[test]
fn no_improvement_below_level_four_past_twenty_or_twice_on_one_score() {
    let dex = AbilityImprovement::PlusTwo {
        attribute: Attribute::Dexterity,
    };
    let mut low = at_level(3);
    let before = low.clone();
    assert!(StateDelta::ImproveAbilities { improvement: dex }
        .apply(&mut low)
        .is_err());
    assert_eq!(low, before);
    let scores = Attributes {
        dexterity: AttributeScore::clamped(19),
        ..Attributes::default()
    };
    let mut high = at_level(4).with_attributes(scores);
    let refused = StateDelta::ImproveAbilities { improvement: dex }.apply(&mut high);
    assert_eq!(
        refused.unwrap_err().to_string(),
        "DEX is 19: an improvement cannot raise a score past 20"
    );
    let same = AbilityImprovement::PlusOneEach {
        first: Attribute::Strength,
        second: Attribute::Strength,
    };
    assert!(StateDelta::ImproveAbilities { improvement: same }
        .apply(&mut high)
        .is_err());
    let to_twenty = AbilityImprovement::PlusOneEach {
        first: Attribute::Dexterity,
        second: Attribute::Strength,
    };
    improve_by(&mut high, to_twenty);
    assert_eq!(high.attributes().dexterity.value(), 20);
}

#[test]
fn a_higher_con_modifier_adds_hit_points_for_every_level() {
    // Level 4, d8, CON 10: 8 + 3 × 5 = 23 HP; CON 12 gives +1 a level.
    let mut sheet = at_level(4).with_hit_points(HitPoints::new(20, 23).unwrap());
    let con = AbilityImprovement::PlusTwo {
        attribute: Attribute::Constitution,
    };
    let labels: Vec<String> = improve_by(&mut sheet, con)
        .iter()
        .map(Change::label)
        .collect();
    assert_eq!(labels, ["CON 12", "Max HP 27", "+4 HP"]);
    // CON 12 → 13 changes no modifier: no hit points.
    let mut later = at_level(8).with_hit_points(HitPoints::new(20, 23).unwrap());
    improve_by(&mut later, con);
    let odd = AbilityImprovement::PlusOneEach {
        first: Attribute::Constitution,
        second: Attribute::Wisdom,
    };
    let labels: Vec<String> = improve_by(&mut later, odd)
        .iter()
        .map(Change::label)
        .collect();
    assert_eq!(labels, ["CON 13", "WIS 11"]);
    // Down at 0 HP: the maximum rises, the character stays down.
    let mut down = at_level(4).with_hit_points(HitPoints::new(5, 23).unwrap());
    StateDelta::ChangeHp { amount: -5 }
        .apply(&mut down)
        .unwrap();
    assert_ne!(down.vitality(), Vitality::Up);
    let labels: Vec<String> = improve_by(&mut down, con)
        .iter()
        .map(Change::label)
        .collect();
    assert_eq!(labels, ["CON 12", "Max HP 27"]);
    assert_eq!(down.hit_points().current(), 0);
}

proptest! {
    /// Whatever is chosen at whatever level, no score passes 20, no more improvements are
    /// spent than earned, and a refusal changes nothing.
    #[test]
    fn improvements_stay_within_their_bounds(
        level in 1u8..=20,
        picks in proptest::collection::vec((0usize..6, 0usize..6, any::<bool>()), 0..8),
    ) {
        let mut sheet = at_level(level);
        for (a, b, two) in picks {
            let improvement = if two {
                AbilityImprovement::PlusTwo { attribute: Attribute::ALL[a] }
            } else {
                AbilityImprovement::PlusOneEach {
                    first: Attribute::ALL[a],
                    second: Attribute::ALL[b],
                }
            };
            let before = sheet.clone();
            let delta = StateDelta::ImproveAbilities { improvement };
            if delta.apply(&mut sheet).is_err() {
                prop_assert_eq!(&sheet, &before);
            }
            prop_assert!(sheet.improvements <= earned(sheet.level()));
            for attribute in Attribute::ALL {
                prop_assert!(sheet.attributes().get(attribute).value() <= IMPROVEMENT_CAP);
            }
        }
    }
}
