//! Damage: the dice an attack deals and their type (`1d6+2 slashing`).
//!
//! Damage dice are plain sums: no kept or dropped dice, nothing subtracted but the modifier, and
//! at most [`MAX_DAMAGE_DICE`] dice per term, so that a critical hit's doubled dice
//! ([`double_dice`]) still fit the notation's bounds.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::dice::{DiceError, DiceExpr};
use crate::game::text::excerpt;

/// The most dice one term of a damage roll may have (a critical hit doubles them).
pub const MAX_DAMAGE_DICE: u8 = 50;

/// The thirteen damage types.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DamageType {
    /// Corrosive liquids, digestive juices.
    Acid,
    /// Blunt force: clubs, falls, slams.
    Bludgeoning,
    /// Freezing cold.
    Cold,
    /// Flames and heat.
    Fire,
    /// Pure magical energy.
    Force,
    /// Electricity.
    Lightning,
    /// Life-draining energy.
    Necrotic,
    /// Fangs, spears, arrows.
    Piercing,
    /// Venom and toxic gas.
    Poison,
    /// Mental assault.
    Psychic,
    /// Holy light.
    Radiant,
    /// Blades and claws.
    Slashing,
    /// Concussive sound.
    Thunder,
}

impl DamageType {
    /// All thirteen, alphabetically.
    pub const ALL: [DamageType; 13] = [
        DamageType::Acid,
        DamageType::Bludgeoning,
        DamageType::Cold,
        DamageType::Fire,
        DamageType::Force,
        DamageType::Lightning,
        DamageType::Necrotic,
        DamageType::Piercing,
        DamageType::Poison,
        DamageType::Psychic,
        DamageType::Radiant,
        DamageType::Slashing,
        DamageType::Thunder,
    ];

    /// The type's name in lower case (`slashing`).
    pub fn name(self) -> &'static str {
        match self {
            DamageType::Acid => "acid",
            DamageType::Bludgeoning => "bludgeoning",
            DamageType::Cold => "cold",
            DamageType::Fire => "fire",
            DamageType::Force => "force",
            DamageType::Lightning => "lightning",
            DamageType::Necrotic => "necrotic",
            DamageType::Piercing => "piercing",
            DamageType::Poison => "poison",
            DamageType::Psychic => "psychic",
            DamageType::Radiant => "radiant",
            DamageType::Slashing => "slashing",
            DamageType::Thunder => "thunder",
        }
    }
}

impl fmt::Display for DamageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DamageType {
    type Err = DamageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim();
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(key))
            .ok_or_else(|| DamageError::UnknownType { text: excerpt(key) })
    }
}

/// Why damage was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DamageError {
    /// The dice do not parse.
    #[error("damage dice {0}")]
    Dice(#[from] DiceError),
    /// Dice that keep or drop some, or a subtracted die.
    #[error("damage dice \"{dice}\" must add plain dice (no kh/kl, no subtracted dice)")]
    NotASum {
        /// The notation.
        dice: String,
    },
    /// A term with more than [`MAX_DAMAGE_DICE`] dice.
    #[error("damage dice \"{dice}\" roll more than {MAX_DAMAGE_DICE} dice in one term")]
    TooManyDice {
        /// The notation.
        dice: String,
    },
    /// Not one of the thirteen types.
    #[error(
        "unknown damage type \"{text}\"; expected acid, bludgeoning, cold, fire, force, \
         lightning, necrotic, piercing, poison, psychic, radiant, slashing or thunder"
    )]
    UnknownType {
        /// The start of the rejected text.
        text: String,
    },
    /// No type after the dice.
    #[error("damage \"{text}\" needs a type after the dice, like \"1d6+2 slashing\"")]
    MissingType {
        /// The start of the rejected text.
        text: String,
    },
}

/// Checks that `dice` can be damage: a plain sum of at most [`MAX_DAMAGE_DICE`] dice per term.
pub fn check_damage_dice(dice: &DiceExpr) -> Result<(), DamageError> {
    if dice
        .terms()
        .iter()
        .any(|t| t.keep().is_some() || t.is_negative())
    {
        return Err(DamageError::NotASum {
            dice: dice.to_string(),
        });
    }
    if dice.terms().iter().any(|t| t.count() > MAX_DAMAGE_DICE) {
        return Err(DamageError::TooManyDice {
            dice: dice.to_string(),
        });
    }
    Ok(())
}

/// The same expression with every term's dice doubled and the modifier kept (a critical hit):
/// `1d8+3` → `2d8+3`. Expressions that passed [`check_damage_dice`] always double.
pub fn double_dice(dice: &DiceExpr) -> DiceExpr {
    let mut notation = String::new();
    for term in dice.terms() {
        if !notation.is_empty() {
            notation.push('+');
        }
        notation.push_str(&format!("{}d{}", u16::from(term.count()) * 2, term.sides()));
    }
    let doubled = DiceExpr::parse(&notation)
        .ok()
        .and_then(|d| DiceExpr::parse(&d.notation_with_bonus(dice.modifier())).ok());
    // Unchecked dice past the bounds stay as they are rather than fail a roll.
    doubled.unwrap_or_else(|| dice.clone())
}

