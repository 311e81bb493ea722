//! Class features that change play (SRD 5.1, CC-BY-4.0): what each class gains besides its spells
//! at levels 1 and 2, how many times a feature may be used between rests, and the dice it rolls.
//!
//! A feature with uses ([`Feature::uses`]) regains them when its [`Recharge`] rest ends; Sneak
//! Attack (once a turn) and Cunning Action (every turn) are not counted. The Ranger's only
//! addition is its spells (Hunter's Mark among them), so it has no feature here.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, Attributes};
use super::dice::DiceExpr;
use super::progression::Level;

/// The rest that gives a feature's uses back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Recharge {
    /// A short rest (or a long one).
    ShortRest,
    /// Only a long rest.
    LongRest,
}

/// A class feature that changes play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Feature {
    /// Fighter 1: a bonus action to regain 1d10 + level hit points.
    SecondWind,
    /// Fighter 2: one more action on the fighter's turn.
    ActionSurge,
    /// Rogue 1: extra d6s on one hit a turn with advantage or an ally beside the target.
    SneakAttack,
    /// Rogue 2: Dash, Disengage or Hide as a bonus action.
    CunningAction,
    /// Cleric 2: Channel Divinity, Turn Undead: the undead nearby flee on a failed Wisdom save.
    ChannelDivinity,
    /// Bard 1: a die an ally adds to one roll.
    BardicInspiration,
    /// Wizard 1: spell slots back on a short rest, once a day.
    ArcaneRecovery,
}

impl Feature {
    /// Its name as the SRD gives it (`Second Wind`, `Channel Divinity: Turn Undead`).
    pub fn name(self) -> &'static str {
        match self {
            Feature::SecondWind => "Second Wind",
            Feature::ActionSurge => "Action Surge",
            Feature::SneakAttack => "Sneak Attack",
            Feature::CunningAction => "Cunning Action",
            Feature::ChannelDivinity => "Channel Divinity: Turn Undead",
            Feature::BardicInspiration => "Bardic Inspiration",
            Feature::ArcaneRecovery => "Arcane Recovery",
        }
    }

    /// What it does, in one line of our own words.
    pub fn summary(self) -> &'static str {
        match self {
            Feature::SecondWind => {
                "As a bonus action, catch your breath and regain 1d10 + your level in hit points."
            }
            Feature::ActionSurge => "Push past your limits and take one more action this turn.",
            Feature::SneakAttack => {
                "Once a turn, a finesse or ranged hit deals extra d6s when you have advantage or \
                 an ally stands beside the target."
            }
            Feature::CunningAction => "Dash, Disengage or Hide as a bonus action, every turn.",
            Feature::ChannelDivinity => {
                "Present your holy symbol: undead nearby that fail a Wisdom save against your \
                 spell save DC flee from you."
            }
            Feature::BardicInspiration => {
                "As a bonus action, give an ally a die to add to one check, attack or save."
            }
            Feature::ArcaneRecovery => {
                "Once a day, after a short rest, regain spent slots worth up to half your level."
            }
        }
    }

    /// The rest that gives its uses back, or `None` when it is not counted (Sneak Attack, once a
    /// turn; Cunning Action, every turn). Bardic Inspiration comes back on a long rest; from level
    /// 5 also on a short one ([`Feature::recharge_at`]). Arcane Recovery is used after a short
    /// rest but comes back only on a long one.
    pub fn recharge(self) -> Option<Recharge> {
        match self {
            Feature::SecondWind | Feature::ActionSurge | Feature::ChannelDivinity => {
                Some(Recharge::ShortRest)
            }
            Feature::BardicInspiration | Feature::ArcaneRecovery => Some(Recharge::LongRest),
            Feature::SneakAttack | Feature::CunningAction => None,
        }
    }

    /// The rest that gives its uses back at class `level`: as [`Feature::recharge`], but Bardic
    /// Inspiration comes back on a short rest from level 5 (Font of Inspiration).
    pub fn recharge_at(self, level: Level) -> Option<Recharge> {
        match self {
            Feature::BardicInspiration if level.value() >= 5 => Some(Recharge::ShortRest),
            _ => self.recharge(),
        }
    }

    /// How many times it may be used between its rests at class `level`, or `None` when it is not
    /// counted: Second Wind and Arcane Recovery once; Action Surge once, twice from 17; Channel
    /// Divinity once, twice from 6, three times from 18; Bardic Inspiration the Charisma modifier
    /// times, at least once.
    pub fn uses(self, level: Level, attributes: &Attributes) -> Option<u8> {
        let level = level.value();
        match self {
            Feature::SecondWind | Feature::ArcaneRecovery => Some(1),
            Feature::ActionSurge => Some(if level >= 17 { 2 } else { 1 }),
            Feature::ChannelDivinity => Some(match level {
                ..=5 => 1,
                6..=17 => 2,
                _ => 3,
            }),
            Feature::BardicInspiration => {
                let modifier = attributes.get(Attribute::Charisma).modifier();
                // At least 1: the cast is lossless.
                Some(modifier.max(1) as u8)
            }
            Feature::SneakAttack | Feature::CunningAction => None,
        }
    }
}

