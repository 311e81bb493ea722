//! The six attributes (STR DEX CON INT WIS CHA), their scores (1..=30) and the modifiers derived
//! from them: `(score − 10) div 2`, rounded down (8 → −1, 9 → −1, 10 → +0, 11 → +0, 12 → +1).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::text::excerpt;

/// Why an attribute or a score was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttributeError {
    /// The text names no attribute.
    #[error("unknown attribute \"{text}\"; expected one of STR, DEX, CON, INT, WIS, CHA")]
    Unknown {
        /// The start of the rejected text.
        text: String,
    },
    /// A score outside 1..=30.
    #[error(
        "attribute score must be {}..={} (got {value})",
        AttributeScore::MIN,
        AttributeScore::MAX
    )]
    ScoreOutOfRange {
        /// The rejected score.
        value: i64,
    },
}

/// One of the six attributes. Parses leniently (`"wisdom"`, `"WIS"`, `" wis "`); displays and
/// serialises as the three-letter abbreviation (`WIS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attribute {
    /// STR.
    Strength,
    /// DEX.
    Dexterity,
    /// CON.
    Constitution,
    /// INT.
    Intelligence,
    /// WIS.
    Wisdom,
    /// CHA.
    Charisma,
}

impl Attribute {
    /// All six, in sheet order.
    pub const ALL: [Attribute; 6] = [
        Attribute::Strength,
        Attribute::Dexterity,
        Attribute::Constitution,
        Attribute::Intelligence,
        Attribute::Wisdom,
        Attribute::Charisma,
    ];

    /// The three-letter abbreviation (`STR`).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Attribute::Strength => "STR",
            Attribute::Dexterity => "DEX",
            Attribute::Constitution => "CON",
            Attribute::Intelligence => "INT",
            Attribute::Wisdom => "WIS",
            Attribute::Charisma => "CHA",
        }
    }

    /// The full name (`Strength`).
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Strength => "Strength",
            Attribute::Dexterity => "Dexterity",
            Attribute::Constitution => "Constitution",
            Attribute::Intelligence => "Intelligence",
            Attribute::Wisdom => "Wisdom",
            Attribute::Charisma => "Charisma",
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abbreviation())
    }
}

impl FromStr for Attribute {
    type Err = AttributeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim().to_ascii_lowercase();
        Attribute::ALL
            .into_iter()
            .find(|a| {
                key == a.abbreviation().to_ascii_lowercase() || key == a.name().to_ascii_lowercase()
            })
            .ok_or_else(|| AttributeError::Unknown {
                text: excerpt(s.trim()),
            })
    }
}

impl Serialize for Attribute {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.abbreviation())
    }
}

impl<'de> Deserialize<'de> for Attribute {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        raw.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Attribute {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Attribute")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": ["STR", "DEX", "CON", "INT", "WIS", "CHA"] })
    }
}

/// An attribute score, 1..=30.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct AttributeScore(u8);

impl AttributeScore {
    /// The lowest score.
    pub const MIN: u8 = 1;
    /// The highest score.
    pub const MAX: u8 = 30;
    /// The average score, modifier +0.
    pub const AVERAGE: AttributeScore = AttributeScore(10);

    /// The score `value`, or an error outside 1..=30.
    pub fn new(value: i64) -> Result<Self, AttributeError> {
        u8::try_from(value)
            .ok()
            .filter(|v| (Self::MIN..=Self::MAX).contains(v))
            .map(Self)
            .ok_or(AttributeError::ScoreOutOfRange { value })
    }

    /// The score `value` clamped into 1..=30.
    pub fn clamped(value: i64) -> Self {
        // The clamp makes the cast lossless.
        Self(value.clamp(i64::from(Self::MIN), i64::from(Self::MAX)) as u8)
    }

    /// The score as a number.
    pub fn value(self) -> u8 {
        self.0
    }

    /// The modifier, `(score − 10) div 2` rounded down: −5 for 1, +0 for 10 and 11, +10 for 30.
    pub fn modifier(self) -> i8 {
        // -9..=20 halved floors to -5..=10: fits i8.
        (i16::from(self.0) - 10).div_euclid(2) as i8
    }
}

impl Default for AttributeScore {
    fn default() -> Self {
        Self::AVERAGE
    }
}

impl TryFrom<i64> for AttributeScore {
    type Error = AttributeError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<AttributeScore> for u8 {
    fn from(score: AttributeScore) -> u8 {
        score.0
    }
}

impl fmt::Display for AttributeScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl JsonSchema for AttributeScore {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("AttributeScore")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": Self::MIN, "maximum": Self::MAX })
    }
}

/// A character's six scores. Serialises as `{"STR": 10, "DEX": 14, ...}` (the ability abbreviations as keys).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attributes {
    /// Strength.
    #[serde(rename = "STR")]
    pub strength: AttributeScore,
    /// Dexterity.
    #[serde(rename = "DEX")]
    pub dexterity: AttributeScore,
    /// Constitution.
    #[serde(rename = "CON")]
    pub constitution: AttributeScore,
    /// Intelligence.
    #[serde(rename = "INT")]
    pub intelligence: AttributeScore,
    /// Wisdom.
    #[serde(rename = "WIS")]
    pub wisdom: AttributeScore,
    /// Charisma.
    #[serde(rename = "CHA")]
    pub charisma: AttributeScore,
}

