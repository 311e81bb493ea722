//! The story as searchable text: each scene, move and aside of the story log in effect becomes a
//! [`Passage`] (plain text with its turn), which the store indexes in the same commit as the
//! turn; a [`SearchQuery`] is a bounded set of words to find passages by.

use super::story::StoryEntry;

/// The most words one query holds.
pub const MAX_QUERY_WORDS: usize = 16;

/// The most characters of one word of a query.
pub const MAX_WORD_CHARS: usize = 40;

/// The most characters a search typed by the player may have.
pub const MAX_SEARCH_CHARS: usize = 200;

/// Whose words a passage holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassageKind {
    /// A scene the game master narrated.
    Scene,
    /// The player's move.
    Move,
    /// The game master speaking to the player outside the story.
    Aside,
}

impl PassageKind {
    /// Its name in the index.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Scene => "scene",
            Self::Move => "move",
            Self::Aside => "aside",
        }
    }

    /// The kind of that name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Scene, Self::Move, Self::Aside]
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}

/// A piece of the story as text, found by its place in the story log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passage {
    /// Its index in the story log.
    pub index: u32,
    /// The turn it belongs to (a move belongs to the turn that narrates it).
    pub turn: u32,
    /// Whose words they are.
    pub kind: PassageKind,
    /// What it says, without markup.
    pub text: String,
}

/// What a search looks through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchScope {
    /// Only turns before this one.
    pub before_turn: u32,
    /// The player's moves too (the rules' recall reads only what the game master told).
    pub moves: bool,
    /// The most passages found.
    pub limit: u32,
    /// Only the words that set passages apart: a word in at least half of the searched
    /// passages, which BM25 weighs at (nearly) nothing, is left out before the ranking, and a
    /// query left with no word finds nothing (the rules' recall; a player's search looks for
    /// every word typed). Where the store ranks otherwise, every word is searched.
    pub telling_words_only: bool,
}

/// The passages of `story`, whose first entry is the story log's entry `first_index`; entries
/// after the last scene belong to `turn` (the campaign's turn after the commit).
pub fn passages(story: &[StoryEntry], first_index: u32, turn: u32) -> Vec<Passage> {
    let mut next_scene_turn = turn;
    let mut found = Vec::new();
    for (offset, entry) in story.iter().enumerate().rev() {
        let index = first_index.saturating_add(u32::try_from(offset).unwrap_or(u32::MAX));
        let (kind, text) = match entry {
            StoryEntry::Scene { html, turn } => {
                if *turn > 0 {
                    next_scene_turn = *turn;
                }
                (PassageKind::Scene, html_text(html))
            }
            StoryEntry::Move { text, .. } => (PassageKind::Move, text.trim().to_owned()),
            StoryEntry::Aside { text } => (PassageKind::Aside, text.trim().to_owned()),
            _ => continue,
        };
        if !text.is_empty() {
            found.push(Passage {
                index,
                turn: next_scene_turn,
                kind,
                text,
            });
        }
    }
    found.reverse();
    found
}

/// The text of a scene's sanitised HTML: tags dropped (a block's end becomes a line break) and
/// the entities the renderer writes decoded.
pub fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[open + 1..open + close];
        if tag.starts_with('/') && !text.ends_with('\n') && !inline(tag) {
            text.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    decode_entities(&text).trim().to_owned()
}

/// Whether a closing tag ends an inline element (its text runs on).
fn inline(tag: &str) -> bool {
    matches!(
        tag.trim_start_matches('/'),
        "em" | "strong" | "a" | "code" | "del" | "span" | "sup" | "sub"
    )
}

fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// The words of `text` as a search engine reads them: runs of letters and digits, lower-cased.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// Words to search the story for: 1 to [`MAX_QUERY_WORDS`] distinct words of letters and digits,
/// lower-cased, each 2 to [`MAX_WORD_CHARS`] characters, in the order given (the first ones
/// matter most).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchQuery(Vec<String>);

