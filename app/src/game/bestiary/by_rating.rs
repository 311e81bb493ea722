//! A foe the bestiary lacks, made from a name and a challenge rating alone: its figures come from
//! the guideline statistics for a monster of each rating (armour class, hit points, attack bonus,
//! damage per round), so the model never writes a number.
//!
//! The guideline gives ranges; a made foe takes the low end of the hit point range and the middle
//! of the damage range, in one generic attack (`strike`, bludgeoning). At low ratings the
//! guideline runs far above the SRD's own creatures (36 hit points at CR 1/4, where the
//! bestiary's have 4 to 22): there the figures follow the bestiary instead (see `TABLE`).
//!
//! A made foe's hit dice are d8s (d10s, d12s or d20s when more than 100 d8s would be needed) plus
//! a constant, averaging exactly its hit points; its damage dice are d6s (larger dice past 50)
//! plus a constant, averaging its damage.

use super::challenge::ChallengeRating;
use super::creature::{
    AbilityModifiers, ArmorClass, Attack, AttackName, Creature, CreatureError, CreatureFigures,
    CreatureName,
};
use super::damage::{Damage, DamageType, MAX_DAMAGE_DICE};
use crate::game::dice::{DiceExpr, MAX_DICE_PER_TERM};

/// The guideline figures for one rating: armour class, the lowest hit points, attack bonus, and
/// the damage per round's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingStatistics {
    /// Armour class.
    pub armor_class: u8,
    /// Hit points: the low end of the guideline's range, or at low ratings the bestiary's.
    pub hit_points: u16,
    /// Attack bonus.
    pub to_hit: i8,
    /// The low end of the damage per round.
    pub damage_low: u16,
    /// The high end of the damage per round.
    pub damage_high: u16,
}

/// `(AC, HP, attack bonus, damage low, damage high)` for CR 0, 1/8, 1/4, 1/2, 1..=30: the
/// guideline's, with its lowest hit points, except where it runs above the SRD creatures of
/// `creatures.json` (median HP 4, 8, 11, 19, 30 at CR 0 to 1; 58, 52 at CR 2, 3; 94.5 at CR 5):
/// - hit points: the bestiary's median up to CR 1, then 15 more a rating to 90 at CR 5 (the
///   medians of CR 2 and 3 cross: a made foe must grow with its rating), then 20 more a rating
///   until they meet the guideline's low end at CR 13 (the bestiary's one CR 8 creature has 136);
/// - armour class 12 at CR 0 (the bestiary's have 11 or 12; the guideline says 13 or lower);
/// - attack bonus the bestiary's median up to CR 3 (+2 at CR 0, +4 from CR 1/4, +5 from CR 2),
///   where the guideline's +3 falls outside the bestiary's range at CR 0 and CR 2.
const TABLE: [(u8, u16, i8, u16, u16); ChallengeRating::COUNT] = [
    (12, 4, 2, 0, 1),
    (13, 8, 3, 2, 3),
    (13, 11, 4, 4, 5),
    (13, 19, 4, 6, 8),
    (13, 30, 4, 9, 14),
    (13, 45, 5, 15, 20),
    (13, 60, 5, 21, 26),
    (14, 75, 5, 27, 32),
    (15, 90, 6, 33, 38),
    (15, 110, 6, 39, 44),
    (15, 130, 6, 45, 50),
    (16, 150, 7, 51, 56),
    (16, 170, 7, 57, 62),
    (17, 190, 7, 63, 68),
    (17, 210, 8, 69, 74),
    (17, 230, 8, 75, 80),
    (18, 251, 8, 81, 86),
    (18, 266, 8, 87, 92),
    (18, 281, 8, 93, 98),
    (18, 296, 9, 99, 104),
    (19, 311, 10, 105, 110),
    (19, 326, 10, 111, 116),
    (19, 341, 10, 117, 122),
    (19, 356, 10, 123, 140),
    (19, 401, 11, 141, 158),
    (19, 446, 11, 159, 176),
    (19, 491, 11, 177, 194),
    (19, 536, 12, 195, 212),
    (19, 581, 12, 213, 230),
    (19, 626, 12, 231, 248),
    (19, 671, 13, 249, 266),
    (19, 716, 13, 267, 284),
    (19, 761, 13, 285, 302),
    (19, 806, 14, 303, 320),
];

