//! Rolling a [`DiceExpr`] with an injected RNG, and the record of what was rolled.
//!
//! [`Roll::describe`] writes the line the model and the player read, in one fixed style:
//! `Rolled 1d20+5 for Perception: [13] + 5 = 18`. Every die is listed in the order rolled; a
//! dropped die (by `kh`/`kl`) is wrapped in tildes, `Rolled 2d20kh1 for Attack: [17, ~4~] = 17`.
//! The description uses ASCII `-` so it stays plain text for the model.

use std::fmt::Write as _;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::notation::{DiceExpr, Keep};
use crate::game::attributes::AttributeBonus;

/// A natural 20 or natural 1 on a roll's single d20 (a check's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Natural {
    /// The d20 showed 20.
    Twenty,
    /// The d20 showed 1.
    One,
}

/// One die as rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    value: u16,
    kept: bool,
}

impl Die {
    /// The face rolled, 1..=sides.
    pub fn value(self) -> u16 {
        self.value
    }

    /// Whether it counts towards the total (false when dropped by `kh`/`kl`).
    pub fn is_kept(self) -> bool {
        self.kept
    }
}

/// The dice of one term as rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledTerm {
    negative: bool,
    sides: u16,
    dice: Vec<Die>,
}

impl RolledTerm {
    /// Whether the term is subtracted from the total.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// How many sides each die has.
    pub fn sides(&self) -> u16 {
        self.sides
    }

    /// Every die, kept or dropped, in the order rolled.
    pub fn dice(&self) -> &[Die] {
        &self.dice
    }

    /// The signed sum of the kept dice.
    pub fn subtotal(&self) -> i32 {
        let sum: i32 = self
            .dice
            .iter()
            .filter(|d| d.kept)
            .map(|d| i32::from(d.value))
            .sum();
        if self.negative {
            -sum
        } else {
            sum
        }
    }
}

/// The record of one roll: what was rolled, every die, the modifier and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Roll {
    notation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attribute: Option<AttributeBonus>,
    terms: Vec<RolledTerm>,
    modifier: i32,
    total: i32,
}

impl Roll {
    /// The canonical notation rolled, attribute modifier included (`1d20+2`).
    pub fn notation(&self) -> &str {
        &self.notation
    }

    /// The attribute modifier that was added, if any.
    pub fn attribute(&self) -> Option<AttributeBonus> {
        self.attribute
    }

    /// The dice, term by term.
    pub fn terms(&self) -> &[RolledTerm] {
        &self.terms
    }

    /// The constant added: the notation's modifier plus the attribute's.
    pub fn modifier(&self) -> i32 {
        self.modifier
    }

    /// The result.
    pub fn total(&self) -> i32 {
        self.total
    }

    /// A natural 20 or natural 1 on a lone d20 ([`Roll::natural_d20`]).
    pub fn natural(&self) -> Option<Natural> {
        match self.natural_d20() {
            Some(20) => Some(Natural::Twenty),
            Some(1) => Some(Natural::One),
            _ => None,
        }
    }

    /// The face of the one kept die when the roll is a single d20 term (`1d20+5`, `2d20kh1`):
    /// the die that can be a natural 20 or a natural 1.
    pub fn natural_d20(&self) -> Option<u16> {
        let [term] = self.terms.as_slice() else {
            return None;
        };
        if term.negative || term.sides != 20 {
            return None;
        }
        let mut kept = term.dice.iter().filter(|d| d.kept);
        match (kept.next(), kept.next()) {
            (Some(die), None) => Some(die.value),
            _ => None,
        }
    }

    /// The line for the story log and the model:
    /// `Rolled 1d20+2 for Perception (WIS +2): [13] + 2 = 15`. A blank reason is left out.
    pub fn describe(&self, reason: &str) -> String {
        let mut out = format!("Rolled {}", self.notation);
        let reason = reason.trim();
        if !reason.is_empty() {
            let _ = write!(out, " for {reason}");
        }
        if let Some(bonus) = self.attribute {
            let _ = write!(out, " ({bonus})");
        }
        out.push_str(": ");
        for (i, term) in self.terms.iter().enumerate() {
            match (i, term.negative) {
                (0, true) => out.push('-'),
                (0, false) => {}
                (_, true) => out.push_str(" - "),
                (_, false) => out.push_str(" + "),
            }
            out.push('[');
            for (j, die) in term.dice.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                // Writing to a String cannot fail.
                let _ = if die.kept {
                    write!(out, "{}", die.value)
                } else {
                    write!(out, "~{}~", die.value)
                };
            }
            out.push(']');
        }
        if self.modifier != 0 {
            let sign = if self.modifier < 0 { '-' } else { '+' };
            let _ = write!(out, " {sign} {}", self.modifier.unsigned_abs());
        }
        let _ = write!(out, " = {}", self.total);
        out
    }
}

