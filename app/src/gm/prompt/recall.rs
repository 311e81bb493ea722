//! Recall: before each narration the rules search the campaign's own story for the few older
//! passages this move brings back — by the player's words, the names in the current scene and
//! the journal's open threads — and the prompt holds them as a bounded layer, "from earlier in
//! the story", each with its turn. No model call: the store's full-text index ranks them. Only
//! what the game master told is recalled (scenes and asides): the player's own moves are
//! searched from the play screen, not fed back.
//!
//! Recall across the layers: this file picks the words and cuts the passages; the story made
//! searchable in `campaign/passage.rs`; the index in `server/src/store/sql_search.rs`; the search
//! run for a turn and for the player in `service/recall.rs` (through `api/play/search_story.rs`,
//! shown by `ui/play/story_search.rs`); the recalled passages kept by the turn's `Recalled` event
//! and shown in the context inspector.

use std::fmt::Write;

use super::token_count::tokens;
use crate::campaign::bounds::MAX_RECALLED;
use crate::campaign::conversation::RecalledPassage;
use crate::campaign::passage::{words, Passage, SearchQuery};
use crate::campaign::state::CampaignState;
use crate::game::JournalKind;
use crate::gm::llm::Message;
use crate::gm::prose::lexicon::COMMON_MOVE_WORDS;
use crate::gm::prose::names::proper_names;

/// How many passages the store is asked for (the layer keeps those that fit its share).
pub const RECALL_CANDIDATES: u32 = 6;

/// The share of the prompt budget the recalled passages may take.
const RECALL_SHARE: usize = 10;

/// The most characters of one recalled passage (before the `…` that says it was cut).
const MAX_EXCERPT_CHARS: usize = MAX_RECALLED.1 - 1;

/// The shortest word of a move that is searched for (shorter ones are seldom what matters).
const MIN_MOVE_WORD_CHARS: usize = 4;

/// The words to search the story for before narrating a move of the player's `words`, or `None`
/// when nothing calls for a search (no words: the opening scene; common words only): the names
/// in the move, its other words, the names in the current scene, then the open threads' names —
/// never the character's own name, which every scene holds.
pub fn recall_query(state: &CampaignState, words_of_move: Option<&str>) -> Option<SearchQuery> {
    let text = words_of_move?;
    let hero: Vec<String> = words(state.sheet.name().as_str()).collect();
    let scene = state
        .context
        .last()
        .map(|turn| scene_text(&turn.messages))
        .unwrap_or_default();
    let threads = state
        .journal
        .entries()
        .iter()
        .filter(|entry| entry.open && entry.kind == JournalKind::Thread)
        .map(|entry| entry.name.as_str().to_owned());
    let candidates: Vec<String> = proper_names(text)
        .into_iter()
        .map(|name| name.text)
        .chain(words(text).filter(|word| {
            word.chars().count() >= MIN_MOVE_WORD_CHARS
                && !COMMON_MOVE_WORDS.contains(&word.as_str())
        }))
        .chain(proper_names(&scene).into_iter().map(|name| name.text))
        .chain(threads)
        .collect();
    let kept = candidates
        .iter()
        .flat_map(|candidate| words(candidate).collect::<Vec<_>>())
        .filter(|word| {
            word.chars().count() >= 3
                && !hero.contains(word)
                && !COMMON_MOVE_WORDS.contains(&word.as_str())
        })
        .collect::<Vec<_>>();
    SearchQuery::of(kept.iter().map(String::as_str))
}