/// Why typed text is not a search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// No word of two letters or more.
    #[error("type a word of two letters or more to search for")]
    NoWords,
    /// Longer than [`MAX_SEARCH_CHARS`].
    #[error("a search may have at most {MAX_SEARCH_CHARS} characters")]
    TooLong,
}

impl SearchQuery {
    /// The query of `candidates` (any text; what is not a word is dropped, repeats are kept
    /// once, and past [`MAX_QUERY_WORDS`] the rest are dropped), or `None` without a word.
    pub fn of<'a>(candidates: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let mut kept: Vec<String> = Vec::new();
        for word in candidates.into_iter().flat_map(words) {
            let chars = word.chars().count();
            if (2..=MAX_WORD_CHARS).contains(&chars) && !kept.contains(&word) {
                kept.push(word);
                if kept.len() == MAX_QUERY_WORDS {
                    break;
                }
            }
        }
        (!kept.is_empty()).then_some(Self(kept))
    }

    /// What the player typed in the story's search box.
    pub fn parse(typed: &str) -> Result<Self, SearchError> {
        if !super::bounds::fits(typed, MAX_SEARCH_CHARS) {
            return Err(SearchError::TooLong);
        }
        Self::of([typed]).ok_or(SearchError::NoWords)
    }

    /// The words.
    pub fn words(&self) -> &[String] {
        &self.0
    }

    /// The query's words that `text` holds, in the query's order.
    pub fn matched(&self, text: &str) -> Vec<String> {
        let present: std::collections::HashSet<String> = words(text).collect();
        self.0
            .iter()
            .filter(|word| present.contains(*word))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(html: &str, turn: u32) -> StoryEntry {
        StoryEntry::Scene {
            html: html.into(),
            turn,
        }
    }

    #[test]
    fn scenes_moves_and_asides_become_passages_with_their_turn() {
        let story = vec![
            StoryEntry::Move {
                text: "I hail the ferryman".into(),
                by: None,
            },
            StoryEntry::Roll {
                line: "Rolled 1d20: [4] = 4".into(),
                dice: Vec::new(),
                analysis: None,
                verdict: None,
                by: Default::default(),
                natural: None,
            },
            scene(
                "<p><strong>Oswin</strong> poles closer &amp; grins.</p><p>Rain.</p>",
                7,
            ),
            StoryEntry::Aside {
                text: "The river is deep.".into(),
            },
        ];
        let found = passages(&story, 20, 8);
        let summary: Vec<(u32, u32, PassageKind, &str)> = found
            .iter()
            .map(|p| (p.index, p.turn, p.kind, p.text.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (20, 7, PassageKind::Move, "I hail the ferryman"),
                (
                    22,
                    7,
                    PassageKind::Scene,
                    "Oswin poles closer & grins.\nRain."
                ),
                (23, 8, PassageKind::Aside, "The river is deep."),
            ]
        );
    }

    #[test]
    fn a_query_keeps_distinct_words_within_its_bounds() {
        let query = SearchQuery::of(["Oswin's ring, OSWIN!", "a ring of bone"]).unwrap();
        assert_eq!(query.words(), ["oswin", "ring", "of", "bone"]);
        assert_eq!(SearchQuery::of(["a . ?"]), None);
        let many: Vec<String> = (0..40).map(|n| format!("word{n}")).collect();
        let query = SearchQuery::of(many.iter().map(String::as_str)).unwrap();
        assert_eq!(query.words().len(), MAX_QUERY_WORDS);
        assert_eq!(SearchQuery::parse(" ? "), Err(SearchError::NoWords));
        assert_eq!(
            SearchQuery::parse(&"a".repeat(MAX_SEARCH_CHARS + 1)),
            Err(SearchError::TooLong)
        );
        assert_eq!(
            SearchQuery::of(["ring"])
                .unwrap()
                .matched("The Ring, and more rings."),
            ["ring"]
        );
    }
}