impl ChallengeRating {
    /// The guideline figures for a monster of this rating.
    pub fn statistics(self) -> RatingStatistics {
        let (armor_class, hit_points, to_hit, damage_low, damage_high) = TABLE[self.index()];
        RatingStatistics {
            armor_class,
            hit_points,
            to_hit,
            damage_low,
            damage_high,
        }
    }
}

impl RatingStatistics {
    /// The damage a made foe deals per round: the middle of the range, at least 1.
    pub fn damage_per_round(&self) -> u16 {
        ((self.damage_low + self.damage_high) / 2).max(1)
    }
}

/// `count` dice of `sides` plus `modifier`, as an expression (the inputs are kept in bounds).
fn dice(count: u32, sides: u32, modifier: u32) -> DiceExpr {
    let notation = if modifier > 0 {
        format!("{count}d{sides}+{modifier}")
    } else {
        format!("{count}d{sides}")
    };
    DiceExpr::parse(&notation).unwrap_or_else(|_| DiceExpr::d20())
}

/// Dice whose average (rounded down) is exactly `target` (≥ 1): the first of `sides` that needs
/// 1..=`max_dice` dice, plus a constant. A target below one die's average takes one smaller die
/// (1d2 averages 1, 1d4 averages 2); one past every size takes `max_dice` of the largest.
fn dice_averaging(target: u16, sides: &[u32], max_dice: u8) -> DiceExpr {
    let target = u32::from(target.max(1));
    let max_dice = u32::from(max_dice);
    let mut largest = 2;
    for &s in sides {
        // A die averages (s + 1) / 2: whole dice that do not overshoot, then a constant.
        let count = 2 * target / (s + 1);
        if count == 0 {
            return dice(1, 2 * target, 0);
        }
        if count <= max_dice {
            return dice(count, s, target - count * (s + 1) / 2);
        }
        largest = s;
    }
    dice(max_dice, largest, target - max_dice * (largest + 1) / 2)
}