/// Damage dice and their type. Written and serialised as `"1d6+2 slashing"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Damage {
    dice: DiceExpr,
    kind: DamageType,
}

impl Damage {
    /// Damage of `kind` rolled with `dice`, if the dice can be damage ([`check_damage_dice`]).
    pub fn new(dice: DiceExpr, kind: DamageType) -> Result<Self, DamageError> {
        check_damage_dice(&dice)?;
        Ok(Self { dice, kind })
    }

    /// The dice rolled.
    pub fn dice(&self) -> &DiceExpr {
        &self.dice
    }

    /// The damage type.
    pub fn kind(&self) -> DamageType {
        self.kind
    }

    /// The damage a roll of average dice deals, rounded down, at least 0: `2d6+2` → 9.
    pub fn average(&self) -> u32 {
        u32::try_from(average(&self.dice)).unwrap_or(0)
    }
}

/// The average total of a plain sum of dice, rounded down as the SRD does (`7d10+21` → 59).
pub fn average(dice: &DiceExpr) -> i32 {
    let halves: i32 = dice
        .terms()
        .iter()
        .map(|t| {
            let sign = if t.is_negative() { -1 } else { 1 };
            sign * i32::from(t.kept_count()) * (i32::from(t.sides()) + 1)
        })
        .sum();
    halves.div_euclid(2) + dice.modifier()
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.dice, self.kind)
    }
}

impl FromStr for Damage {
    type Err = DamageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let (dice, kind) =
            trimmed
                .rsplit_once(char::is_whitespace)
                .ok_or_else(|| DamageError::MissingType {
                    text: excerpt(trimmed),
                })?;
        let kind = kind.parse()?;
        Self::new(DiceExpr::parse(dice)?, kind)
    }
}

impl Serialize for Damage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Damage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        raw.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(notation: &str) -> DiceExpr {
        DiceExpr::parse(notation).unwrap()
    }

    #[test]
    fn parses_dice_and_type() {
        let damage: Damage = " 1d6+2  Slashing ".parse().unwrap();
        assert_eq!(damage.dice(), &dice("1d6+2"));
        assert_eq!(damage.kind(), DamageType::Slashing);
        assert_eq!(damage.to_string(), "1d6+2 slashing");
        let damage: Damage = "2d8 + 1d6 + 3 fire".parse().unwrap();
        assert_eq!(damage.to_string(), "2d8+1d6+3 fire");
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |s: &str| s.parse::<Damage>().unwrap_err().to_string();
        assert_eq!(
            err("1d6"),
            "damage \"1d6\" needs a type after the dice, like \"1d6+2 slashing\""
        );
        assert!(err("1d6 sharp").starts_with("unknown damage type \"sharp\"; expected acid"));
        assert_eq!(
            err("0d6 fire"),
            "damage dice \"0d6\": dice count must be 1..=100"
        );
        assert_eq!(
            err("2d20kh1 fire"),
            "damage dice \"2d20kh1\" must add plain dice (no kh/kl, no subtracted dice)"
        );
        assert_eq!(
            err("1d8-1d4 fire"),
            "damage dice \"1d8-1d4\" must add plain dice (no kh/kl, no subtracted dice)"
        );
        assert_eq!(
            err("51d6 fire"),
            "damage dice \"51d6\" roll more than 50 dice in one term"
        );
        assert!("50d6 fire".parse::<Damage>().is_ok());
    }

    #[test]
    fn averages_round_down_like_the_srd() {
        for (notation, expected) in [
            ("2d6", 7),
            ("2d8+6", 15),
            ("7d10+21", 59),
            ("5d8", 22),
            ("1d4-1", 1),
            ("3d4+3", 10),
            ("16d10+48", 136),
            ("1d2", 1),
        ] {
            assert_eq!(average(&dice(notation)), expected, "{notation}");
        }
        let damage: Damage = "1d4-3 piercing".parse().unwrap();
        assert_eq!(damage.average(), 0);
    }

    #[test]
    fn doubling_doubles_dice_not_the_modifier() {
        assert_eq!(double_dice(&dice("1d8+3")).to_string(), "2d8+3");
        assert_eq!(double_dice(&dice("2d6+1d4-1")).to_string(), "4d6+2d4-1");
        assert_eq!(double_dice(&dice("50d6")).to_string(), "100d6");
        // Past the bounds (never for checked damage) the dice stay as they are.
        assert_eq!(double_dice(&dice("60d6")).to_string(), "60d6");
    }

    #[test]
    fn damage_serde_round_trip() {
        let damage: Damage = serde_json::from_str("\"2d6 + 4 Bludgeoning\"").unwrap();
        assert_eq!(
            serde_json::to_string(&damage).unwrap(),
            "\"2d6+4 bludgeoning\""
        );
        assert!(serde_json::from_str::<Damage>("\"2d6\"").is_err());
        assert_eq!(
            serde_json::to_string(&DamageType::Necrotic).unwrap(),
            "\"necrotic\""
        );
        for kind in DamageType::ALL {
            assert_eq!(kind.name().parse::<DamageType>().unwrap(), kind);
        }
    }
}
