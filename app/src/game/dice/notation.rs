//! Dice notation: `d20`, `1d20+5`, `2d6-1`, `3d8+1d6+2`, `d%`/`d100`, `2d20kh1` (keep highest,
//! advantage), `2d20kl1` (keep lowest, disadvantage), `4d6kh3`; `k3` means `kh3`. Letter case and
//! spaces between tokens do not matter; `−` (U+2212) is read as `-`.
//!
//! Bounds: 1..=100 dice per term, 2..=1000 sides, the constant part within −1000..=1000, at most
//! 10 dice terms and 100 characters, at least one die. An error quotes the offending part and
//! names the problem: `"0d6": dice count must be 1..=100`.

use std::borrow::Cow;
use std::fmt;
use std::iter::Peekable;
use std::str::{CharIndices, FromStr};

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::text::excerpt;

/// The most dice one term may roll.
pub const MAX_DICE_PER_TERM: u8 = 100;
/// The fewest sides a die may have.
pub const MIN_SIDES: u16 = 2;
/// The most sides a die may have.
pub const MAX_SIDES: u16 = 1000;
/// The largest constant part (modifier), in absolute value.
pub const MAX_MODIFIER: i32 = 1000;
/// The most dice terms one expression may have.
pub const MAX_TERMS: usize = 10;
/// The longest notation accepted, in characters.
pub const MAX_NOTATION_CHARS: usize = 100;

/// A rejected dice notation: the quoted part and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{fragment}\": {problem}")]
pub struct DiceError {
    fragment: String,
    problem: DiceProblem,
}

impl DiceError {
    fn new(fragment: &str, problem: DiceProblem) -> Self {
        Self {
            fragment: excerpt(fragment),
            problem,
        }
    }

    /// The part of the notation the error is about (the whole notation for syntax errors).
    pub fn fragment(&self) -> &str {
        &self.fragment
    }

    /// What is wrong with it.
    pub fn problem(&self) -> &DiceProblem {
        &self.problem
    }
}

/// What is wrong with a dice notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceProblem {
    /// Nothing to parse.
    #[error("dice notation is empty")]
    Empty,
    /// Longer than [`MAX_NOTATION_CHARS`].
    #[error("dice notation is longer than {MAX_NOTATION_CHARS} characters")]
    TooLong,
    /// A character that does not fit where it stands.
    #[error("unexpected '{found}' at position {position}; expected {expected}")]
    Unexpected {
        /// The character.
        found: char,
        /// Its position, counting characters from 1.
        position: usize,
        /// What could have stood there.
        expected: &'static str,
    },
    /// The notation stops where more was needed.
    #[error("ends too early; expected {expected}")]
    UnexpectedEnd {
        /// What was needed.
        expected: &'static str,
    },
    /// A term rolls no dice or more than [`MAX_DICE_PER_TERM`].
    #[error("dice count must be 1..={MAX_DICE_PER_TERM}")]
    DiceCount,
    /// Dice with fewer than [`MIN_SIDES`] or more than [`MAX_SIDES`] sides.
    #[error("dice sides must be {MIN_SIDES}..={MAX_SIDES}")]
    Sides,
    /// Keeps no dice or more dice than the term rolls.
    #[error("keep count must be 1..={rolled}, the number of dice rolled")]
    Keep {
        /// How many dice the term rolls.
        rolled: u8,
    },
    /// A constant, or the sum of the constants, beyond ±[`MAX_MODIFIER`].
    #[error("modifier must be within -{MAX_MODIFIER}..={MAX_MODIFIER}")]
    Modifier,
    /// More than [`MAX_TERMS`] dice terms.
    #[error("at most {MAX_TERMS} dice terms are allowed")]
    TooManyTerms,
    /// Only constants, no dice.
    #[error("no dice to roll; write dice like 1d20")]
    NoDice,
}

/// Which dice of a term count towards the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// Keep the N highest (`kh`): `2d20kh1` is advantage, `4d6kh3` the classic ability roll.
    Highest(u8),
    /// Keep the N lowest (`kl`): `2d20kl1` is disadvantage.
    Lowest(u8),
}

impl Keep {
    /// How many dice are kept.
    pub fn count(self) -> u8 {
        match self {
            Keep::Highest(n) | Keep::Lowest(n) => n,
        }
    }
}

