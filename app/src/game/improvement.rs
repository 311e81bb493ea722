//! Ability score improvements: at levels 4, 8, 12, 16 and 19 a character earns one, which the
//! player spends from the character panel as +2 to one score or +1 to two, no score past 20.
//! A higher CON raises the maximum hit points as if it had always been that high (every level's
//! hit points follow from it, see [`max_hp`](super::progression::max_hp)), and the current hit
//! points by as much, unless the character is down.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeScore};
use super::delta::Change;
use super::progression::{max_hp, Level};
use super::sheet::CharacterSheet;
use super::stakes::Vitality;

/// The levels that bring an ability score improvement.
pub const IMPROVEMENT_LEVELS: [u8; 5] = [4, 8, 12, 16, 19];

/// The highest score an improvement can reach.
pub const IMPROVEMENT_CAP: u8 = 20;

/// An improvement as the player chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AbilityImprovement {
    /// +2 to one score.
    PlusTwo {
        /// The score raised.
        attribute: Attribute,
    },
    /// +1 to each of two different scores.
    PlusOneEach {
        /// One score raised.
        first: Attribute,
        /// The other.
        second: Attribute,
    },
}

impl AbilityImprovement {
    /// Each score it raises and by how much.
    pub fn increases(self) -> Vec<(Attribute, u8)> {
        match self {
            AbilityImprovement::PlusTwo { attribute } => vec![(attribute, 2)],
            AbilityImprovement::PlusOneEach { first, second } => vec![(first, 1), (second, 1)],
        }
    }
}

/// Why an improvement is refused; the sheet is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImprovementError {
    /// No improvement is waiting at this level.
    #[error(
        "No ability score improvement is due at level {level}; they come at levels 4, 8, 12, 16 \
         and 19"
    )]
    NoneDue {
        /// The character's level.
        level: u8,
    },
    /// A score would pass 20.
    #[error("{attribute} is {score}: an improvement cannot raise a score past {IMPROVEMENT_CAP}")]
    PastCap {
        /// The score.
        attribute: Attribute,
        /// Its value now.
        score: u8,
    },
    /// +1 and +1 to the same score.
    #[error("+1 to two scores means two different scores; choose +2 to raise one")]
    SameTwice,
}

/// How many improvements a character of `level` has earned.
pub fn earned(level: Level) -> u8 {
    // At most five: the cast is lossless.
    IMPROVEMENT_LEVELS
        .iter()
        .filter(|at| **at <= level.value())
        .count() as u8
}

impl CharacterSheet {
    /// The improvements earned and not yet spent.
    pub fn improvements_due(&self) -> u8 {
        earned(self.level).saturating_sub(self.improvements)
    }
}

/// Spends one due improvement on `sheet`, pushing what changed; checks everything first.
pub(in crate::game) fn improve(
    sheet: &mut CharacterSheet,
    improvement: AbilityImprovement,
    out: &mut Vec<Change>,
) -> Result<(), ImprovementError> {
    if sheet.improvements_due() == 0 {
        return Err(ImprovementError::NoneDue {
            level: sheet.level.value(),
        });
    }
    if let AbilityImprovement::PlusOneEach { first, second } = improvement {
        if first == second {
            return Err(ImprovementError::SameTwice);
        }
    }
    let increases = improvement.increases();
    for (attribute, by) in &increases {
        let score = sheet.attributes.get(*attribute).value();
        if score + by > IMPROVEMENT_CAP {
            return Err(ImprovementError::PastCap {
                attribute: *attribute,
                score,
            });
        }
    }
    let constitution = sheet.attributes.constitution;
    for (attribute, by) in increases {
        let from = sheet.attributes.get(attribute).value();
        let to = from + by;
        sheet
            .attributes
            .set(attribute, AttributeScore::clamped(i64::from(to)));
        out.push(Change::Attribute {
            attribute,
            from,
            to,
        });
    }
    sheet.improvements += 1;
    hardier(sheet, constitution, out);
    Ok(())
}

/// Raises the maximum hit points, and the current ones of a character on their feet, by what a
/// higher CON (than `before`) adds over every level.
fn hardier(sheet: &mut CharacterSheet, before: AttributeScore, out: &mut Vec<Change>) {
    let (die, level) = (sheet.hit_die, sheet.level);
    let gained = i64::from(max_hp(die, level, sheet.attributes.constitution))
        - i64::from(max_hp(die, level, before));
    if gained <= 0 {
        return;
    }
    let hp = sheet.hit_points;
    sheet
        .hit_points
        .set_max_clamped(i64::from(hp.max()) + gained);
    // A character who is down stays at 0: hardier is not healed.
    if sheet.vitality == Vitality::Up {
        sheet
            .hit_points
            .set_current_clamped(i64::from(hp.current()) + gained);
    }
    out.push(Change::MaxHp {
        from: hp.max(),
        to: sheet.hit_points.max(),
    });
    if sheet.hit_points.current() != hp.current() {
        out.push(Change::Hp {
            from: hp.current(),
            to: sheet.hit_points.current(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sheet::tests::mira;
    use crate::game::sheet::HitPoints;
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
}
