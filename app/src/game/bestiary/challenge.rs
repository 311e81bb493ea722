//! Challenge ratings: 0, 1/8, 1/4, 1/2 and 1..=30, with the experience a defeated creature of
//! each rating is worth and its proficiency bonus (the SRD 5.1 figures).
//!
//! A rating parses from `"1/4"`, `"0.25"`, `"CR 3"` or a JSON number (`0.5`, `3`); it displays
//! and serialises as the SRD writes it (`"1/4"`, `"3"`).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::text::excerpt;

/// Experience for a defeated creature, indexed by [`ChallengeRating::index`].
const XP: [u32; 34] = [
    10, 25, 50, 100, 200, 450, 700, 1_100, 1_800, 2_300, 2_900, 3_900, 5_000, 5_900, 7_200, 8_400,
    10_000, 11_500, 13_000, 15_000, 18_000, 20_000, 22_000, 25_000, 33_000, 41_000, 50_000, 62_000,
    75_000, 90_000, 105_000, 120_000, 135_000, 155_000,
];

/// The ratings below 1, as written.
const FRACTIONS: [&str; 4] = ["0", "1/8", "1/4", "1/2"];

/// Text or a number that is no challenge rating.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("challenge rating must be 0, 1/8, 1/4, 1/2 or a whole number 1..=30 (got {got})")]
pub struct ChallengeError {
    got: String,
}

impl ChallengeError {
    fn new(got: impl fmt::Display) -> Self {
        Self {
            got: excerpt(&got.to_string()),
        }
    }
}

/// A creature's challenge rating: 0, 1/8, 1/4, 1/2 or 1..=30. Ordered from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChallengeRating(u8);

impl ChallengeRating {
    /// Rating 0.
    pub const ZERO: ChallengeRating = ChallengeRating(0);
    /// The highest rating, 30.
    pub const MAX: ChallengeRating = ChallengeRating(33);
    /// How many ratings there are (0, three fractions, 1..=30).
    pub const COUNT: usize = 34;

    /// Every rating, weakest first.
    pub fn all() -> impl Iterator<Item = ChallengeRating> {
        (0..=Self::MAX.0).map(ChallengeRating)
    }

    /// The whole-number rating `n` (1..=30).
    pub fn whole(n: u8) -> Result<Self, ChallengeError> {
        if (1..=30).contains(&n) {
            Ok(Self(n + 3))
        } else {
            Err(ChallengeError::new(n))
        }
    }

    /// The rating's place among all ratings, 0 (CR 0) to 33 (CR 30).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The rating as a number: 0.125 for 1/8, 3.0 for 3.
    pub fn value(self) -> f64 {
        match self.0 {
            0 => 0.0,
            1 => 0.125,
            2 => 0.25,
            3 => 0.5,
            n => f64::from(n - 3),
        }
    }

    /// Experience for defeating a creature of this rating (10 for CR 0, 50 for 1/4, 1,800 for 5).
    pub fn xp(self) -> u32 {
        XP[self.index()]
    }

    /// The proficiency bonus of a creature of this rating: +2 up to CR 4, +3 from 5, … +9 at 29.
    pub fn proficiency_bonus(self) -> i8 {
        match self.0 {
            // Whole ratings start at index 4; every four ratings add one.
            n if n < 8 => 2,
            // (33 - 8) / 4 + 3 = 9 at most: fits i8.
            n => ((n - 8) / 4 + 3) as i8,
        }
    }
}

impl fmt::Display for ChallengeRating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match FRACTIONS.get(self.index()) {
            Some(text) => f.write_str(text),
            None => write!(f, "{}", self.0 - 3),
        }
    }
}

impl FromStr for ChallengeRating {
    type Err = ChallengeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let number = match trimmed.get(..2) {
            Some(prefix) if prefix.eq_ignore_ascii_case("cr") => trimmed[2..].trim_start(),
            _ => trimmed,
        };
        if let Some(i) = FRACTIONS.iter().position(|f| *f == number) {
            // At most 3: fits u8.
            return Ok(Self(i as u8));
        }
        let quoted = || ChallengeError::new(format!("\"{trimmed}\""));
        match number.parse::<f64>() {
            Ok(value) => Self::try_from(value).map_err(|_| quoted()),
            Err(_) => Err(quoted()),
        }
    }
}

impl TryFrom<f64> for ChallengeRating {
    type Error = ChallengeError;

    /// 0, 0.125, 0.25, 0.5 or a whole 1..=30.
    fn try_from(value: f64) -> Result<Self, Self::Error> {
        Self::all()
            .find(|cr| cr.value() == value)
            .ok_or_else(|| ChallengeError::new(value))
    }
}

