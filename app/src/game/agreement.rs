//! What the player and the game master agree on before play (and may change later): the game
//! master's style, and the table's safety tools from tabletop play — *lines* (what never appears
//! in the story) and *veils* (what may happen, but off-screen).
//!
//! The rules read a line in prose by its words: a sentence crosses a line when it holds every
//! word of three letters or more the line has (common words aside), each in any of its forms
//! that starts with the word's stem ("spider" finds "spiders" and "spidery"). A line is a topic,
//! so its words are few; a veil is only told to the model.
//!
//! The agreement across the layers: these rules; the event that changes it and the state that
//! keeps it in `campaign/`; the lines and veils held in the prompt and a scene that crosses a line
//! held back in `gm/prose/lines.rs`; changed in play by `service/agreement.rs` through
//! `api/play/set_agreement.rs`; written at creation and in play in `ui/agreement.rs` and
//! `ui/play/agreement.rs`.

use serde::{Deserialize, Serialize};

/// The most lines, and the most veils, a table keeps.
pub const MAX_BOUNDARIES: usize = 8;

/// The longest line or veil, in characters.
pub const MAX_BOUNDARY_CHARS: usize = 80;

/// How the game master tells the story.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Few words: what matters, then the choice.
    Terse,
    /// Sights, sounds and smells (the default).
    #[default]
    Vivid,
    /// Hard, dark and costly.
    Grim,
    /// Warm, with room for humour.
    Light,
}

impl Style {
    /// Every style, in the order the forms offer them.
    pub const ALL: [Self; 4] = [Self::Vivid, Self::Terse, Self::Grim, Self::Light];

    /// Its name in forms.
    pub fn name(self) -> &'static str {
        match self {
            Self::Terse => "terse",
            Self::Vivid => "vivid",
            Self::Grim => "grim",
            Self::Light => "light",
        }
    }

    /// The style named `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|style| style.name() == name)
    }

    /// What the game master is told about it.
    pub fn guidance(self) -> &'static str {
        match self {
            Self::Terse => "terse: two or three short sentences a scene, only what matters",
            Self::Vivid => "vivid: concrete sights, sounds and smells, in a few paragraphs",
            Self::Grim => "grim: a hard, dark world where choices cost something",
            Self::Light => "light: warm and playful, with room for humour",
        }
    }
}

/// A line or a veil: a short topic, with at least one word the rules can find.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Boundary {
    text: String,
    stems: Vec<String>,
}

/// Why a line or a veil is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgreementError {
    /// Longer than [`MAX_BOUNDARY_CHARS`].
    #[error("a line or veil is at most {MAX_BOUNDARY_CHARS} characters (this one has {chars})")]
    TooLong {
        /// Its length.
        chars: usize,
    },
    /// Holds a control character.
    #[error("a line or veil holds a control character")]
    Control,
    /// Has no word of three letters or more besides common ones.
    #[error("{0:?} has no word the rules can look for (one of three letters or more)")]
    NoWords(String),
    /// More than [`MAX_BOUNDARIES`].
    #[error("a table keeps at most {MAX_BOUNDARIES} lines and {MAX_BOUNDARIES} veils")]
    TooMany,
}

impl TryFrom<String> for Boundary {
    type Error = AgreementError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        let chars = text.chars().count();
        if chars > MAX_BOUNDARY_CHARS {
            return Err(AgreementError::TooLong { chars });
        }
        if text.chars().any(char::is_control) {
            return Err(AgreementError::Control);
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let stems: Vec<String> = words(&text)
            .filter(|word| word.chars().count() >= 3 && !COMMON.contains(&word.as_str()))
            .map(|word| stem(&word).to_owned())
            .collect();
        if stems.is_empty() {
            return Err(AgreementError::NoWords(text));
        }
        Ok(Self { text, stems })
    }
}

impl From<Boundary> for String {
    fn from(boundary: Boundary) -> Self {
        boundary.text
    }
}