impl Creature {
    /// A creature the bestiary lacks, its figures derived from `challenge` alone: the rating's
    /// armour class, attack bonus and hit points (`TABLE`), one attack dealing the rating's
    /// damage per round, speed 30 ft, ability modifiers of +0 except STR and DEX (the attack
    /// bonus less the proficiency bonus). Fails only on a bad name.
    pub fn from_rating(name: &str, challenge: ChallengeRating) -> Result<Creature, CreatureError> {
        let stats = challenge.statistics();
        let physical = stats.to_hit - challenge.proficiency_bonus();
        let damage = Damage::new(
            dice_averaging(stats.damage_per_round(), &[6, 8, 10, 12], MAX_DAMAGE_DICE),
            DamageType::Bludgeoning,
        )?;
        let attack = Attack::new(AttackName::new("strike")?, stats.to_hit, damage, None)?;
        Creature::new(CreatureFigures {
            name: CreatureName::new(name)?,
            armor_class: ArmorClass::new(stats.armor_class.into())?,
            hit_dice: dice_averaging(stats.hit_points, &[8, 10, 12, 20], MAX_DICE_PER_TERM),
            speed_ft: 30,
            abilities: AbilityModifiers::new([physical, physical, 0, 0, 0, 0])?,
            attacks: vec![attack],
            challenge,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bestiary::damage::average;
    use crate::game::bestiary::Bestiary;

    fn cr(text: &str) -> ChallengeRating {
        text.parse().unwrap()
    }

    #[test]
    fn a_made_foe_takes_the_guideline_figures() {
        let foe = Creature::from_rating("Cave Lurker", cr("1")).unwrap();
        assert_eq!(foe.name().as_str(), "Cave Lurker");
        assert_eq!(foe.armor_class().value(), 13);
        assert_eq!(foe.hit_points(), 30);
        assert_eq!(foe.xp(), 200);
        let [attack] = foe.attacks() else {
            panic!("one attack")
        };
        assert_eq!(attack.to_hit(), 4);
        assert_eq!(attack.damage().average(), 11);
        assert_eq!(foe.abilities().get(crate::game::Attribute::Dexterity), 2);
        let big = Creature::from_rating("Tarrasque-ish", ChallengeRating::MAX).unwrap();
        assert_eq!((big.armor_class().value(), big.hit_points()), (19, 806));
        assert_eq!(big.attacks()[0].to_hit(), 14);
        assert_eq!(big.attacks()[0].damage().average(), 311);
    }

    #[test]
    fn every_rating_makes_a_valid_foe_whose_dice_average_its_figures() {
        for challenge in ChallengeRating::all() {
            let foe = Creature::from_rating("Thing", challenge).unwrap();
            let stats = challenge.statistics();
            assert_eq!(foe.hit_points(), stats.hit_points.max(1), "CR {challenge}");
            assert_eq!(
                average(foe.hit_dice()),
                i32::from(foe.hit_points()),
                "CR {challenge}: {}",
                foe.hit_dice()
            );
            let damage = foe.attacks()[0].damage();
            assert_eq!(
                damage.average(),
                u32::from(stats.damage_per_round()),
                "CR {challenge}: {damage}"
            );
            // The made foe survives a round trip through the snapshot's checks.
            let json = serde_json::to_string(&foe).unwrap();
            assert_eq!(serde_json::from_str::<Creature>(&json).unwrap(), foe);
        }
    }

    /// The lowest and highest of `figure` over the bestiary's creatures of `challenge` that have
    /// it, if any.
    fn bestiary_range(
        challenge: ChallengeRating,
        figure: impl Fn(&Creature) -> Option<i32>,
    ) -> Option<(i32, i32)> {
        let figures: Vec<i32> = Bestiary::srd()
            .creatures()
            .iter()
            .filter(|creature| creature.challenge() == challenge)
            .filter_map(figure)
            .collect();
        Some((*figures.iter().min()?, *figures.iter().max()?))
    }

    #[test]
    fn a_made_low_rating_foe_lies_within_the_bestiary_of_its_rating() {
        let best_to_hit = |c: &Creature| c.attacks().iter().map(|a| i32::from(a.to_hit())).max();
        let mut compared = Vec::new();
        for challenge in ChallengeRating::all().filter(|c| c.value() <= 5.0) {
            // The bestiary has no creature of CR 4: nothing to compare that rating with (the
            // table climbs evenly from CR 3 to CR 5, both compared).
            let Some((low, high)) = bestiary_range(challenge, |c| Some(c.hit_points().into()))
            else {
                continue;
            };
            let foe = Creature::from_rating("Thing", challenge).unwrap();
            let hp = i32::from(foe.hit_points());
            assert!(
                (low..=high).contains(&hp),
                "CR {challenge}: {hp} HP, not {low}..={high}"
            );
            let (low, high) =
                bestiary_range(challenge, |c| Some(c.armor_class().value().into())).unwrap();
            let ac = i32::from(foe.armor_class().value());
            assert!(
                (low..=high).contains(&ac),
                "CR {challenge}: AC {ac}, not {low}..={high}"
            );
            let (low, high) = bestiary_range(challenge, best_to_hit).unwrap();
            let to_hit = i32::from(foe.attacks()[0].to_hit());
            assert!(
                (low..=high).contains(&to_hit),
                "CR {challenge}: +{to_hit}, not {low}..={high}"
            );
            compared.push(challenge.to_string());
        }
        assert_eq!(compared, ["0", "1/8", "1/4", "1/2", "1", "2", "3", "5"]);
    }

    #[test]
    fn a_bad_name_is_refused() {
        let err = Creature::from_rating("  ", cr("1")).unwrap_err();
        assert_eq!(err.to_string(), "creature name is empty");
        assert!(Creature::from_rating(&"x".repeat(49), cr("1")).is_err());
    }

    #[test]
    fn dice_averaging_hits_the_target() {
        for target in [1u16, 2, 3, 4, 7, 11, 36, 311, 806, 999] {
            let expr = dice_averaging(target, &[8, 10, 12, 20], MAX_DICE_PER_TERM);
            assert_eq!(average(&expr), i32::from(target), "{target}: {expr}");
            let expr = dice_averaging(target, &[6, 8, 10, 12], MAX_DAMAGE_DICE);
            assert_eq!(average(&expr), i32::from(target), "{target}: {expr}");
        }
        // Past 50 d12s, the largest dice and a constant.
        assert_eq!(dice_averaging(806, &[6, 12], 50).to_string(), "50d12+481");
        assert_eq!(dice_averaging(71, &[8], 100).to_string(), "15d8+4");
        assert_eq!(dice_averaging(1, &[6], 50).to_string(), "1d2");
    }
}