impl Serialize for ChallengeRating {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ChallengeRating {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// A rating as text (`"1/4"`) or as a number (`0.25`).
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw<'a> {
            Number(f64),
            Text(Cow<'a, str>),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Number(value) => Self::try_from(value),
            Raw::Text(text) => text.parse(),
        }
        .map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for ChallengeRating {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ChallengeRating")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<String> = Self::all().map(|cr| cr.to_string()).collect();
        json_schema!({
            "type": "string",
            "enum": names,
            "description": "Challenge rating: 0, 1/8, 1/4, 1/2 or 1 to 30."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cr(text: &str) -> ChallengeRating {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn parses_fractions_whole_numbers_and_decimals() {
        assert_eq!(cr("0"), ChallengeRating::ZERO);
        assert_eq!(cr("1/8").value(), 0.125);
        assert_eq!(cr(" 1/4 ").value(), 0.25);
        assert_eq!(cr("0.5"), cr("1/2"));
        assert_eq!(cr("CR 3"), ChallengeRating::whole(3).unwrap());
        assert_eq!(cr("cr1/4"), cr("1/4"));
        assert_eq!(cr("30"), ChallengeRating::MAX);
    }

    #[test]
    fn rejects_what_is_no_rating() {
        for bad in ["31", "-1", "1/3", "2.5", "", "hard", "NaN", "inf"] {
            let err = bad.parse::<ChallengeRating>().unwrap_err();
            assert!(
                err.to_string().starts_with("challenge rating must be"),
                "{bad}"
            );
        }
        assert_eq!(
            "1/3".parse::<ChallengeRating>().unwrap_err().to_string(),
            "challenge rating must be 0, 1/8, 1/4, 1/2 or a whole number 1..=30 (got \"1/3\")"
        );
        assert!(ChallengeRating::whole(0).is_err());
        assert!(ChallengeRating::whole(31).is_err());
    }

    #[test]
    fn displays_as_the_srd_writes_it() {
        let written: Vec<String> = ChallengeRating::all().map(|c| c.to_string()).collect();
        assert_eq!(written.len(), ChallengeRating::COUNT);
        assert_eq!(&written[..6], ["0", "1/8", "1/4", "1/2", "1", "2"]);
        assert_eq!(written[33], "30");
        for text in &written {
            assert_eq!(&cr(text).to_string(), text);
        }
    }

    #[test]
    fn experience_by_rating() {
        for (text, xp) in [
            ("0", 10),
            ("1/8", 25),
            ("1/4", 50),
            ("1/2", 100),
            ("1", 200),
            ("2", 450),
            ("3", 700),
            ("5", 1_800),
            ("8", 3_900),
            ("20", 25_000),
            ("30", 155_000),
        ] {
            assert_eq!(cr(text).xp(), xp, "CR {text}");
        }
        let xp: Vec<u32> = ChallengeRating::all().map(ChallengeRating::xp).collect();
        assert!(
            xp.windows(2).all(|w| w[0] < w[1]),
            "XP rises with the rating"
        );
    }

    #[test]
    fn proficiency_by_rating() {
        for (text, bonus) in [
            ("0", 2),
            ("1/2", 2),
            ("4", 2),
            ("5", 3),
            ("8", 3),
            ("9", 4),
            ("13", 5),
            ("17", 6),
            ("21", 7),
            ("25", 8),
            ("28", 8),
            ("29", 9),
            ("30", 9),
        ] {
            assert_eq!(cr(text).proficiency_bonus(), bonus, "CR {text}");
        }
    }

    #[test]
    fn serde_as_text_accepting_numbers() {
        assert_eq!(serde_json::to_string(&cr("1/4")).unwrap(), "\"1/4\"");
        assert_eq!(serde_json::to_string(&cr("12")).unwrap(), "\"12\"");
        let parsed: ChallengeRating = serde_json::from_str("0.25").unwrap();
        assert_eq!(parsed, cr("1/4"));
        let parsed: ChallengeRating = serde_json::from_str("3").unwrap();
        assert_eq!(parsed, cr("3"));
        let parsed: ChallengeRating = serde_json::from_str("\"1/2\"").unwrap();
        assert_eq!(parsed, cr("1/2"));
        assert!(serde_json::from_str::<ChallengeRating>("0.3").is_err());
        assert!(serde_json::from_str::<ChallengeRating>("\"40\"").is_err());
    }

    #[test]
    fn ordered_weakest_first() {
        assert!(cr("0") < cr("1/8"));
        assert!(cr("1/2") < cr("1"));
        assert!(cr("9") < cr("10"));
    }
}
