//! What play reads in the story's prose: the last scene the narrator wrote, the things a scene
//! names (the rules' candidate moves and the fallback actions are built from them), and what an
//! action may not merely echo.

use crate::campaign::state::CampaignState;
use crate::gm::llm::Message;
use crate::gm::prose::lexicon::{
    ACTION_VERBS, ADJECTIVES, ADJECTIVE_ENDINGS, ARTICLES, ENDS_A_NAME, IRREGULAR_PLURALS,
    NOT_THINGS, NOUNS_LIKE_ADJECTIVES, PEOPLE_LIKE, QUANTIFIERS,
};

/// What an action may not merely repeat: the character's name, class and sheet line, and the
/// premise.
pub fn echoes(state: &CampaignState) -> Vec<String> {
    let sheet = &state.sheet;
    let (name, class) = (sheet.name().as_str(), sheet.class().as_str());
    vec![
        name.to_owned(),
        class.to_owned(),
        format!("{class}, level {}", sheet.level().value()),
        format!("{name} the {class}"),
        format!("{name}, {class}"),
        state.premise.clone(),
    ]
}

/// The last scene the narrator wrote (the newest assistant prose in the verbatim turns).
pub fn last_scene(state: &CampaignState) -> Option<&str> {
    state
        .context
        .iter()
        .rev()
        .flat_map(|turn| turn.messages.iter().rev())
        .find_map(|message| match message {
            Message::Assistant {
                content: Some(text),
                ..
            } if !text.trim().is_empty() => Some(&**text),
            _ => None,
        })
}

/// Whether `word` (lower case) may be part of a thing's name: letters and hyphens only, and not
/// a word that ends a name.
fn may_name(word: &str) -> bool {
    word.chars().all(|c| c.is_alphabetic() || c == '-') && !ENDS_A_NAME.contains(&word)
}

/// Whether `word` (lower case) is an adjective: listed, or ending like one (see
/// [`ADJECTIVE_ENDINGS`]) and not a noun that does.
fn is_adjective(word: &str) -> bool {
    ADJECTIVES.contains(&word)
        || word.len() > 4
            && ADJECTIVE_ENDINGS.iter().any(|end| word.ends_with(end))
            && !NOUNS_LIKE_ADJECTIVES.contains(&word)
}

/// Whether `word` (lower case) may describe the word after it, though it can also be a noun: a
/// participle ("the drowned gate", "a dripping arch"), a word in -y ("a rusty key", but "the
/// city") or a hyphenated compound ("a lantern-lit crypt").
fn describes(word: &str) -> bool {
    ["ed", "ing", "en"]
        .iter()
        .any(|end| word.len() > 4 && word.ends_with(end))
        || (word.len() > 3 && word.ends_with('y'))
        || word.contains('-')
}

/// Whether the noun `word` (lower case) names nothing one could act on (see [`NOT_THINGS`]).
fn is_vague(word: &str) -> bool {
    NOT_THINGS.contains(&word)
        || word
            .strip_suffix('s')
            .is_some_and(|one| NOT_THINGS.contains(&one))
}

/// Whether the noun `word` (lower case) is a plural.
fn is_plural(word: &str) -> bool {
    (word.ends_with('s') && !word.ends_with("ss")) || IRREGULAR_PLURALS.contains(&word)
}

/// The thing the noun phrase `phrase` (lower-case words after its article or quantifier) names:
/// its head noun, with the word describing it just before ("drowned gate"). The head is the
/// first word that is no article, quantifier or adjective, and no participle followed by more
/// of the name. None when the phrase ends before its head ("the few", "a massive"), when the
/// head is vague ("the strange things") or a move ("a look"), or when `plural` (the phrase
/// follows a quantifier) and the head is no plural ("some say").
fn thing_in(phrase: &[String], plural: bool) -> Option<String> {
    let passed_over =
        |word: &String| ARTICLES.contains(&word.as_str()) || QUANTIFIERS.contains(&word.as_str());
    let start = phrase.iter().position(|word| !passed_over(word))?;
    let mut modifier: Option<&str> = None;
    for (at, word) in phrase.iter().enumerate().skip(start) {
        if !may_name(word) {
            return None;
        }
        let continued = phrase.get(at + 1).is_some_and(|next| may_name(next));
        if is_adjective(word) || (describes(word) && continued) {
            modifier = Some(word);
            continue;
        }
        let a_move = modifier.is_none()
            && ACTION_VERBS.contains(&word.as_str())
            && !PEOPLE_LIKE.contains(&word.as_str());
        if is_vague(word) || a_move || (plural && !is_plural(word)) {
            return None;
        }
        let thing = modifier.map_or_else(|| word.clone(), |m| format!("{m} {word}"));
        return Some(thing).filter(|thing| thing.len() >= 3);
    }
    None
}

/// The things a scene names, most recent mention last: the head nouns of its noun phrases, each
/// with the word describing it ("the drowned gate", "a rusty key", "a few torches", "several
/// goblins"), without the article. Only nouns: not adjectives ("a massive"), quantities ("a
/// few") or vague nouns ("things"). A noun before another ("the guard tower") cannot be told
/// from a noun before its verb ("the guard dozes"), so the first one is taken.
pub fn things_named(scene: &str) -> Vec<String> {
    let mut things: Vec<String> = Vec::new();
    for clause in scene.split(|c: char| ",.;:!?\n()\"*_".contains(c)) {
        let words: Vec<String> = clause.split_whitespace().map(str::to_lowercase).collect();
        for (at, word) in words.iter().enumerate() {
            let plural = if ARTICLES.contains(&word.as_str()) {
                false
            } else if QUANTIFIERS.contains(&word.as_str()) {
                true
            } else {
                continue;
            };
            if let Some(thing) = thing_in(&words[at + 1..], plural) {
                things.retain(|known| *known != thing);
                things.push(thing);
            }
        }
    }
    things
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_things_a_scene_names_are_found() {
        let scene = "You stand before the drowned gate of Hollowmere. A guard dozes under a \
                     dripping arch, and the rain keeps falling.";
        assert_eq!(
            things_named(scene),
            ["drowned gate", "guard", "dripping arch", "rain"]
        );
        let observed = "You stood at the entrance of the city of Xeridia, the only possible way, \
                        a great adventure in the air. The enemy and a lantern wait.";
        assert_eq!(
            things_named(observed),
            ["entrance", "city", "enemy", "lantern"]
        );
    }

    #[test]
    fn only_nouns_are_things_not_adjectives_quantities_or_vague_words() {
        let scene = "A massive door looms ahead, lit by a few torches. Several goblins crouch \
                     over the strange things they found.";
        assert_eq!(things_named(scene), ["massive door", "torches", "goblins"]);
        for nameless in [
            "A massive, ancient door.",
            "The few who remain watch you.",
            "Some say the many are lost.",
            "You sense something, the only possible way.",
            "Approach the normal carefully",
        ] {
            assert!(things_named(nameless).is_empty(), "{nameless}");
        }
        let nouns = "The jackal snarls at the other guard; the crystal glows in a lantern-lit \
                     crypt, over two mysterious figures and both doors.";
        assert_eq!(
            things_named(nouns),
            [
                "jackal",
                "guard",
                "crystal",
                "lantern-lit crypt",
                "mysterious figures",
                "doors"
            ]
        );
    }
}