impl Boundary {
    /// The topic as the player wrote it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `sentence` holds every word of this boundary: a word that starts with its stem
    /// and runs on by at most three letters.
    fn within(&self, sentence: &[String]) -> bool {
        self.stems.iter().all(|stem| {
            sentence.iter().any(|word| {
                word.strip_prefix(stem.as_str())
                    .is_some_and(|rest| rest.chars().count() <= 3)
            })
        })
    }
}

/// Words too common to look for.
const COMMON: [&str; 16] = [
    "the", "and", "any", "all", "for", "with", "not", "off", "from", "into", "about", "its",
    "their", "his", "her", "our",
];

/// The lower-cased words of `text` (letters and digits).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// `word` without a plural or verb ending, kept at three letters or more.
fn stem(word: &str) -> &str {
    ["ies", "es", "s", "ing", "ed"]
        .iter()
        .find_map(|ending| {
            word.strip_suffix(ending)
                .filter(|rest| rest.chars().count() >= 3)
        })
        .unwrap_or(word)
}

/// The game master's style, the table's lines and veils.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "AgreementFields")]
pub struct TableAgreement {
    style: Style,
    lines: Vec<Boundary>,
    veils: Vec<Boundary>,
}

/// A table agreement as stored, before its bounds are checked.
#[derive(Deserialize)]
struct AgreementFields {
    #[serde(default)]
    style: Style,
    #[serde(default)]
    lines: Vec<Boundary>,
    #[serde(default)]
    veils: Vec<Boundary>,
}

impl TryFrom<AgreementFields> for TableAgreement {
    type Error = AgreementError;

    fn try_from(fields: AgreementFields) -> Result<Self, Self::Error> {
        if fields.lines.len() > MAX_BOUNDARIES || fields.veils.len() > MAX_BOUNDARIES {
            return Err(AgreementError::TooMany);
        }
        Ok(Self {
            style: fields.style,
            lines: fields.lines,
            veils: fields.veils,
        })
    }
}

impl TableAgreement {
    /// An agreement of `style` with the `lines` and `veils` as typed (blank ones skipped).
    pub fn new(style: Style, lines: &[String], veils: &[String]) -> Result<Self, AgreementError> {
        let parse = |list: &[String]| -> Result<Vec<Boundary>, AgreementError> {
            list.iter()
                .filter(|text| !text.trim().is_empty())
                .map(|text| Boundary::try_from(text.trim().to_owned()))
                .collect()
        };
        AgreementFields {
            style,
            lines: parse(lines)?,
            veils: parse(veils)?,
        }
        .try_into()
    }

    /// The game master's style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// What never appears in the story.
    pub fn lines(&self) -> &[Boundary] {
        &self.lines
    }

    /// What happens only off-screen.
    pub fn veils(&self) -> &[Boundary] {
        &self.veils
    }

    /// The lines some sentence of `text` crosses, each once.
    pub fn crossed(&self, text: &str) -> Vec<&Boundary> {
        let sentences: Vec<Vec<String>> = sentences(text).map(|s| words(s).collect()).collect();
        self.lines
            .iter()
            .filter(|line| sentences.iter().any(|sentence| line.within(sentence)))
            .collect()
    }

    /// The lines and veils some sentence of `text` holds, each once: what a picture may not
    /// show (a veil may happen, but never on screen).
    pub fn pictured(&self, text: &str) -> Vec<&Boundary> {
        let sentences: Vec<Vec<String>> = sentences(text).map(|s| words(s).collect()).collect();
        self.lines
            .iter()
            .chain(&self.veils)
            .filter(|boundary| sentences.iter().any(|sentence| boundary.within(sentence)))
            .collect()
    }

    /// `text` without its sentences that cross a line, and how many were left out.
    pub fn without_crossing(&self, text: &str) -> (String, usize) {
        let mut kept = String::with_capacity(text.len());
        let mut cut = 0;
        for sentence in sentences(text) {
            let sentence_words: Vec<String> = words(sentence).collect();
            if self.lines.iter().any(|line| line.within(&sentence_words)) {
                cut += 1;
            } else {
                kept.push_str(sentence);
            }
        }
        (kept.trim().to_owned(), cut)
    }
}

