//! The narration as the claim patterns read it: quoted speech dropped (a character may say
//! anything), questions dropped (they claim nothing), the rest cut into sentences and each
//! sentence into clauses of lower-case words. Apostrophes stay inside words (`goblin's`,
//! `you're`), curly ones made straight; hyphens and other punctuation split words.

use crate::gm::prose::lexicon::{CLAUSE_OPENERS, NUMBER_NAMES, TENS};

/// One clause: its words, lower case, in order.
pub(super) type Clause = Vec<String>;

/// The narration's asserting sentences, each as its clauses.
pub(super) fn sentences(narration: &str) -> Vec<Vec<Clause>> {
    raw_sentences(&without_speech(narration))
        .into_iter()
        .filter(|sentence| !sentence.trim_end().ends_with('?'))
        .map(|sentence| clauses(&sentence))
        .filter(|clauses| !clauses.is_empty())
        .collect()
}

/// `text` without quoted speech (`"…"` and `“…”`), apostrophes made straight.
fn without_speech(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '“' => quoted = true,
            '”' => quoted = false,
            '’' | '‘' if !quoted => out.push('\''),
            _ if !quoted => out.push(c),
            _ => {}
        }
    }
    out
}

/// The sentences of `text`, each with its end mark (`.`, `!`, `?`, a line break).
fn raw_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '.' | '!' | '?' | '\n') {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.retain(|s| s.chars().any(char::is_alphanumeric));
    out
}

/// A sentence's clauses: cut at `,`, `;`, `:`, dashes and brackets, and before each
/// [`CLAUSE_OPENERS`] word.
fn clauses(sentence: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    for piece in sentence.split([',', ';', ':', '—', '–', '(', ')', '[', ']']) {
        let mut clause = Clause::new();
        for word in words(piece) {
            if CLAUSE_OPENERS.contains(&word.as_str()) && !clause.is_empty() {
                out.push(std::mem::take(&mut clause));
            }
            clause.push(word);
        }
        if !clause.is_empty() {
            out.push(clause);
        }
    }
    out
}

/// The lower-case words of `text`: letters, digits and inner apostrophes.
pub(super) fn words(text: &str) -> Vec<String> {
    text.replace(['’', '‘'], "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|word| word.trim_matches('\''))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The number a word stands for: digits (`12`) or a small number's name (`twelve`).
pub(super) fn number(word: &str) -> Option<u32> {
    if !word.is_empty() && word.len() <= 6 && word.bytes().all(|b| b.is_ascii_digit()) {
        return word.parse().ok();
    }
    NUMBER_NAMES
        .iter()
        .position(|name| *name == word)
        .and_then(|n| u32::try_from(n).ok())
        .or_else(|| TENS.iter().find(|(name, _)| *name == word).map(|(_, n)| *n))
}

/// `word` without a plural `s` (`coins` → `coin`, `boxes` → `box`, `glass` stays).
pub(super) fn singular(word: &str) -> &str {
    if word.len() > 3 && word.ends_with("es") && (word.ends_with("xes") || word.ends_with("ches")) {
        &word[..word.len() - 2]
    } else if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        &word[..word.len() - 1]
    } else {
        word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speech_and_questions_are_left_out() {
        let text = "\"You'll take 10 damage,\" he warns. Do you take the key? You pocket it.";
        let found = sentences(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0], [vec!["he", "warns"]]);
        assert_eq!(found[1], [vec!["you", "pocket", "it"]]);
    }

    #[test]
    fn clauses_are_cut_at_punctuation_and_openers() {
        let found = sentences("The goblin staggers, then collapses as you step back.");
        assert_eq!(
            found[0],
            [
                vec!["the", "goblin", "staggers"],
                vec!["then", "collapses"],
                vec!["as", "you", "step", "back"]
            ]
        );
        assert_eq!(
            words("You’re down—the goblin’s blade"),
            ["you're", "down", "the", "goblin's", "blade"]
        );
    }

    #[test]
    fn numbers_and_plurals() {
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("twelve"), Some(12));
        assert_eq!(number("fifty"), Some(50));
        assert_eq!(number("2d4"), None);
        assert_eq!(singular("coins"), "coin");
        assert_eq!(singular("torches"), "torch");
        assert_eq!(singular("glass"), "glass");
        assert_eq!(singular("key"), "key");
    }
}