/// One group of identical dice in an expression, e.g. `2d20kh1` or `-1d4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    negative: bool,
    count: u8,
    sides: u16,
    keep: Option<Keep>,
}

impl DiceTerm {
    /// Whether the term is subtracted from the total.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// How many dice are rolled, 1..=100.
    pub fn count(&self) -> u8 {
        self.count
    }

    /// How many sides each die has, 2..=1000.
    pub fn sides(&self) -> u16 {
        self.sides
    }

    /// Which dice are kept, if not all.
    pub fn keep(&self) -> Option<Keep> {
        self.keep
    }

    /// How many dice count towards the total.
    pub fn kept_count(&self) -> u8 {
        self.keep.map_or(self.count, Keep::count)
    }

    /// The lowest and highest value the term adds to the total (signed).
    fn range(&self) -> (i32, i32) {
        let kept = i32::from(self.kept_count());
        let (low, high) = (kept, kept * i32::from(self.sides));
        if self.negative {
            (-high, -low)
        } else {
            (low, high)
        }
    }
}

/// A parsed, bounded dice expression: dice terms plus one constant modifier.
///
/// Displays in canonical form (`1d20+5`, `2d20kh1`, `3d8+1d6+2`; `d%` becomes `1d100`) and
/// serialises as that string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    terms: Vec<DiceTerm>,
    modifier: i32,
}

impl DiceExpr {
    /// Parses dice notation (see the module docs for the grammar and bounds).
    pub fn parse(notation: &str) -> Result<Self, DiceError> {
        let input = notation.trim();
        if input.is_empty() {
            return Err(DiceError::new(input, DiceProblem::Empty));
        }
        if input.chars().count() > MAX_NOTATION_CHARS {
            return Err(DiceError::new(input, DiceProblem::TooLong));
        }
        Parser::new(input).parse()
    }

    /// A plain d20 (checks and saves).
    pub fn d20() -> Self {
        Self::parse("1d20").expect("1d20 is valid notation")
    }

    /// The dice terms, in the order written.
    pub fn terms(&self) -> &[DiceTerm] {
        &self.terms
    }

    /// The constant added to the dice, −1000..=1000.
    pub fn modifier(&self) -> i32 {
        self.modifier
    }

    /// The lowest total this expression can roll.
    pub fn min_total(&self) -> i32 {
        self.terms.iter().map(|t| t.range().0).sum::<i32>() + self.modifier
    }

    /// The highest total this expression can roll.
    pub fn max_total(&self) -> i32 {
        self.terms.iter().map(|t| t.range().1).sum::<i32>() + self.modifier
    }

    /// The canonical notation with `bonus` added to the modifier (`1d20` + 2 → `1d20+2`), as
    /// shown for a roll that adds an attribute modifier.
    pub fn notation_with_bonus(&self, bonus: i32) -> String {
        let mut out = String::new();
        write_notation(&mut out, &self.terms, self.modifier + bonus);
        out
    }
}

/// Writes terms and a modifier in canonical notation.
fn write_notation(out: &mut String, terms: &[DiceTerm], modifier: i32) {
    use std::fmt::Write as _;
    for (i, term) in terms.iter().enumerate() {
        if term.negative {
            out.push('-');
        } else if i > 0 {
            out.push('+');
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "{}d{}", term.count, term.sides);
        match term.keep {
            Some(Keep::Highest(n)) => {
                let _ = write!(out, "kh{n}");
            }
            Some(Keep::Lowest(n)) => {
                let _ = write!(out, "kl{n}");
            }
            None => {}
        }
    }
    if modifier != 0 {
        let _ = write!(out, "{modifier:+}");
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation_with_bonus(0))
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for DiceExpr {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("DiceExpr")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "maxLength": MAX_NOTATION_CHARS })
    }
}

/// What a syntax error says could have stood at its place.
const EXPECT_TERM: &str = "dice like 1d20 or a number";
const EXPECT_OPERATOR: &str = "'+' or '-' between terms";
const EXPECT_SIDES: &str = "the number of sides after 'd'";
const EXPECT_KEEP: &str = "how many dice to keep after 'kh' or 'kl'";

