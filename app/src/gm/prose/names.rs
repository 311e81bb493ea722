//! Proper names in prose, found by the rules without a model: runs of capitalised words inside a
//! sentence (a sentence's first word is capitalised anyway, so it starts no name), and whether
//! the words before a name make it a place ("to the Old Mill", "in Hollowmere").

use crate::gm::prose::lexicon::{NOT_NAMES, PLACE_WORDS};

/// The most words one name has.
const MAX_NAME_WORDS: usize = 4;

/// A proper name as found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name as written (`Old Mill`).
    pub text: String,
    /// Whether the words before it make it a place.
    pub place: bool,
}

impl Name {
    /// The name, a place if either mention makes it one.
    pub fn merged(self, other: &Name) -> Self {
        Self {
            place: self.place || other.place,
            ..self
        }
    }
}

/// One word of a text with what comes before it.
struct Word<'a> {
    text: &'a str,
    /// Whether a sentence starts with it.
    starts_sentence: bool,
    /// Whether only spaces separate it from the word before.
    joined: bool,
}

/// The proper names of `text` in the order they first appear, each once (a later mention as a
/// place makes it a place).
pub fn proper_names(text: &str) -> Vec<Name> {
    let words = split(text);
    let mut names: Vec<Name> = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let mut end = at;
        while end < words.len()
            && capitalised(words[end].text)
            && (end == at || words[end].joined)
            && end - at < MAX_NAME_WORDS
        {
            end += 1;
        }
        if end == at {
            at += 1;
            continue;
        }
        let mut first = at;
        if words[at].starts_sentence {
            first += 1;
        }
        while first < end && NOT_NAMES.contains(&words[first].text) {
            first += 1;
        }
        if first < end {
            let text: Vec<&str> = words[first..end].iter().map(|word| word.text).collect();
            let place = first == at && after_place_word(&words[..first]);
            remember(&mut names, text.join(" "), place);
        }
        at = end;
    }
    names
}

/// Whether the words before a name (`before`, the nearest last) make it a place: one of
/// [`PLACE_WORDS`], or `to the`.
fn after_place_word(before: &[Word<'_>]) -> bool {
    let word = |back: usize| {
        before
            .len()
            .checked_sub(back)
            .map(|at| before[at].text.to_lowercase())
            .unwrap_or_default()
    };
    if word(1) == "the" {
        PLACE_WORDS.contains(&word(2).as_str()) || word(2) == "to"
    } else {
        PLACE_WORDS.contains(&word(1).as_str())
    }
}

fn remember(names: &mut Vec<Name>, text: String, place: bool) {
    match names.iter_mut().find(|name| name.text == text) {
        Some(known) => known.place |= place,
        None => names.push(Name { text, place }),
    }
}

/// Whether a word reads as part of a name: a capital letter, then letters (at least two in all).
fn capitalised(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase)
        && word.chars().count() >= 2
        && chars.all(|c| c.is_alphabetic() || c == '-')
        && !word.chars().all(char::is_uppercase)
}

/// The words of `text` (letters, with inner hyphens; a possessive `'s` dropped).
fn split(text: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut starts_sentence = true;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| c.is_alphanumeric())
            .unwrap_or(rest.len());
        let gap = &rest[..start];
        if gap.contains([
            '.', '!', '?', ':', ';', '\n', '"', '“', '”', '#', '*', '(', '—',
        ]) {
            starts_sentence = true;
        }
        let joined = !gap.is_empty() && gap.chars().all(|c| c == ' ');
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '-'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let word = rest[..end].trim_end_matches('-');
        words.push(Word {
            text: word,
            starts_sentence,
            joined,
        });
        starts_sentence = false;
        rest = &rest[end..];
        if let Some(after) = rest.strip_prefix("'s").or_else(|| rest.strip_prefix("’s")) {
            // A possessive ends the name it follows: an empty word stands between.
            rest = after;
            words.push(Word {
                text: "",
                starts_sentence: false,
                joined: false,
            });
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, bool)> {
        proper_names(text)
            .into_iter()
            .map(|name| (name.text, name.place))
            .collect()
    }

    #[test]
    fn names_inside_sentences_are_found_and_places_by_their_preposition() {
        assert_eq!(
            found("You follow Oswin Vell to the Old Mill. Rain falls in Hollowmere, not on Tam."),
            [
                ("Oswin Vell".to_owned(), false),
                ("Old Mill".to_owned(), true),
                ("Hollowmere".to_owned(), true),
                ("Tam".to_owned(), false),
            ]
        );
    }

    #[test]
    fn a_sentence_start_a_pronoun_or_a_shout_is_no_name() {
        assert!(found("Mira nods. You smile. \"Welcome,\" I say. HALT!").is_empty());
        assert_eq!(
            found("The Drowned Crypt waits.\n\n**Mira** hands Oswin's ring to Tam."),
            [
                ("Drowned Crypt".to_owned(), false),
                ("Oswin".to_owned(), false),
                ("Tam".to_owned(), false),
            ]
        );
    }
}