impl DiceExpr {
    /// Rolls the expression with `rng`.
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> Roll {
        self.roll_faces(None, |sides| rng.random_range(1..=sides))
    }

    /// Rolls the expression with `rng`, adding an attribute's modifier (shown in the notation
    /// and the description).
    pub fn roll_with_bonus<R: Rng + ?Sized>(&self, bonus: AttributeBonus, rng: &mut R) -> Roll {
        self.roll_faces(Some(bonus), |sides| rng.random_range(1..=sides))
    }

    /// Whether `roll` is exactly what this expression gives with the faces `roll` shows: the
    /// same dice kept and dropped, the same modifier and total (a logged roll nobody edited).
    pub fn explains(&self, roll: &Roll) -> bool {
        let mut faces = roll
            .terms()
            .iter()
            .flat_map(|term| term.dice().iter().map(|die| die.value()));
        let again = self.roll_faces(roll.attribute(), |_| faces.next().unwrap_or(0));
        faces.next().is_none() && &again == roll
    }

    /// Rolls the expression taking each die's face from `face(sides)`; faces outside
    /// 1..=sides are clamped into it.
    pub(in crate::game) fn roll_faces(
        &self,
        attribute: Option<AttributeBonus>,
        mut face: impl FnMut(u16) -> u16,
    ) -> Roll {
        let bonus = attribute.map_or(0, |b| i32::from(b.total()));
        let terms: Vec<RolledTerm> = self
            .terms()
            .iter()
            .map(|term| {
                let sides = term.sides();
                let values: Vec<u16> = (0..term.count())
                    .map(|_| face(sides).clamp(1, sides))
                    .collect();
                let kept = kept_flags(&values, term.keep());
                RolledTerm {
                    negative: term.is_negative(),
                    sides,
                    dice: values
                        .into_iter()
                        .zip(kept)
                        .map(|(value, kept)| Die { value, kept })
                        .collect(),
                }
            })
            .collect();
        let modifier = self.modifier() + bonus;
        let total = terms.iter().map(RolledTerm::subtotal).sum::<i32>() + modifier;
        Roll {
            notation: self.notation_with_bonus(bonus),
            attribute,
            terms,
            modifier,
            total,
        }
    }
}

/// Which of `values` a keep rule keeps. Among equal faces the earlier die is kept.
fn kept_flags(values: &[u16], keep: Option<Keep>) -> Vec<bool> {
    let Some(keep) = keep else {
        return vec![true; values.len()];
    };
    let mut order: Vec<usize> = (0..values.len()).collect();
    match keep {
        // Stable sorts: ties stay in rolling order.
        Keep::Highest(_) => order.sort_by(|&a, &b| values[b].cmp(&values[a])),
        Keep::Lowest(_) => order.sort_by(|&a, &b| values[a].cmp(&values[b])),
    }
    let mut kept = vec![false; values.len()];
    for &i in order.iter().take(usize::from(keep.count())) {
        kept[i] = true;
    }
    kept
}

#[cfg(test)]
pub(in crate::game) mod tests {
    use super::*;
    use crate::game::attributes::Attribute;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Rolls `notation` with the given faces, in order.
    pub(in crate::game) fn scripted(notation: &str, faces: &[u16]) -> Roll {
        scripted_with(notation, None, faces)
    }

    /// Rolls `notation` plus an optional attribute bonus with the given faces, in order.
    pub(in crate::game) fn scripted_with(
        notation: &str,
        bonus: Option<AttributeBonus>,
        faces: &[u16],
    ) -> Roll {
        let mut faces = faces.iter().copied();
        DiceExpr::parse(notation)
            .unwrap()
            .roll_faces(bonus, |_| faces.next().expect("enough scripted faces"))
    }

    #[test]
    fn describes_in_seed_style() {
        let roll = scripted("1d20+5", &[13]);
        assert_eq!(roll.total(), 18);
        assert_eq!(
            roll.describe("Perception"),
            "Rolled 1d20+5 for Perception: [13] + 5 = 18"
        );
    }

    #[test]
    fn describes_negative_modifiers_and_blank_reasons() {
        let roll = scripted("2d6-1", &[3, 4]);
        assert_eq!(roll.total(), 6);
        assert_eq!(roll.describe(" "), "Rolled 2d6-1: [3, 4] - 1 = 6");
        let roll = scripted("d20", &[7]);
        assert_eq!(roll.describe("Luck"), "Rolled 1d20 for Luck: [7] = 7");
    }

    #[test]
    fn keeps_highest_and_marks_dropped_dice() {
        let roll = scripted("2d20kh1", &[4, 17]);
        assert_eq!(roll.total(), 17);
        assert_eq!(
            roll.describe("Attack"),
            "Rolled 2d20kh1 for Attack: [~4~, 17] = 17"
        );
        let dice = roll.terms()[0].dice();
        assert!(!dice[0].is_kept() && dice[1].is_kept());
        assert_eq!(dice[1].value(), 17);
    }

