//! What one casting rolls: a spell's dice, strikes and targets for the slot spent or, for a
//! cantrip, the caster's level.
//!
//! A cantrip's dice count once more at caster levels 5, 11 and 17 (`1d10` → `2d10` → `3d10` →
//! `4d10`, a modifier kept as it is). A levelled spell cast with a higher slot adds its slot
//! dice, strikes or targets once for each level above its own (Fireball's `8d6` with a 4th-level
//! slot: `9d6`). A slot below the spell's level cannot cast it.

use crate::game::dice::{DiceExpr, Keep, MAX_DICE_PER_TERM};

use super::spell::{Scaling, Spell, SpellEffect, SpellLevel};

/// The caster levels at which a cantrip's dice count once more.
const CANTRIP_STEPS: [u8; 3] = [5, 11, 17];

/// What one casting rolls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastFigures {
    /// The damage of each strike, the healing, the pool's dice or a rider's dice; none for a
    /// condition, an armour bonus or a utility.
    pub dice: Option<DiceExpr>,
    /// Separate strikes (1 but for Magic Missile, Scorching Ray and the like).
    pub beams: u8,
    /// How many foes (or friends) it reaches at once.
    pub targets: u8,
}

/// A slot below the spell's level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{spell} needs a {} slot or higher", .level.ordinal())]
pub struct SlotTooLow {
    /// The spell's name.
    pub spell: String,
    /// The spell's level: the lowest slot that casts it.
    pub level: SpellLevel,
    /// The slot offered.
    pub slot: SpellLevel,
}

impl Spell {
    /// The figures of this spell cast with a `slot` (ignored for a cantrip) by a caster of
    /// `caster_level` (read only for a cantrip). A slot below the spell's level is refused.
    pub fn figures(&self, slot: SpellLevel, caster_level: u8) -> Result<CastFigures, SlotTooLow> {
        let dice = self.base_dice().cloned();
        let beams = match self.effect {
            SpellEffect::Damage { beams, .. } => beams,
            _ => 1,
        };
        let base = CastFigures {
            dice,
            beams,
            targets: self.targets,
        };
        if self.level.is_cantrip() {
            return Ok(self.cantrip_figures(base, caster_level));
        }
        if slot < self.level {
            return Err(SlotTooLow {
                spell: self.name.clone(),
                level: self.level,
                slot,
            });
        }
        Ok(self.slot_figures(base, slot.value() - self.level.value()))
    }

    /// The dice the effect rolls, if any.
    fn base_dice(&self) -> Option<&DiceExpr> {
        match &self.effect {
            SpellEffect::Damage { dice, .. }
            | SpellEffect::Healing { dice, .. }
            | SpellEffect::HitPointPool { dice }
            | SpellEffect::Rider { dice, .. } => Some(dice),
            SpellEffect::Condition | SpellEffect::ArmorBonus { .. } | SpellEffect::Utility => None,
        }
    }

    /// A cantrip's figures at `caster_level`: its dice count once more at each step reached
    /// (its strikes instead, when it makes more than one).
    fn cantrip_figures(&self, mut figures: CastFigures, caster_level: u8) -> CastFigures {
        if self.scaling != Scaling::CasterLevel {
            return figures;
        }
        let steps = CANTRIP_STEPS
            .iter()
            .fold(0u8, |n, &step| n + u8::from(caster_level >= step));
        if figures.beams > 1 {
            figures.beams = figures.beams.saturating_add(steps);
        } else if let Some(dice) = &figures.dice {
            figures.dice = Some(multiply(dice, 1 + steps));
        }
        figures
    }

    /// A levelled spell's figures with a slot `above` levels over its own.
    fn slot_figures(&self, mut figures: CastFigures, above: u8) -> CastFigures {
        match &self.scaling {
            Scaling::SlotDice { dice: extra } => {
                if let Some(dice) = &figures.dice {
                    figures.dice = Some(add_dice(dice, extra, above));
                }
            }
            Scaling::SlotBeams { beams } => {
                figures.beams = figures.beams.saturating_add(beams.saturating_mul(above));
            }
            Scaling::SlotTargets { targets } => {
                figures.targets = figures
                    .targets
                    .saturating_add(targets.saturating_mul(above));
            }
            Scaling::None | Scaling::CasterLevel => {}
        }
        figures
    }
}