/// The features a character of the class named `class` (a creation preset, matched without regard
/// to case or surrounding spaces) has at class `level`: Fighter Second Wind (1) and Action Surge
/// (2); Rogue Sneak Attack (1) and Cunning Action (2); Cleric Channel Divinity (2); Bard Bardic
/// Inspiration (1); Wizard Arcane Recovery (1); any other class none.
pub fn of_class(class: &str, level: Level) -> Vec<Feature> {
    let class = class.trim();
    let by_level: &[(u8, Feature)] = if class.eq_ignore_ascii_case("Fighter") {
        &[(1, Feature::SecondWind), (2, Feature::ActionSurge)]
    } else if class.eq_ignore_ascii_case("Rogue") {
        &[(1, Feature::SneakAttack), (2, Feature::CunningAction)]
    } else if class.eq_ignore_ascii_case("Cleric") {
        &[(2, Feature::ChannelDivinity)]
    } else if class.eq_ignore_ascii_case("Bard") {
        &[(1, Feature::BardicInspiration)]
    } else if class.eq_ignore_ascii_case("Wizard") {
        &[(1, Feature::ArcaneRecovery)]
    } else {
        &[]
    };
    by_level
        .iter()
        .filter(|(from, _)| *from <= level.value())
        .map(|&(_, feature)| feature)
        .collect()
}

/// Dice notation built from numbers that are always valid.
fn dice(notation: String) -> DiceExpr {
    DiceExpr::parse(&notation).expect("feature dice are small and well-formed")
}

/// The hit points Second Wind restores at fighter `level`: 1d10 + the level.
pub fn second_wind_dice(level: Level) -> DiceExpr {
    dice(format!("1d10+{}", level.value()))
}

/// Sneak Attack's extra damage at rogue `level`: a d6 for every two levels, rounded up (1d6 at 1,
/// 10d6 at 19 and 20).
pub fn sneak_attack_dice(level: Level) -> DiceExpr {
    dice(format!("{}d6", level.value().div_ceil(2)))
}

/// The Bardic Inspiration die at bard `level`: d6, d8 from 5, d10 from 10, d12 from 15.
pub fn bardic_inspiration_die(level: Level) -> DiceExpr {
    let sides = match level.value() {
        ..=4 => 6,
        5..=9 => 8,
        10..=14 => 10,
        _ => 12,
    };
    dice(format!("1d{sides}"))
}