/// A hand-written recursive-descent parser over the (already length-bounded) input.
struct Parser<'a> {
    input: &'a str,
    chars: Peekable<CharIndices<'a>>,
    terms: Vec<DiceTerm>,
    modifier: i32,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Self {
        Self {
            input,
            chars: input.char_indices().peekable(),
            terms: Vec::new(),
            modifier: 0,
        }
    }

    fn parse(mut self) -> Result<DiceExpr, DiceError> {
        let mut first = true;
        loop {
            self.skip_spaces();
            let negative = match self.peek() {
                None if !first => break,
                Some('+') => {
                    self.bump();
                    false
                }
                Some('-' | '\u{2212}') => {
                    self.bump();
                    true
                }
                Some(_) if !first => return Err(self.unexpected(EXPECT_OPERATOR)),
                _ => false,
            };
            first = false;
            self.skip_spaces();
            self.term(negative)?;
        }
        if self.terms.is_empty() {
            return Err(DiceError::new(self.input, DiceProblem::NoDice));
        }
        if self.modifier.abs() > MAX_MODIFIER {
            return Err(DiceError::new(self.input, DiceProblem::Modifier));
        }
        Ok(DiceExpr {
            terms: self.terms,
            modifier: self.modifier,
        })
    }

    /// One term after its sign: `[count] d sides [keep]` or a constant.
    fn term(&mut self, negative: bool) -> Result<(), DiceError> {
        let start = self.offset();
        let count = self.number();
        self.skip_spaces();
        if !matches!(self.peek(), Some('d' | 'D')) {
            let value = count.ok_or_else(|| self.unexpected(EXPECT_TERM))?;
            return self.constant(start, value, negative);
        }
        self.bump();
        self.skip_spaces();
        let sides = if self.peek() == Some('%') {
            self.bump();
            Some(100)
        } else {
            self.number()
        }
        .ok_or_else(|| self.unexpected(EXPECT_SIDES))?;
        self.skip_spaces();
        let keep = self.keep()?;
        let fragment = self.fragment(start);
        let term = bounded_term(fragment, negative, count.unwrap_or(1), sides, keep)?;
        if self.terms.len() == MAX_TERMS {
            return Err(DiceError::new(self.input, DiceProblem::TooManyTerms));
        }
        self.terms.push(term);
        Ok(())
    }

    /// A constant term (`+3`) added to the modifier, within its bound.
    fn constant(&mut self, start: usize, value: u32, negative: bool) -> Result<(), DiceError> {
        let fragment = self.fragment(start);
        let value = i32::try_from(value)
            .ok()
            .filter(|v| *v <= MAX_MODIFIER)
            .ok_or_else(|| DiceError::new(fragment, DiceProblem::Modifier))?;
        self.modifier += if negative { -value } else { value };
        Ok(())
    }

    /// A keep suffix, if one follows: `kh2`, `kl1`, or `k3` (the highest); whether it keeps the
    /// highest, and how many.
    fn keep(&mut self) -> Result<Option<(bool, u32)>, DiceError> {
        if !matches!(self.peek(), Some('k' | 'K')) {
            return Ok(None);
        }
        self.bump();
        let highest = match self.peek() {
            Some('l' | 'L') => {
                self.bump();
                false
            }
            Some('h' | 'H') => {
                self.bump();
                true
            }
            _ => true,
        };
        self.skip_spaces();
        let n = self.number().ok_or_else(|| self.unexpected(EXPECT_KEEP))?;
        Ok(Some((highest, n)))
    }

    /// A run of ASCII digits, saturating at `u32::MAX` (every bound is far below).
    fn number(&mut self) -> Option<u32> {
        let mut value: Option<u32> = None;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            self.bump();
            value = Some(value.unwrap_or(0).saturating_mul(10).saturating_add(digit));
        }
        value
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn bump(&mut self) {
        self.chars.next();
    }

    /// The byte offset of the next character.
    fn offset(&mut self) -> usize {
        self.chars.peek().map_or(self.input.len(), |&(i, _)| i)
    }

    /// The input from `start` to here, trimmed.
    fn fragment(&mut self, start: usize) -> &'a str {
        let end = self.offset();
        self.input.get(start..end).unwrap_or(self.input).trim()
    }

    fn unexpected(&mut self, expected: &'static str) -> DiceError {
        let problem = match self.chars.peek() {
            Some(&(offset, found)) => DiceProblem::Unexpected {
                found,
                position: self.input[..offset].chars().count() + 1,
                expected,
            },
            None => DiceProblem::UnexpectedEnd { expected },
        };
        DiceError::new(self.input, problem)
    }
}

