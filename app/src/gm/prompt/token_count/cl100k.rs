//! The cl100k tokenizer, for counting only, in about 2 MB.
//!
//! `tiktoken-rs` keeps each of the 100,256 tokens three times (bytes to rank, rank to bytes, and
//! sorted), each in an allocation of its own: 27 MB resident, over half of the server's memory
//! budget. Counting needs one lookup, bytes to rank, so here every token's bytes sit in one buffer
//! and the lookup table holds only ranks (4 bytes each) hashed by those bytes.
//!
//! The counts are the tokenizer's: the text is split by cl100k's own pattern, and each piece that
//! is not a token is merged pair by pair, lowest rank first, as byte-pair encoding does. A test
//! compares the counts with `tiktoken-rs`'s on varied texts.

use std::hash::BuildHasher;
use std::sync::OnceLock;

use base64::Engine;
use fancy_regex::Regex;
use hashbrown::{DefaultHashBuilder, HashTable};

/// The ranks, one line per token in rank order: the token's bytes in base64, a space, its rank.
/// From OpenAI's `tiktoken` (MIT).
const RANKS: &str = include_str!("cl100k_base.tiktoken");

/// How cl100k cuts a text into pieces before merging (contractions, words with the character
/// before them, up to three digits, punctuation runs, line breaks, other white space).
const PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// No pair merges into a token.
const NO_RANK: u32 = u32::MAX;

/// The tokenizer, loaded at its first use (about 30 ms).
pub fn cl100k() -> &'static Cl100k {
    static TOKENIZER: OnceLock<Cl100k> = OnceLock::new();
    TOKENIZER.get_or_init(Cl100k::load)
}

/// cl100k's tokens and pattern, enough to count a text's tokens.
pub struct Cl100k {
    /// Every token's bytes, in rank order.
    bytes: Vec<u8>,
    /// Where each token's bytes end in `bytes` (a token starts where the one before ends).
    ends: Vec<u32>,
    /// The ranks, hashed by their token's bytes.
    ranks: HashTable<u32>,
    hasher: DefaultHashBuilder,
    pattern: Regex,
}

impl Cl100k {
    /// Reads the ranks shipped in the binary. They are fixed data, checked by the tests, so a
    /// malformed line is a bug in the build, not a runtime error.
    fn load() -> Self {
        let mut bytes = Vec::with_capacity(RANKS.len() / 2);
        let mut ends = Vec::new();
        let base64 = base64::engine::general_purpose::STANDARD;
        for (rank, line) in RANKS.lines().enumerate() {
            let (token, stated) = line.split_once(' ').expect("a token and its rank");
            assert_eq!(stated.parse(), Ok(rank), "the ranks are the line numbers");
            base64
                .decode_vec(token, &mut bytes)
                .expect("a token in base64");
            ends.push(bytes.len() as u32);
        }
        bytes.shrink_to_fit();
        let hasher = DefaultHashBuilder::default();
        let hash = |rank| hasher.hash_one(token_bytes(&bytes, &ends, rank));
        let mut ranks = HashTable::with_capacity(ends.len());
        for rank in 0..ends.len() as u32 {
            ranks.insert_unique(hash(rank), rank, |&other| hash(other));
        }
        Cl100k {
            bytes,
            ends,
            ranks,
            hasher,
            pattern: Regex::new(PATTERN).expect("cl100k's pattern compiles"),
        }
    }

    /// How many tokens `text` makes (special tokens are counted as ordinary text).
    pub fn count(&self, text: &str) -> usize {
        let mut count = 0;
        for piece in self.pattern.find_iter(text) {
            match piece {
                Ok(piece) => count += self.count_piece(piece.as_str().as_bytes()),
                // The pattern's look-ahead ran out of its backtracking budget (not seen on texts
                // cut as `tokens` cuts them): no text has more tokens than bytes.
                Err(_) => return text.len(),
            }
        }
        count
    }