    #[test]
    fn keeps_lowest() {
        let roll = scripted("2d20kl1+3", &[4, 17]);
        assert_eq!(roll.total(), 7);
        assert_eq!(
            roll.describe("Sneak"),
            "Rolled 2d20kl1+3 for Sneak: [4, ~17~] + 3 = 7"
        );
    }

    #[test]
    fn four_d6_drop_lowest_keeps_the_earlier_of_ties() {
        let roll = scripted("4d6kh3", &[2, 5, 2, 6]);
        assert_eq!(roll.total(), 13);
        assert_eq!(roll.describe(""), "Rolled 4d6kh3: [2, 5, ~2~, 6] = 13");
    }

    #[test]
    fn several_terms_and_subtraction() {
        let roll = scripted("3d8+1d6+2", &[3, 5, 8, 4]);
        assert_eq!(roll.total(), 22);
        assert_eq!(
            roll.describe("Fireball"),
            "Rolled 3d8+1d6+2 for Fireball: [3, 5, 8] + [4] + 2 = 22"
        );
        let roll = scripted("-1d4+1d20", &[3, 15]);
        assert_eq!(roll.total(), 12);
        assert_eq!(roll.describe(""), "Rolled -1d4+1d20: -[3] + [15] = 12");
        let roll = scripted("1d20-1d4", &[15, 3]);
        assert_eq!(roll.describe(""), "Rolled 1d20-1d4: [15] - [3] = 12");
        assert_eq!(roll.terms()[1].subtotal(), -3);
    }

    #[test]
    fn attribute_bonus_is_part_of_notation_and_description() {
        let bonus = AttributeBonus {
            attribute: Attribute::Wisdom,
            modifier: 2,
            proficiency: 0,
        };
        let roll = scripted_with("1d20", Some(bonus), &[13]);
        assert_eq!(roll.notation(), "1d20+2");
        assert_eq!(roll.modifier(), 2);
        assert_eq!(roll.attribute(), Some(bonus));
        assert_eq!(
            roll.describe("Perception"),
            "Rolled 1d20+2 for Perception (WIS +2): [13] + 2 = 15"
        );
    }

    #[test]
    fn scripted_faces_out_of_range_are_clamped() {
        let roll = scripted("2d6", &[0, 9]);
        let faces: Vec<u16> = roll.terms()[0].dice().iter().map(|d| d.value()).collect();
        assert_eq!(faces, [1, 6]);
    }

    #[test]
    fn natural_d20_only_for_a_single_d20_term() {
        assert_eq!(scripted("1d20+5", &[20]).natural_d20(), Some(20));
        assert_eq!(scripted("2d20kh1", &[1, 20]).natural_d20(), Some(20));
        assert_eq!(scripted("2d20kl1", &[1, 20]).natural_d20(), Some(1));
        assert_eq!(scripted("2d20", &[20, 20]).natural_d20(), None);
        assert_eq!(scripted("1d20+1d4", &[20, 1]).natural_d20(), None);
        assert_eq!(scripted("1d12", &[1]).natural_d20(), None);
        assert_eq!(scripted("-1d20", &[20]).natural_d20(), None);
    }

    #[test]
    fn seeded_rolls_are_reproducible_and_in_range() {
        let expr = DiceExpr::parse("3d8+1d6+2").unwrap();
        let a = expr.roll(&mut StdRng::seed_from_u64(7));
        let b = expr.roll(&mut StdRng::seed_from_u64(7));
        assert_eq!(a, b);
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..1000 {
            let total = expr.roll(&mut rng).total();
            assert!((expr.min_total()..=expr.max_total()).contains(&total));
        }
    }

    #[test]
    fn every_face_of_a_d6_comes_up() {
        let expr = DiceExpr::parse("d6").unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = [false; 6];
        for _ in 0..200 {
            let face = usize::try_from(expr.roll(&mut rng).total()).unwrap();
            seen[face - 1] = true;
        }
        assert_eq!(seen, [true; 6]);
    }

    #[test]
    fn roll_with_bonus_uses_the_rng() {
        let expr = DiceExpr::parse("1d20").unwrap();
        let bonus = AttributeBonus {
            attribute: Attribute::Strength,
            modifier: -1,
            proficiency: 0,
        };
        let roll = expr.roll_with_bonus(bonus, &mut StdRng::seed_from_u64(9));
        assert_eq!(roll.notation(), "1d20-1");
        assert_eq!(roll.total(), roll.terms()[0].subtotal() - 1);
    }

    #[test]
    fn roll_serde_round_trip() {
        let roll = scripted("2d20kh1+5", &[4, 17]);
        let json = serde_json::to_value(&roll).unwrap();
        assert_eq!(json["notation"], "2d20kh1+5");
        assert_eq!(json["total"], 22);
        assert_eq!(json["terms"][0]["dice"][0]["kept"], false);
        let back: Roll = serde_json::from_value(json).unwrap();
        assert_eq!(back, roll);
    }
}