impl Attributes {
    /// The score of `attribute`.
    pub fn get(&self, attribute: Attribute) -> AttributeScore {
        match attribute {
            Attribute::Strength => self.strength,
            Attribute::Dexterity => self.dexterity,
            Attribute::Constitution => self.constitution,
            Attribute::Intelligence => self.intelligence,
            Attribute::Wisdom => self.wisdom,
            Attribute::Charisma => self.charisma,
        }
    }

    /// Sets the score of `attribute`.
    pub fn set(&mut self, attribute: Attribute, score: AttributeScore) {
        let slot = match attribute {
            Attribute::Strength => &mut self.strength,
            Attribute::Dexterity => &mut self.dexterity,
            Attribute::Constitution => &mut self.constitution,
            Attribute::Intelligence => &mut self.intelligence,
            Attribute::Wisdom => &mut self.wisdom,
            Attribute::Charisma => &mut self.charisma,
        };
        *slot = score;
    }

    /// The bonus `attribute` gives to a roll (no proficiency).
    pub fn bonus(&self, attribute: Attribute) -> AttributeBonus {
        AttributeBonus {
            attribute,
            modifier: self.get(attribute).modifier(),
            proficiency: 0,
        }
    }
}

/// An attribute's modifier as added to a roll, with the proficiency bonus when the character is
/// proficient in what is rolled. Displays as `WIS +2`, `STR -1` or `DEX +3, proficiency +2`.
/// Rolls recorded before proficiency counted carry none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AttributeBonus {
    /// The attribute the modifier comes from.
    pub attribute: Attribute,
    /// The modifier, −5..=+10.
    pub modifier: i8,
    /// The proficiency bonus added (0 when not proficient), 0..=6.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub proficiency: i8,
}

fn is_zero(value: &i8) -> bool {
    *value == 0
}

impl AttributeBonus {
    /// What is added to the roll: the modifier plus the proficiency bonus.
    pub fn total(self) -> i8 {
        self.modifier + self.proficiency
    }

    /// The same bonus with `proficiency` added when `proficient`.
    pub fn with_proficiency(self, proficient: bool, proficiency: i8) -> Self {
        Self {
            proficiency: if proficient { proficiency } else { 0 },
            ..self
        }
    }
}

impl fmt::Display for AttributeBonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:+}", self.attribute, self.modifier)?;
        if self.proficiency != 0 {
            write!(f, ", proficiency {:+}", self.proficiency)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_parse_leniently() {
        for (raw, attribute) in [
            ("wisdom", Attribute::Wisdom),
            ("WIS", Attribute::Wisdom),
            (" wis ", Attribute::Wisdom),
            ("Strength", Attribute::Strength),
            ("dex", Attribute::Dexterity),
            ("CON", Attribute::Constitution),
            ("intelligence", Attribute::Intelligence),
            ("Cha", Attribute::Charisma),
        ] {
            assert_eq!(raw.parse::<Attribute>().unwrap(), attribute, "{raw}");
        }
    }

    #[test]
    fn unknown_attribute_lists_the_valid_ones() {
        let err = "luck".parse::<Attribute>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown attribute \"luck\"; expected one of STR, DEX, CON, INT, WIS, CHA"
        );
    }

    #[test]
    fn attribute_serialises_as_abbreviation_and_parses_leniently() {
        assert_eq!(
            serde_json::to_string(&Attribute::Wisdom).unwrap(),
            "\"WIS\""
        );
        let parsed: Attribute = serde_json::from_str("\"wisdom\"").unwrap();
        assert_eq!(parsed, Attribute::Wisdom);
    }

    #[test]
    fn modifiers_round_down() {
        let expected = [
            (1, -5),
            (2, -4),
            (3, -4),
            (8, -1),
            (9, -1),
            (10, 0),
            (11, 0),
            (12, 1),
            (15, 2),
            (20, 5),
            (29, 9),
            (30, 10),
        ];
        for (score, modifier) in expected {
            assert_eq!(
                AttributeScore::new(score).unwrap().modifier(),
                modifier,
                "{score}"
            );
        }
    }

    #[test]
    fn scores_are_bounded() {
        assert!(AttributeScore::new(0).is_err());
        assert!(AttributeScore::new(31).is_err());
        assert_eq!(
            AttributeScore::new(-3).unwrap_err().to_string(),
            "attribute score must be 1..=30 (got -3)"
        );
        assert_eq!(AttributeScore::clamped(99).value(), 30);
        assert_eq!(AttributeScore::clamped(-99).value(), 1);
        assert!(serde_json::from_str::<AttributeScore>("31").is_err());
    }

    #[test]
    fn attributes_get_set_and_serialise_with_abbreviations() {
        let mut attributes = Attributes::default();
        attributes.set(Attribute::Wisdom, AttributeScore::new(14).unwrap());
        assert_eq!(attributes.get(Attribute::Wisdom).value(), 14);
        assert_eq!(attributes.bonus(Attribute::Wisdom).to_string(), "WIS +2");
        let json = serde_json::to_value(attributes).unwrap();
        assert_eq!(json["WIS"], 14);
        assert_eq!(json["STR"], 10);
        let back: Attributes = serde_json::from_value(json).unwrap();
        assert_eq!(back, attributes);
    }

    #[test]
    fn negative_bonus_displays_with_sign() {
        let bonus = AttributeBonus {
            attribute: Attribute::Strength,
            modifier: -1,
            proficiency: 0,
        };
        assert_eq!(bonus.to_string(), "STR -1");
    }
}