/// The prose the model wrote in a turn.
fn scene_text(messages: &[Message]) -> String {
    messages
        .iter()
        .filter_map(|message| match message {
            Message::Assistant {
                content: Some(content),
                ..
            } => Some(&**content),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The turn before which passages are recalled: the oldest the model still holds verbatim (or
/// any turn, when it holds none).
pub fn recall_before(state: &CampaignState) -> u32 {
    state
        .context
        .first()
        .map_or(state.turn.saturating_add(1), |turn| turn.turn)
}

/// The passages to recall of those `found` (best first): the best ones, each cut to its
/// sentences that hold a searched word, while they fit `budget` tokens (a prompt budget's
/// share); listed by turn, so that the same passages always make the same bytes.
pub fn recalled(query: &SearchQuery, found: &[Passage], budget: usize) -> Vec<RecalledPassage> {
    let share = budget / RECALL_SHARE;
    let mut kept = Vec::new();
    let mut used = 0;
    for passage in found.iter().take(MAX_RECALLED.0) {
        let matched = query.matched(&passage.text);
        if matched.is_empty() {
            continue;
        }
        let text = excerpt(&passage.text, &matched);
        let cost = tokens(&text) + 6;
        if used + cost > share {
            break;
        }
        used += cost;
        kept.push(RecalledPassage {
            turn: passage.turn,
            index: passage.index,
            text,
            words: matched,
        });
    }
    kept.sort_by_key(|passage| (passage.turn, passage.index));
    kept
}

/// The sentences of `text` that hold one of `words` (with `…` where others were left out), cut
/// to [`MAX_EXCERPT_CHARS`].
pub fn excerpt(passage: &str, matched: &[String]) -> String {
    let mut text = String::new();
    let mut last = None;
    for (at, sentence) in sentences(passage).enumerate() {
        if words(sentence).any(|word| matched.contains(&word)) {
            match last {
                None => {}
                Some(before) if before + 1 == at => text.push(' '),
                Some(_) => text.push_str(" … "),
            }
            text.push_str(sentence.trim());
            last = Some(at);
        }
    }
    if crate::campaign::bounds::cut(&mut text, MAX_EXCERPT_CHARS) {
        text.push('…');
    }
    text
}

/// The sentences of a text: each ends after `.`, `!` or `?` (with any closing quote) or at a
/// line break.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive(['.', '!', '?', '\n'])
        .filter(|sentence| sentence.chars().any(char::is_alphanumeric))
}

/// The layer's text: `# From earlier in the story` and one line per passage with its turn; empty
/// without passages.
pub fn recall_text(recalled: &[RecalledPassage]) -> String {
    if recalled.is_empty() {
        return String::new();
    }
    let mut text = String::from("\n\n# From earlier in the story (recalled by the rules)");
    for passage in recalled {
        let _ = write!(text, "\n- Turn {}: {}", passage.turn, passage.text);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::passage::PassageKind;
    use crate::campaign::state::ContextTurn;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::{CharacterSheet, JournalChange, JournalName, JournalNote};

    fn state() -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Wren Ashby").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("The road").unwrap(),
        );
        CampaignState::start("A road to a barrow.", sheet)
    }

    #[test]
    fn the_query_takes_the_move_the_scene_and_the_threads_but_not_the_hero() {
        let mut state = state();
        state.context.push(ContextTurn {
            turn: 4,
            messages: vec![
                Message::user("I wait."),
                Message::assistant("Wren Ashby sees the lamps of Hollowmere beyond Brother Tam."),
            ],
        });
        state
            .journal
            .apply(&JournalChange::Note {
                kind: JournalKind::Thread,
                name: JournalName::new("The silver ring").unwrap(),
                note: JournalNote::new("Lost in the river.").unwrap(),
            })
            .unwrap();
        let query = recall_query(&state, Some("Wren asks Oswin about the bell")).unwrap();
        assert_eq!(
            query.words(),
            [
                "oswin",
                "asks",
                "bell",
                "hollowmere",
                "brother",
                "tam",
                "silver",
                "ring"
            ]
        );
        assert_eq!(recall_query(&state, None), None);
        assert_eq!(recall_query(&self::state(), Some("I wait here.")), None);
        assert_eq!(recall_before(&state), 4);
    }

    #[test]
    fn recalled_passages_are_cut_to_their_matching_sentences_within_the_share() {
        let query = SearchQuery::of(["oswin ring"]).unwrap();
        let found = vec![
            Passage {
                index: 40,
                turn: 12,
                kind: PassageKind::Scene,
                text: "Rain again. Oswin waves from the ferry.".into(),
            },
            Passage {
                index: 14,
                turn: 7,
                kind: PassageKind::Scene,
                text: "The river is wide. Oswin the ferryman swears the silver ring was his \
                       mother's. He will not sell it!"
                    .into(),
            },
            Passage {
                index: 3,
                turn: 2,
                kind: PassageKind::Aside,
                text: "Nothing of note.".into(),
            },
        ];
        let recalled = recalled(&query, &found, 2_700);
        let lines: Vec<(u32, &str, Vec<&str>)> = recalled
            .iter()
            .map(|p| {
                (
                    p.turn,
                    p.text.as_str(),
                    p.words.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            lines,
            [
                (
                    7,
                    "Oswin the ferryman swears the silver ring was his mother's.",
                    vec!["oswin", "ring"]
                ),
                (12, "Oswin waves from the ferry.", vec!["oswin"]),
            ]
        );
        let text = recall_text(&recalled);
        assert!(text.contains("- Turn 7: Oswin the ferryman"), "{text}");
        assert_eq!(
            text,
            recall_text(&recalled),
            "the same passages, the same bytes"
        );
        assert!(recalled_within(&query, &found, 100).is_empty());
    }

    fn recalled_within(query: &SearchQuery, found: &[Passage], budget: usize) -> Vec<String> {
        recalled(query, found, budget)
            .into_iter()
            .map(|p| p.text)
            .collect()
    }
}