/// The slot levels Arcane Recovery gives back at wizard `level`: half the level, rounded up (the
/// slots' levels summed; none of 6th level or higher).
pub fn arcane_recovery_budget(level: Level) -> u8 {
    level.value().div_ceil(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::attributes::AttributeScore;

    const ALL: [Feature; 7] = [
        Feature::SecondWind,
        Feature::ActionSurge,
        Feature::SneakAttack,
        Feature::CunningAction,
        Feature::ChannelDivinity,
        Feature::BardicInspiration,
        Feature::ArcaneRecovery,
    ];

    fn level(value: i64) -> Level {
        Level::new(value).unwrap()
    }

    fn with_charisma(score: i64) -> Attributes {
        let mut attributes = Attributes::default();
        attributes.set(Attribute::Charisma, AttributeScore::new(score).unwrap());
        attributes
    }

    fn notation(expr: DiceExpr) -> String {
        expr.to_string()
    }

    #[test]
    fn features_by_class_at_levels_one_and_two() {
        let at = |class, l| of_class(class, level(l));
        assert_eq!(at("Fighter", 1), [Feature::SecondWind]);
        assert_eq!(
            at("fighter", 2),
            [Feature::SecondWind, Feature::ActionSurge]
        );
        assert_eq!(at("Rogue", 1), [Feature::SneakAttack]);
        assert_eq!(
            at(" ROGUE ", 2),
            [Feature::SneakAttack, Feature::CunningAction]
        );
        assert_eq!(at("Cleric", 1), []);
        assert_eq!(at("Cleric", 2), [Feature::ChannelDivinity]);
        assert_eq!(at("Bard", 1), [Feature::BardicInspiration]);
        assert_eq!(at("Bard", 2), [Feature::BardicInspiration]);
        assert_eq!(at("Wizard", 1), [Feature::ArcaneRecovery]);
        assert_eq!(at("Wizard", 2), [Feature::ArcaneRecovery]);
        for class in ["Ranger", "Paladin", ""] {
            assert_eq!(at(class, 1), [], "{class}");
            assert_eq!(at(class, 2), [], "{class}");
        }
        assert_eq!(at("Fighter", 20).len(), 2);
    }

    #[test]
    fn uses_follow_the_srd() {
        let plain = Attributes::default();
        let uses = |feature: Feature, l| feature.uses(level(l), &plain);
        assert_eq!(uses(Feature::SecondWind, 1), Some(1));
        assert_eq!(uses(Feature::SecondWind, 20), Some(1));
        let surge: Vec<_> = [2, 16, 17, 20]
            .map(|l| uses(Feature::ActionSurge, l))
            .to_vec();
        assert_eq!(surge, [Some(1), Some(1), Some(2), Some(2)]);
        let channel: Vec<_> = [2, 5, 6, 17, 18, 20]
            .map(|l| uses(Feature::ChannelDivinity, l))
            .to_vec();
        assert_eq!(channel, [1, 1, 2, 2, 3, 3].map(Some));
        assert_eq!(uses(Feature::ArcaneRecovery, 1), Some(1));
        assert_eq!(uses(Feature::SneakAttack, 5), None);
        assert_eq!(uses(Feature::CunningAction, 5), None);
    }

    #[test]
    fn bardic_inspiration_is_the_charisma_modifier_at_least_once() {
        let uses = |score| Feature::BardicInspiration.uses(level(1), &with_charisma(score));
        assert_eq!(uses(16), Some(3));
        assert_eq!(uses(20), Some(5));
        assert_eq!(uses(12), Some(1));
        assert_eq!(uses(10), Some(1));
        assert_eq!(uses(3), Some(1));
    }

    #[test]
    fn recharges_follow_the_srd() {
        let short = [
            Feature::SecondWind,
            Feature::ActionSurge,
            Feature::ChannelDivinity,
        ];
        for feature in short {
            assert_eq!(feature.recharge(), Some(Recharge::ShortRest), "{feature:?}");
        }
        assert_eq!(
            Feature::BardicInspiration.recharge(),
            Some(Recharge::LongRest)
        );
        assert_eq!(Feature::ArcaneRecovery.recharge(), Some(Recharge::LongRest));
        assert_eq!(Feature::SneakAttack.recharge(), None);
        assert_eq!(Feature::CunningAction.recharge(), None);
        let bard = |l| Feature::BardicInspiration.recharge_at(level(l));
        assert_eq!(bard(4), Some(Recharge::LongRest));
        assert_eq!(bard(5), Some(Recharge::ShortRest));
        for feature in ALL {
            if feature != Feature::BardicInspiration {
                assert_eq!(feature.recharge_at(level(20)), feature.recharge());
            }
        }
    }

    #[test]
    fn counted_features_are_exactly_those_that_recharge() {
        let plain = Attributes::default();
        for feature in ALL {
            assert_eq!(
                feature.uses(level(1), &plain).is_some(),
                feature.recharge().is_some(),
                "{feature:?}"
            );
            assert!(!feature.summary().is_empty());
        }
    }

    #[test]
    fn names_follow_the_srd() {
        let names = ALL.map(Feature::name);
        assert_eq!(
            names,
            [
                "Second Wind",
                "Action Surge",
                "Sneak Attack",
                "Cunning Action",
                "Channel Divinity: Turn Undead",
                "Bardic Inspiration",
                "Arcane Recovery",
            ]
        );
    }

    #[test]
    fn features_serialise_in_camel_case() {
        assert_eq!(
            serde_json::to_string(&Feature::ChannelDivinity).unwrap(),
            "\"channelDivinity\""
        );
        assert_eq!(
            serde_json::from_str::<Recharge>("\"shortRest\"").unwrap(),
            Recharge::ShortRest
        );
        for feature in ALL {
            let json = serde_json::to_string(&feature).unwrap();
            assert_eq!(serde_json::from_str::<Feature>(&json).unwrap(), feature);
        }
    }

    #[test]
    fn second_wind_heals_1d10_plus_level() {
        assert_eq!(notation(second_wind_dice(level(1))), "1d10+1");
        assert_eq!(notation(second_wind_dice(level(7))), "1d10+7");
        assert_eq!(notation(second_wind_dice(level(20))), "1d10+20");
    }

    #[test]
    fn sneak_attack_grows_every_odd_level() {
        let dice: Vec<String> = [1, 2, 3, 4, 5, 10, 11, 19, 20]
            .map(|l| notation(sneak_attack_dice(level(l))))
            .to_vec();
        assert_eq!(
            dice,
            ["1d6", "1d6", "2d6", "2d6", "3d6", "5d6", "6d6", "10d6", "10d6"]
        );
    }

    #[test]
    fn the_inspiration_die_grows_at_5_10_and_15() {
        let dice: Vec<String> = [1, 4, 5, 9, 10, 14, 15, 20]
            .map(|l| notation(bardic_inspiration_die(level(l))))
            .to_vec();
        assert_eq!(
            dice,
            ["1d6", "1d6", "1d8", "1d8", "1d10", "1d10", "1d12", "1d12"]
        );
    }

    #[test]
    fn arcane_recovery_gives_back_half_the_level_rounded_up() {
        let budgets = [1, 2, 3, 4, 5, 19, 20].map(|l| arcane_recovery_budget(level(l)));
        assert_eq!(budgets, [1, 1, 2, 2, 3, 10, 10]);
    }
}