/// A dice term from its parsed parts, each within its bounds (`fragment` is the term as written,
/// for the error).
fn bounded_term(
    fragment: &str,
    negative: bool,
    count: u32,
    sides: u32,
    keep: Option<(bool, u32)>,
) -> Result<DiceTerm, DiceError> {
    let count = u8::try_from(count)
        .ok()
        .filter(|c| (1..=MAX_DICE_PER_TERM).contains(c))
        .ok_or_else(|| DiceError::new(fragment, DiceProblem::DiceCount))?;
    let sides = u16::try_from(sides)
        .ok()
        .filter(|s| (MIN_SIDES..=MAX_SIDES).contains(s))
        .ok_or_else(|| DiceError::new(fragment, DiceProblem::Sides))?;
    let keep = keep
        .map(|(highest, n)| {
            u8::try_from(n)
                .ok()
                .filter(|n| (1..=count).contains(n))
                .map(|n| {
                    if highest {
                        Keep::Highest(n)
                    } else {
                        Keep::Lowest(n)
                    }
                })
                .ok_or_else(|| DiceError::new(fragment, DiceProblem::Keep { rolled: count }))
        })
        .transpose()?;
    Ok(DiceTerm {
        negative,
        count,
        sides,
        keep,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(notation: &str) -> String {
        DiceExpr::parse(notation)
            .unwrap_or_else(|e| panic!("{notation}: {e}"))
            .to_string()
    }

    fn error(notation: &str) -> String {
        DiceExpr::parse(notation).unwrap_err().to_string()
    }

    #[test]
    fn parses_standard_notation_to_canonical_form() {
        for (input, expected) in [
            ("d20", "1d20"),
            ("1d20+5", "1d20+5"),
            ("2d6-1", "2d6-1"),
            ("3d8+1d6+2", "3d8+1d6+2"),
            ("d%", "1d100"),
            ("d100", "1d100"),
            ("2d20kh1", "2d20kh1"),
            ("2d20kl1", "2d20kl1"),
            ("4d6kh3", "4d6kh3"),
            ("4d6k3", "4d6kh3"),
            ("5+1d20", "1d20+5"),
            ("1d20+2+3", "1d20+5"),
            ("1d20-1d4", "1d20-1d4"),
            ("-1d4+1d20", "-1d4+1d20"),
            ("1d20+0", "1d20"),
            ("1d20 − 2", "1d20-2"),
        ] {
            assert_eq!(canonical(input), expected, "{input}");
        }
    }

    #[test]
    fn tolerates_case_and_spaces() {
        assert_eq!(canonical("  2D20KH1 + 5 "), "2d20kh1+5");
        assert_eq!(canonical("1 d 20 + 5"), "1d20+5");
        assert_eq!(canonical("D%"), "1d100");
        assert_eq!(canonical("4d6 Kl 1"), "4d6kl1");
    }

    #[test]
    fn exposes_terms_and_modifier() {
        let expr = DiceExpr::parse("2d20kh1-1d4+3").unwrap();
        assert_eq!(expr.modifier(), 3);
        let [first, second] = expr.terms() else {
            panic!("two terms expected")
        };
        assert_eq!(
            (
                first.count(),
                first.sides(),
                first.keep(),
                first.is_negative()
            ),
            (2, 20, Some(Keep::Highest(1)), false)
        );
        assert_eq!(first.kept_count(), 1);
        assert_eq!(
            (
                second.count(),
                second.sides(),
                second.keep(),
                second.is_negative()
            ),
            (1, 4, None, true)
        );
    }

    #[test]
    fn min_and_max_totals() {
        let expr = DiceExpr::parse("2d6-1").unwrap();
        assert_eq!((expr.min_total(), expr.max_total()), (1, 11));
        let expr = DiceExpr::parse("4d6kh3").unwrap();
        assert_eq!((expr.min_total(), expr.max_total()), (3, 18));
        let expr = DiceExpr::parse("1d20-1d4").unwrap();
        assert_eq!((expr.min_total(), expr.max_total()), (-3, 19));
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(error("0d6"), "\"0d6\": dice count must be 1..=100");
        assert_eq!(error("101d6"), "\"101d6\": dice count must be 1..=100");
        assert_eq!(error("1d20+0d6"), "\"0d6\": dice count must be 1..=100");
        assert_eq!(error("1d1"), "\"1d1\": dice sides must be 2..=1000");
        assert_eq!(error("1d1001"), "\"1d1001\": dice sides must be 2..=1000");
        assert_eq!(error("1d0"), "\"1d0\": dice sides must be 2..=1000");
        assert_eq!(
            error("2d20kh3"),
            "\"2d20kh3\": keep count must be 1..=2, the number of dice rolled"
        );
        assert_eq!(
            error("2d20kl0"),
            "\"2d20kl0\": keep count must be 1..=2, the number of dice rolled"
        );
        assert_eq!(
            error("1d20+1001"),
            "\"1001\": modifier must be within -1000..=1000"
        );
        assert_eq!(
            error("1d20+1000+1"),
            "\"1d20+1000+1\": modifier must be within -1000..=1000"
        );
        assert_eq!(error(""), "\"\": dice notation is empty");
        assert_eq!(error("   "), "\"\": dice notation is empty");
        assert_eq!(error("5"), "\"5\": no dice to roll; write dice like 1d20");
        assert_eq!(
            error("1d20+x"),
            "\"1d20+x\": unexpected 'x' at position 6; expected dice like 1d20 or a number"
        );
        assert_eq!(
            error("1d20+"),
            "\"1d20+\": ends too early; expected dice like 1d20 or a number"
        );
        assert_eq!(
            error("1d"),
            "\"1d\": ends too early; expected the number of sides after 'd'"
        );
        assert_eq!(
            error("2d20kh"),
            "\"2d20kh\": ends too early; expected how many dice to keep after 'kh' or 'kl'"
        );
        assert_eq!(
            error("1d20 5"),
            "\"1d20 5\": unexpected '5' at position 6; expected '+' or '-' between terms"
        );
        assert_eq!(
            error("2d6d6"),
            "\"2d6d6\": unexpected 'd' at position 4; expected '+' or '-' between terms"
        );
        assert_eq!(
            error("1d20+5 for Perception"),
            "\"1d20+5 for Perception\": unexpected 'f' at position 8; expected '+' or '-' between terms"
        );
    }

    #[test]
    fn errors_on_huge_numbers_without_overflow() {
        assert_eq!(
            error("99999999999999999999d6"),
            "\"99999999999999999999d6\": dice count must be 1..=100"
        );
        assert_eq!(
            error("1d99999999999999999999"),
            "\"1d99999999999999999999\": dice sides must be 2..=1000"
        );
        assert_eq!(
            error("1d6+99999999999999999999"),
            "\"99999999999999999999\": modifier must be within -1000..=1000"
        );
    }

    #[test]
    fn term_and_length_bounds() {
        let ten = ["1d6"; 10].join("+");
        assert!(DiceExpr::parse(&ten).is_ok());
        let eleven = ["1d6"; 11].join("+");
        assert!(error(&eleven).ends_with("at most 10 dice terms are allowed"));
        let long = format!("1d6{}", "+1".repeat(50));
        assert!(error(&long).ends_with("dice notation is longer than 100 characters"));
        assert!(error(&long).starts_with("\"1d6+1+1"));
    }

    #[test]
    fn accessors_on_the_error() {
        let err = DiceExpr::parse("0d6").unwrap_err();
        assert_eq!(err.fragment(), "0d6");
        assert_eq!(err.problem(), &DiceProblem::DiceCount);
    }

    #[test]
    fn serde_round_trip_as_canonical_string() {
        let expr: DiceExpr = serde_json::from_str("\"2D20 kh1 + 5\"").unwrap();
        assert_eq!(serde_json::to_string(&expr).unwrap(), "\"2d20kh1+5\"");
        assert!(serde_json::from_str::<DiceExpr>("\"0d6\"").is_err());
        assert_eq!("d20".parse::<DiceExpr>().unwrap().to_string(), "1d20");
    }

    #[test]
    fn notation_with_bonus_merges_into_the_modifier() {
        let expr = DiceExpr::parse("1d20").unwrap();
        assert_eq!(expr.notation_with_bonus(2), "1d20+2");
        assert_eq!(expr.notation_with_bonus(-1), "1d20-1");
        let expr = DiceExpr::parse("1d20+1").unwrap();
        assert_eq!(expr.notation_with_bonus(-1), "1d20");
    }
}
