//! Checks: a roll against a difficulty class.
//!
//! A check succeeds when the total meets or beats the DC. A natural 20 or 1 (the one kept d20 of a
//! single d20 term, see [`Roll::natural_d20`]) is flagged, not forced: whether it means an
//! automatic success or failure is the narrator's call.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use super::roll::{Natural, Roll};

/// A difficulty class outside 1..=30, or text that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "difficulty class must be a whole number {}..={} (got {got})",
    DifficultyClass::MIN,
    DifficultyClass::MAX
)]
pub struct DifficultyClassError {
    got: String,
}

impl DifficultyClassError {
    /// The error for the rejected value `got`, as it should be quoted.
    pub(in crate::game) fn new(got: impl fmt::Display) -> Self {
        Self {
            got: crate::game::text::excerpt(&got.to_string()),
        }
    }
}

/// The number a check must meet or beat, 1..=30. Parses `12` or `DC 12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct DifficultyClass(u8);

impl DifficultyClass {
    /// The easiest DC.
    pub const MIN: u8 = 1;
    /// The hardest DC.
    pub const MAX: u8 = 30;

    /// The DC `value`, or an error outside 1..=30.
    pub fn new(value: i64) -> Result<Self, DifficultyClassError> {
        u8::try_from(value)
            .ok()
            .filter(|v| (Self::MIN..=Self::MAX).contains(v))
            .map(Self)
            .ok_or_else(|| DifficultyClassError::new(value))
    }

    /// The DC as a number.
    pub fn value(self) -> u8 {
        self.0
    }
}

impl TryFrom<i64> for DifficultyClass {
    type Error = DifficultyClassError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<DifficultyClass> for u8 {
    fn from(dc: DifficultyClass) -> u8 {
        dc.0
    }
}

impl FromStr for DifficultyClass {
    type Err = DifficultyClassError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let number = match trimmed.get(..2) {
            Some(prefix) if prefix.eq_ignore_ascii_case("dc") => trimmed[2..].trim_start(),
            _ => trimmed,
        };
        number
            .parse::<i64>()
            .map_err(|_| DifficultyClassError::new(format!("\"{trimmed}\"")))
            .and_then(Self::new)
    }
}

impl fmt::Display for DifficultyClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DC {}", self.0)
    }
}

impl JsonSchema for DifficultyClass {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("DifficultyClass")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": Self::MIN, "maximum": Self::MAX })
    }
}

/// A roll against a difficulty class, with its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    roll: Roll,
    dc: DifficultyClass,
    success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    natural: Option<Natural>,
}

impl Check {
    /// Judges `roll` against `dc`.
    pub fn new(roll: Roll, dc: DifficultyClass) -> Self {
        let success = roll.total() >= i32::from(dc.value());
        let natural = roll.natural();
        Self {
            roll,
            dc,
            success,
            natural,
        }
    }

    /// The roll.
    pub fn roll(&self) -> &Roll {
        &self.roll
    }

    /// The difficulty class.
    pub fn dc(&self) -> DifficultyClass {
        self.dc
    }

    /// Whether the total met or beat the DC.
    pub fn is_success(&self) -> bool {
        self.success
    }

    /// A natural 20 or 1 on the d20, if the roll was a single d20 term.
    pub fn natural(&self) -> Option<Natural> {
        self.natural
    }