/// `dice` with every term's count multiplied by `factor`, the modifier kept: `1d4+1` × 2 →
/// `2d4+1`.
fn multiply(dice: &DiceExpr, factor: u8) -> DiceExpr {
    rebuild(dice, |count, _| u16::from(count) * u16::from(factor))
}

/// `dice` with `times` × `extra`'s dice added to the terms of the same sides, the modifier kept:
/// `8d6` + 1 × `1d6` → `9d6`. Extra dice of sides `dice` lacks are left out (the book's data
/// never has them).
fn add_dice(dice: &DiceExpr, extra: &DiceExpr, times: u8) -> DiceExpr {
    rebuild(dice, |count, sides| {
        let more: u16 = extra
            .terms()
            .iter()
            .filter(|t| t.sides() == sides && !t.is_negative())
            .map(|t| u16::from(t.count()))
            .sum();
        u16::from(count) + more * u16::from(times)
    })
}

/// `dice` with each term's count replaced by `count(count, sides)` (at most
/// [`MAX_DICE_PER_TERM`]), the signs, kept dice and modifier as they were.
fn rebuild(dice: &DiceExpr, count: impl Fn(u8, u16) -> u16) -> DiceExpr {
    let mut notation = String::new();
    for term in dice.terms() {
        if term.is_negative() {
            notation.push('-');
        } else if !notation.is_empty() {
            notation.push('+');
        }
        let n = count(term.count(), term.sides()).min(u16::from(MAX_DICE_PER_TERM));
        notation.push_str(&format!("{n}d{}", term.sides()));
        match term.keep() {
            Some(Keep::Highest(k)) => notation.push_str(&format!("kh{k}")),
            Some(Keep::Lowest(k)) => notation.push_str(&format!("kl{k}")),
            None => {}
        }
    }
    let rebuilt = DiceExpr::parse(&notation)
        .ok()
        .and_then(|d| DiceExpr::parse(&d.notation_with_bonus(dice.modifier())).ok());
    // Counts are capped within the notation's bounds; should a rebuild fail all the same, the
    // dice stay as they were rather than fail a cast.
    rebuilt.unwrap_or_else(|| dice.clone())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::spells::SpellBook;

    fn level(n: u8) -> SpellLevel {
        SpellLevel::new(n).unwrap()
    }

    fn figures(name: &str, slot: u8, caster_level: u8) -> CastFigures {
        SpellBook::srd()
            .get(name)
            .unwrap()
            .figures(level(slot), caster_level)
            .unwrap()
    }

    fn dice(name: &str, slot: u8, caster_level: u8) -> String {
        figures(name, slot, caster_level).dice.unwrap().to_string()
    }

    #[test]
    fn cantrips_grow_at_caster_levels_5_11_and_17() {
        let bolt: Vec<String> = [1, 4, 5, 10, 11, 16, 17, 20]
            .map(|l| dice("Fire Bolt", 0, l))
            .to_vec();
        assert_eq!(
            bolt,
            ["1d10", "1d10", "2d10", "2d10", "3d10", "3d10", "4d10", "4d10"]
        );
        // The slot means nothing to a cantrip.
        assert_eq!(dice("Fire Bolt", 9, 1), "1d10");
        assert_eq!(dice("Vicious Mockery", 0, 11), "3d4");
        let light = figures("Light", 0, 20);
        assert_eq!((light.dice, light.beams, light.targets), (None, 1, 1));
        assert_eq!(figures("Acid Splash", 0, 17).targets, 2);
    }

    #[test]
    fn magic_missile_adds_a_dart_a_slot_level() {
        let one = figures("Magic Missile", 1, 1);
        assert_eq!(
            (one.dice.unwrap().to_string(), one.beams),
            ("1d4+1".into(), 3)
        );
        assert_eq!(figures("Magic Missile", 2, 3).beams, 4);
        assert_eq!(figures("Magic Missile", 9, 17).beams, 11);
        assert_eq!(dice("Magic Missile", 5, 9), "1d4+1");
        assert_eq!(figures("Scorching Ray", 3, 5).beams, 4);
    }

    #[test]
    fn slot_dice_add_dice_of_the_same_sides() {
        assert_eq!(dice("Fireball", 3, 5), "8d6");
        assert_eq!(dice("Fireball", 4, 7), "9d6");
        assert_eq!(dice("Fireball", 9, 17), "14d6");
        assert_eq!(dice("Cure Wounds", 1, 1), "1d8");
        assert_eq!(dice("Cure Wounds", 2, 3), "2d8");
        assert_eq!(dice("Sleep", 1, 1), "5d8");
        assert_eq!(dice("Sleep", 2, 3), "7d8");
        assert_eq!(dice("Color Spray", 3, 5), "10d10");
        assert_eq!(dice("Mass Healing Word", 4, 7), "2d4");
        // A rider's dice do not grow; Bless reaches one more friend a level instead.
        let bless = figures("Bless", 2, 3);
        assert_eq!(
            (bless.dice.unwrap().to_string(), bless.targets),
            ("1d4".into(), 4)
        );
    }

    #[test]
    fn slot_targets_add_targets() {
        assert_eq!(figures("Hold Person", 2, 3).targets, 1);
        assert_eq!(figures("Hold Person", 3, 5).targets, 2);
        let hold = figures("Hold Person", 2, 3);
        assert_eq!(hold.dice, None);
    }

    #[test]
    fn a_slot_below_the_level_is_refused() {
        let fireball = SpellBook::srd().get("Fireball").unwrap();
        let err = fireball.figures(level(2), 20).unwrap_err();
        assert_eq!(err.to_string(), "Fireball needs a 3rd-level slot or higher");
        assert_eq!((err.level, err.slot), (level(3), level(2)));
        let sleep = SpellBook::srd().get("Sleep").unwrap();
        assert_eq!(
            sleep
                .figures(SpellLevel::CANTRIP, 5)
                .unwrap_err()
                .to_string(),
            "Sleep needs a 1st-level slot or higher"
        );
    }

    #[test]
    fn rebuilding_keeps_modifiers_signs_and_bounds() {
        let parse = |s: &str| DiceExpr::parse(s).unwrap();
        assert_eq!(multiply(&parse("1d4+1"), 3).to_string(), "3d4+1");
        assert_eq!(multiply(&parse("2d6+1d4-2"), 2).to_string(), "4d6+2d4-2");
        assert_eq!(
            add_dice(&parse("2d8+1d6"), &parse("1d6"), 2).to_string(),
            "2d8+3d6"
        );
        assert_eq!(add_dice(&parse("1d8"), &parse("1d6"), 2).to_string(), "1d8");
        assert_eq!(multiply(&parse("60d6"), 4).to_string(), "100d6");
    }

    /// The largest total the figures' dice can roll, 0 without dice.
    fn max_total(figures: &CastFigures) -> i32 {
        figures.dice.as_ref().map_or(0, DiceExpr::max_total)
    }

    proptest! {
        /// A higher slot or a higher caster level never casts a spell smaller.
        #[test]
        fn figures_never_shrink(
            index in 0..SpellBook::srd().len(),
            slots in (0u8..=9, 0u8..=9),
            levels in (1u8..=20, 1u8..=20),
        ) {
            let spell = &SpellBook::srd().spells()[index];
            let lowest = spell.level.value();
            let (low_slot, high_slot) = (slots.0.min(slots.1).max(lowest), slots.0.max(slots.1).max(lowest));
            let (low_level, high_level) = (levels.0.min(levels.1), levels.0.max(levels.1));
            let low = spell.figures(level(low_slot), low_level).unwrap();
            for (slot, caster) in [(high_slot, low_level), (low_slot, high_level), (high_slot, high_level)] {
                let high = spell.figures(level(slot), caster).unwrap();
                prop_assert!(max_total(&high) >= max_total(&low), "{}: {:?} < {:?}", spell.name, high, low);
                prop_assert!(high.beams >= low.beams, "{}", spell.name);
                prop_assert!(high.targets >= low.targets, "{}", spell.name);
                prop_assert_eq!(high.dice.is_some(), low.dice.is_some());
            }
        }
    }

    #[test]
    fn figures_never_shrink_over_every_slot_and_level() {
        for spell in SpellBook::srd().spells() {
            for slot in spell.level.value()..=SpellLevel::MAX {
                for caster in 1..=20 {
                    let now = spell.figures(level(slot), caster).unwrap();
                    let mut next = vec![];
                    if slot < SpellLevel::MAX {
                        next.push(spell.figures(level(slot + 1), caster).unwrap());
                    }
                    if caster < 20 {
                        next.push(spell.figures(level(slot), caster + 1).unwrap());
                    }
                    for higher in next {
                        assert!(max_total(&higher) >= max_total(&now), "{}", spell.name);
                        assert!(higher.beams >= now.beams, "{}", spell.name);
                        assert!(higher.targets >= now.targets, "{}", spell.name);
                    }
                }
            }
        }
    }
}