    /// The tokens of one piece of the pattern: merged pair by pair, lowest rank first (the
    /// leftmost pair among equals), until no pair of neighbours makes a token.
    fn count_piece(&self, piece: &[u8]) -> usize {
        if piece.len() < 2 || self.rank(piece) != NO_RANK {
            return piece.len().min(1);
        }
        // The parts' starts, then the piece's end; `pairs[k]` is the rank of parts k and k + 1.
        let mut starts: Vec<usize> = (0..=piece.len()).collect();
        let mut pairs: Vec<u32> = (0..piece.len() - 1)
            .map(|k| self.rank(&piece[k..k + 2]))
            .collect();
        loop {
            // Plain loops: this runs for every piece of every prompt, unoptimised in the tests.
            let (mut lowest, mut at) = (NO_RANK, 0);
            for (k, &rank) in pairs.iter().enumerate() {
                if rank < lowest {
                    (lowest, at) = (rank, k);
                }
            }
            if lowest == NO_RANK {
                break;
            }
            starts.remove(at + 1);
            pairs.remove(at);
            if at > 0 {
                pairs[at - 1] = self.rank(&piece[starts[at - 1]..starts[at + 1]]);
            }
            if at < pairs.len() {
                pairs[at] = self.rank(&piece[starts[at]..starts[at + 2]]);
            }
        }
        starts.len() - 1
    }

    /// The rank of the token made of `bytes`, or [`NO_RANK`].
    fn rank(&self, bytes: &[u8]) -> u32 {
        self.ranks
            .find(self.hasher.hash_one(bytes), |&rank| {
                self.token(rank) == bytes
            })
            .copied()
            .unwrap_or(NO_RANK)
    }

    fn token(&self, rank: u32) -> &[u8] {
        token_bytes(&self.bytes, &self.ends, rank)
    }
}

/// The bytes of the token of `rank`.
fn token_bytes<'a>(bytes: &'a [u8], ends: &[u32], rank: u32) -> &'a [u8] {
    let rank = rank as usize;
    let start = rank.checked_sub(1).map_or(0, |before| ends[before]) as usize;
    &bytes[start..ends[rank] as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiktoken(text: &str) -> usize {
        tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(text)
            .len()
    }

    #[test]
    fn every_token_is_one_token_and_found_by_its_bytes() {
        let tokenizer = cl100k();
        assert_eq!(tokenizer.ends.len(), 100_256);
        for rank in (0..100_256).step_by(97) {
            assert_eq!(tokenizer.rank(tokenizer.token(rank)), rank);
            assert_eq!(tokenizer.count_piece(tokenizer.token(rank)), 1);
        }
        assert_eq!(tokenizer.rank(b"not one token, surely"), NO_RANK);
    }

    #[test]
    fn counts_as_tiktoken_does() {
        let texts = [
            String::new(),
            " ".into(),
            "Hello, world!".into(),
            "The ghoul's claw finds you;  a bone charm falls from its rags.\n\n\"Run!\"".into(),
            "1234567 coins, 3.14159, 1d20+5 vs DC 15 — HP 11 → 8".into(),
            "  leading, trailing and   inner   spaces \t\ttabs\r\n\r\nlines  \n".into(),
            "Ünïcödé: café, naïve, Größe, 東京の夜, привет мир, 🐉🔥⚔️, مرحبا".into(),
            "I'LL, we've, they'RE, it's, you'd, 'tis".into(),
            r#"{"hpChange":-3,"addConditions":[{"name":"Poisoned","duration":"1 hour"}]}"#.into(),
            "<|endoftext|> is read as text here".into(),
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into(),
            "thequickbrownfoxjumpsoverthelazydog".repeat(8),
            crate::gm::GmSettings::default().rules().to_owned(),
        ];
        let tokenizer = cl100k();
        for text in &texts {
            assert_eq!(tokenizer.count(text), tiktoken(text), "{text:.60}");
        }
    }

    proptest::proptest! {
        #[test]
        fn counts_any_text_as_tiktoken_does(text in "[ a-zA-Z0-9',.!?\n\té東🐉-]{0,60}") {
            proptest::prop_assert_eq!(cl100k().count(&text), tiktoken(&text));
        }
    }
}