    /// The line for the story log and the model:
    /// `Rolled 1d20+2 for Stealth (DEX +2): [19] + 2 = 21 vs DC 12: success`, with
    /// ` (natural 20)` or ` (natural 1)` appended when flagged.
    pub fn describe(&self, reason: &str) -> String {
        let outcome = if self.success { "success" } else { "failure" };
        let natural = match self.natural {
            Some(Natural::Twenty) => " (natural 20)",
            Some(Natural::One) => " (natural 1)",
            None => "",
        };
        format!(
            "{} vs {}: {outcome}{natural}",
            self.roll.describe(reason),
            self.dc
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::attributes::{Attribute, AttributeBonus};
    use crate::game::dice::roll::tests::{scripted, scripted_with};

    fn dc(value: i64) -> DifficultyClass {
        DifficultyClass::new(value).unwrap()
    }

    #[test]
    fn meeting_the_dc_succeeds() {
        assert!(Check::new(scripted("1d20+2", &[10]), dc(12)).is_success());
        assert!(!Check::new(scripted("1d20+2", &[9]), dc(12)).is_success());
        assert!(Check::new(scripted("1d20+2", &[11]), dc(12)).is_success());
    }

    #[test]
    fn naturals_are_flagged_not_forced() {
        let check = Check::new(scripted("1d20", &[20]), dc(25));
        assert_eq!(check.natural(), Some(Natural::Twenty));
        assert!(!check.is_success());
        let check = Check::new(scripted("1d20+10", &[1]), dc(5));
        assert_eq!(check.natural(), Some(Natural::One));
        assert!(check.is_success());
        let check = Check::new(scripted("1d20", &[2]), dc(5));
        assert_eq!(check.natural(), None);
    }

    #[test]
    fn advantage_flags_the_kept_die() {
        let check = Check::new(scripted("2d20kh1", &[1, 20]), dc(15));
        assert_eq!(check.natural(), Some(Natural::Twenty));
        let check = Check::new(scripted("2d20kl1", &[1, 20]), dc(15));
        assert_eq!(check.natural(), Some(Natural::One));
    }

    #[test]
    fn no_natural_without_a_single_d20() {
        assert_eq!(Check::new(scripted("1d100", &[20]), dc(15)).natural(), None);
        assert_eq!(
            Check::new(scripted("2d20", &[20, 1]), dc(15)).natural(),
            None
        );
        assert_eq!(
            Check::new(scripted("1d20+1d4", &[20, 1]), dc(15)).natural(),
            None
        );
    }

    #[test]
    fn describes_outcome() {
        let bonus = AttributeBonus {
            attribute: Attribute::Dexterity,
            modifier: 2,
            proficiency: 0,
        };
        let check = Check::new(scripted_with("1d20", Some(bonus), &[19]), dc(12));
        assert_eq!(
            check.describe("Stealth"),
            "Rolled 1d20+2 for Stealth (DEX +2): [19] + 2 = 21 vs DC 12: success"
        );
        let check = Check::new(scripted("1d20", &[1]), dc(10));
        assert_eq!(
            check.describe("Climb"),
            "Rolled 1d20 for Climb: [1] = 1 vs DC 10: failure (natural 1)"
        );
        let check = Check::new(scripted("1d20", &[20]), dc(10));
        assert!(check.describe("Climb").ends_with("success (natural 20)"));
    }

    #[test]
    fn dc_bounds_and_parsing() {
        assert!(DifficultyClass::new(0).is_err());
        assert!(DifficultyClass::new(31).is_err());
        assert_eq!(
            DifficultyClass::new(31).unwrap_err().to_string(),
            "difficulty class must be a whole number 1..=30 (got 31)"
        );
        assert_eq!("12".parse::<DifficultyClass>().unwrap().value(), 12);
        assert_eq!("DC 15".parse::<DifficultyClass>().unwrap().value(), 15);
        assert_eq!("dc7".parse::<DifficultyClass>().unwrap().value(), 7);
        assert_eq!(
            "hard".parse::<DifficultyClass>().unwrap_err().to_string(),
            "difficulty class must be a whole number 1..=30 (got \"hard\")"
        );
        assert_eq!(dc(12).to_string(), "DC 12");
        assert!(serde_json::from_str::<DifficultyClass>("40").is_err());
        assert_eq!(serde_json::to_string(&dc(12)).unwrap(), "12");
    }

    #[test]
    fn check_serde_round_trip() {
        let check = Check::new(scripted("2d20kh1+3", &[20, 4]), dc(12));
        let json = serde_json::to_value(&check).unwrap();
        assert_eq!(json["success"], true);
        assert_eq!(json["natural"], "twenty");
        assert_eq!(json["dc"], 12);
        let back: Check = serde_json::from_value(json).unwrap();
        assert_eq!(back, check);
    }
}
