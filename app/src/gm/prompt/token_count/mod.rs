//! Estimated tokens of a text, in work linear in its length.
//!
//! The cl100k tokenizer splits a text into pieces (words with their leading space, runs of
//! punctuation, of digits, of white space) and merges each piece's bytes pair by pair, which takes
//! time quadratic in the piece's length: one word of 128 KiB took seconds, one of 1.9 MiB (an
//! imported file can carry one) would take minutes. So the text is counted in chunks cut where the
//! tokenizer cuts it anyway, before a space that starts a word (the count is exactly the
//! tokenizer's there), and a run of more than [`MAX_RUN_BYTES`] without such a place is cut every
//! [`MAX_RUN_BYTES`] (its count is then close to, not exactly, the tokenizer's).

mod cl100k;

use std::hash::BuildHasher;
use std::sync::{Mutex, OnceLock, PoisonError};

use hashbrown::{DefaultHashBuilder, HashMap};

/// The longest run without a word's start that is counted in one piece.
const MAX_RUN_BYTES: usize = 256;

/// The most text counted in one call of the tokenizer (fewer calls for long ordinary texts).
const CHUNK_BYTES: usize = 16 * 1024;

/// How many texts' token counts are remembered (the prefix, the tools, the recent messages:
/// most of every prompt was counted for the call before).
const REMEMBERED_COUNTS: usize = 4_096;

/// Estimated tokens of a text (the cl100k tokenizer; providers differ a little). Counts are
/// remembered by the text's 64-bit hash (foldhash's: the texts are the prompt's own, and a
/// prompt's whole window is hashed on every call).
pub fn tokens(text: &str) -> usize {
    static HASHER: OnceLock<DefaultHashBuilder> = OnceLock::new();
    static COUNTS: OnceLock<Mutex<HashMap<u64, usize>>> = OnceLock::new();
    let key = HASHER
        .get_or_init(DefaultHashBuilder::default)
        .hash_one(text);
    let counts = COUNTS.get_or_init(Mutex::default);
    let remembered = counts
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .copied();
    if let Some(count) = remembered {
        return count;
    }
    let tokenizer = cl100k::cl100k();
    let count = chunks(text).map(|chunk| tokenizer.count(chunk)).sum();
    let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
    if counts.len() >= REMEMBERED_COUNTS {
        counts.clear();
    }
    counts.insert(key, count);
    count
}

/// `text` in consecutive chunks: cut before the first space that starts a word once a chunk has
/// [`CHUNK_BYTES`], and inside a run without one every [`MAX_RUN_BYTES`].
fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut run = 0;
    let mut cuts = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some((at, c)) = cuts.next() {
            let starts_word =
                c == ' ' && cuts.peek().is_some_and(|&(_, next)| !next.is_whitespace());
            if starts_word {
                run = at;
            }
            let cut = if starts_word {
                at - start >= CHUNK_BYTES
            } else {
                at - run >= MAX_RUN_BYTES
            };
            if cut {
                run = at;
                let chunk = &text[start..at];
                start = at;
                return Some(chunk);
            }
        }
        (start < text.len()).then(|| {
            let chunk = &text[start..];
            start = text.len();
            chunk
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gm::GmSettings;

    fn tokenizer(text: &str) -> usize {
        tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(text)
            .len()
    }

    #[test]
    fn ordinary_text_counts_exactly_as_the_tokenizer() {
        let rules = GmSettings::default().rules();
        let prose = "The ghoul's claw finds you;  a bone charm falls from its rags.\n\n\
                     \"Run!\" she cries — 1,234 coins,\t   scattered.  ";
        let json = r#"{"hpChange":-3,"addConditions":[{"name":"Poisoned","duration":"1 hour","notes":null}]}"#;
        let long = format!("{rules}\n{}", prose.repeat(400));
        assert!(long.len() > 2 * CHUNK_BYTES, "counted in several chunks");
        for text in [rules, prose, json, long.as_str(), "", " ", "  x"] {
            assert_eq!(tokens(text), tokenizer(text), "{text:.80}");
        }
    }

    #[test]
    fn no_piece_of_a_long_word_or_space_is_longer_than_a_run() {
        for text in [
            "é".repeat(100_000),
            " ".repeat(100_000),
            "\n".repeat(100_000),
        ] {
            let pieces: Vec<&str> = chunks(&text).collect();
            assert_eq!(pieces.concat(), text);
            assert!(pieces.iter().all(|piece| piece.len() <= MAX_RUN_BYTES));
        }
    }

    #[test]
    fn a_word_of_1_9_mib_is_counted_piece_by_piece() {
        // 32 letters a period: every piece of the word is the same.
        let word = "thequickbrownfoxjumpsoverthelazy".repeat(1_900 * 1024 / 32);
        let count = tokens(&word);
        let pieces = word.len() / MAX_RUN_BYTES;
        assert_eq!(count, tokenizer(&word[..MAX_RUN_BYTES]) * pieces);
        assert!(
            (word.len() / 16..word.len() / 2).contains(&count),
            "{count}"
        );
        assert_eq!(
            tokens(&word[..word.len() / 2]) * 2,
            count,
            "linear in the length"
        );
    }
}
