//! The oracle (the world's own rolls): yes/no questions about the world that neither the
//! player nor the game master should simply decide ("is the door locked?").
//!
//! The game master names a [`Likelihood`]; the server rolls d100. At or under the likelihood's
//! threshold the answer is yes, above it no. The lowest fifth of the yes band is "yes, and" (yes,
//! with a twist in the asker's favour); the lowest fifth of the no band is "no, but" (no, with
//! something to go on). So the chance of a yes is exactly the threshold.

use std::fmt;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How likely a yes is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Likelihood {
    /// 10%.
    VeryUnlikely,
    /// 25%.
    Unlikely,
    /// 50%.
    EvenOdds,
    /// 75%.
    Likely,
    /// 90%.
    VeryLikely,
}

impl Likelihood {
    /// All, least likely first.
    pub const ALL: [Likelihood; 5] = [
        Likelihood::VeryUnlikely,
        Likelihood::Unlikely,
        Likelihood::EvenOdds,
        Likelihood::Likely,
        Likelihood::VeryLikely,
    ];

    /// The highest d100 roll that answers yes.
    pub fn threshold(self) -> u8 {
        match self {
            Likelihood::VeryUnlikely => 10,
            Likelihood::Unlikely => 25,
            Likelihood::EvenOdds => 50,
            Likelihood::Likely => 75,
            Likelihood::VeryLikely => 90,
        }
    }

    /// In words: `likely`, `even odds`.
    pub fn words(self) -> &'static str {
        match self {
            Likelihood::VeryUnlikely => "very unlikely",
            Likelihood::Unlikely => "unlikely",
            Likelihood::EvenOdds => "even odds",
            Likelihood::Likely => "likely",
            Likelihood::VeryLikely => "very likely",
        }
    }
}

/// The oracle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Yes, and more in the asker's favour.
    YesAnd,
    /// Yes.
    Yes,
    /// No, but with something to go on.
    NoBut,
    /// No.
    No,
}

impl Answer {
    /// Whether the answer is a yes of either kind.
    pub fn is_yes(self) -> bool {
        matches!(self, Answer::YesAnd | Answer::Yes)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::YesAnd => "yes, and",
            Answer::Yes => "yes",
            Answer::NoBut => "no, but",
            Answer::No => "no",
        })
    }
}

/// A d100 result, 1..=100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Percentile(u8);

/// A percentile die outside 1..=100.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a d100 shows 1..=100 (got {0})")]
pub struct PercentileError(u8);

impl Percentile {
    /// Rolls d100.
    pub fn roll<R: Rng + ?Sized>(rng: &mut R) -> Self {
        Self(rng.random_range(1..=100))
    }

    /// The value.
    pub fn value(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Percentile {
    type Error = PercentileError;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        if (1..=100).contains(&value) {
            Ok(Self(value))
        } else {
            Err(PercentileError(value))
        }
    }
}

impl From<Percentile> for u8 {
    fn from(value: Percentile) -> u8 {
        value.0
    }
}

/// The answer `roll` gives at `likelihood`.
pub fn answer(likelihood: Likelihood, roll: Percentile) -> Answer {
    let threshold = likelihood.threshold();
    let roll = roll.value();
    if roll <= threshold {
        if roll <= threshold / 5 {
            Answer::YesAnd
        } else {
            Answer::Yes
        }
    } else if roll - threshold <= (100 - threshold) / 5 {
        Answer::NoBut
    } else {
        Answer::No
    }
}

/// One question put to the oracle and how it answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OracleReading {
    /// The question.
    pub question: String,
    /// How likely a yes was.
    pub likelihood: Likelihood,
    /// The d100.
    pub roll: Percentile,
    /// The answer.
    pub answer: Answer,
}

impl OracleReading {
    /// Asks `question` at `likelihood` with the server's dice.
    pub fn ask<R: Rng + ?Sized>(question: String, likelihood: Likelihood, rng: &mut R) -> Self {
        let roll = Percentile::roll(rng);
        Self {
            question,
            likelihood,
            roll,
            answer: answer(likelihood, roll),
        }
    }

    /// The line for the story and the model:
    /// `Oracle: Is the door locked? (likely, 75%) d100 [42]: yes`.
    pub fn describe(&self) -> String {
        format!(
            "Oracle: {} ({}, {}%) d100 [{}]: {}",
            self.question,
            self.likelihood.words(),
            self.likelihood.threshold(),
            self.roll.value(),
            self.answer
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn percent(value: u8) -> Percentile {
        Percentile::try_from(value).unwrap()
    }

    #[test]
    fn the_bands_of_likely() {
        let at = |roll| answer(Likelihood::Likely, percent(roll));
        assert_eq!(at(1), Answer::YesAnd);
        assert_eq!(at(15), Answer::YesAnd);
        assert_eq!(at(16), Answer::Yes);
        assert_eq!(at(75), Answer::Yes);
        assert_eq!(at(76), Answer::NoBut);
        assert_eq!(at(80), Answer::NoBut);
        assert_eq!(at(81), Answer::No);
        assert_eq!(at(100), Answer::No);
    }

    #[test]
    fn the_chance_of_a_yes_is_the_threshold() {
        for likelihood in Likelihood::ALL {
            let yeses = (1..=100)
                .filter(|roll| answer(likelihood, percent(*roll)).is_yes())
                .count();
            assert_eq!(yeses, usize::from(likelihood.threshold()), "{likelihood:?}");
        }
    }

    #[test]
    fn a_reading_describes_itself() {
        let reading = OracleReading {
            question: "Is the door locked?".into(),
            likelihood: Likelihood::Likely,
            roll: percent(42),
            answer: Answer::Yes,
        };
        assert_eq!(
            reading.describe(),
            "Oracle: Is the door locked? (likely, 75%) d100 [42]: yes"
        );
        assert!(Percentile::try_from(0).is_err() && Percentile::try_from(101).is_err());
    }
}