/// `text` in sentences, each with what follows it up to the next (spaces and line breaks kept,
/// so the sentences joined are the text).
pub fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = sentence_end(rest).unwrap_or(rest.len());
        let (sentence, after) = rest.split_at(end);
        rest = after;
        Some(sentence)
    })
}

/// Where the first sentence of `text` ends, with the spaces after it, if it ends.
pub fn sentence_end(text: &str) -> Option<usize> {
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let ends = matches!(c, '.' | '!' | '?' | '\n')
            && chars.peek().is_none_or(|(_, next)| next.is_whitespace());
        if ends {
            let mut end = at + c.len_utf8();
            while let Some((next_at, next)) = chars.peek().copied() {
                if !next.is_whitespace() {
                    break;
                }
                end = next_at + next.len_utf8();
                chars.next();
            }
            return Some(end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(lines: &[&str], veils: &[&str]) -> TableAgreement {
        let own = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        TableAgreement::new(Style::Grim, &own(lines), &own(veils)).unwrap()
    }

    #[test]
    fn a_line_is_found_in_any_form_within_one_sentence() {
        let table = table(&["spiders", "harm to children"], &[]);
        let crossed = |text: &str| {
            table
                .crossed(text)
                .iter()
                .map(|line| line.as_str().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(crossed("A spider drops from the beam."), ["spiders"]);
        assert_eq!(crossed("Spidery shadows crawl."), ["spiders"]);
        assert!(crossed("The inspector smiles.").is_empty());
        assert!(crossed("Spiderwebbing hangs everywhere.").is_empty());
        // Every word of the line, in one sentence.
        assert!(crossed("No harm done. The children laugh.").is_empty());
        assert_eq!(crossed("They harmed the children."), ["harm to children"]);
    }

    #[test]
    fn crossing_sentences_are_cut_and_the_rest_kept_whole() {
        let table = table(&["spiders"], &[]);
        let (kept, cut) = table.without_crossing(
            "The cellar is cold. A spider the size of a fist waits!\nYou hear water. What now?",
        );
        assert_eq!(cut, 1);
        assert_eq!(kept, "The cellar is cold. You hear water. What now?");
    }

    #[test]
    fn lines_and_veils_are_bounded() {
        let long = "x".repeat(10_240);
        let refused = TableAgreement::new(Style::Vivid, &[long], &[]).unwrap_err();
        assert_eq!(refused, AgreementError::TooLong { chars: 10_240 });
        assert!(refused.to_string().contains("at most 80 characters"));
        let many: Vec<String> = (0..9).map(|n| format!("topic {n}")).collect();
        assert_eq!(
            TableAgreement::new(Style::Vivid, &[], &many).unwrap_err(),
            AgreementError::TooMany
        );
        assert!(matches!(
            TableAgreement::new(Style::Vivid, &["of it".into()], &[]),
            Err(AgreementError::NoWords(_))
        ));
        // Blank entries are skipped; spaces are tidied.
        let tidy = table(&["  rats   and  snakes ", " "], &["torture"]);
        assert_eq!(tidy.lines()[0].as_str(), "rats and snakes");
        assert_eq!(tidy.lines().len(), 1);
    }

    #[test]
    fn a_stored_agreement_is_held_to_the_same_bounds() {
        let table = table(&["spiders"], &["torture"]);
        let json = serde_json::to_string(&table).unwrap();
        assert_eq!(
            json,
            r#"{"style":"grim","lines":["spiders"],"veils":["torture"]}"#
        );
        assert_eq!(
            serde_json::from_str::<TableAgreement>(&json).unwrap(),
            table
        );
        let too_long = format!(r#"{{"lines":["{}"]}}"#, "y".repeat(81));
        assert!(serde_json::from_str::<TableAgreement>(&too_long).is_err());
        let default: TableAgreement = serde_json::from_str("{}").unwrap();
        assert_eq!(default, TableAgreement::default());
    }

    #[test]
    fn sentences_joined_are_the_text() {
        let text = "One. Two? 3.5 is a number!\n\nFour";
        let parts: Vec<&str> = sentences(text).collect();
        assert_eq!(parts, ["One. ", "Two? ", "3.5 is a number!\n\n", "Four"]);
        assert_eq!(parts.concat(), text);
    }
}
