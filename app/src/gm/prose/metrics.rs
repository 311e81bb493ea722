//! What makes the game master's output playable, measured in plain rules: an action is a
//! concrete move (a verb, at least three words, no placeholder, no echo); a scene speaks to the
//! player in second person, never about the narrator or the game, names something from the
//! premise or the previous scene, and does not repeat itself.
//!
//! Scored by the benches only (the quality bench and the playtest's tally): play does not use
//! these.

use std::collections::HashSet;

use crate::game::action_quality::{is_echo, is_placeholder, normalized};
use crate::gm::prose::lexicon::{ACTION_VERBS, FIRST_PERSON, SELF_TALK};

/// Whether `description` starts with a verb from the list.
pub fn starts_with_verb(description: &str) -> bool {
    normalized(description)
        .split(' ')
        .next()
        .is_some_and(|first| ACTION_VERBS.contains(&first))
}

/// Whether `description` is a concrete move: a verb first, three words or more, not a
/// placeholder, not an echo of `echoes`.
pub fn is_concrete(description: &str, echoes: &[String]) -> bool {
    starts_with_verb(description)
        && normalized(description).split(' ').count() >= 3
        && !is_placeholder(description)
        && !is_echo(description, echoes)
}

/// `scene` without its quoted speech ("…" and “…”).
fn narration_only(scene: &str) -> String {
    let mut out = String::with_capacity(scene.len());
    let mut quoted = false;
    for c in scene.chars() {
        match c {
            '"' => quoted = !quoted,
            '“' => quoted = true,
            '”' => quoted = false,
            _ if !quoted => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether a scene speaks to the player ("you") and never as or about the narrator: no first
/// person outside quoted speech, no stage directions in parentheses, no talk of the game.
pub fn good_voice(scene: &str) -> bool {
    let narration = narration_only(&scene.replace(['’', '\''], ""));
    let words: Vec<String> = normalized(&narration)
        .split(' ')
        .map(str::to_owned)
        .collect();
    let lower = scene.to_lowercase();
    words.iter().any(|word| word == "you" || word == "your")
        && !words
            .iter()
            .any(|word| FIRST_PERSON.contains(&word.as_str()))
        && !narration.contains('(')
        && !SELF_TALK.iter().any(|talk| lower.contains(talk))
}

/// The content words of `text` (four letters or more), for grounding.
fn content_words(text: &str) -> HashSet<String> {
    normalized(text)
        .split(' ')
        .filter(|word| {
            word.len() >= 4
                && ![
                    "your", "with", "that", "this", "from", "into", "there", "have",
                ]
                .contains(word)
        })
        .map(str::to_owned)
        .collect()
}

/// Whether `scene` names something (a content word) from the premise or the previous scene.
pub fn grounded(scene: &str, premise: &str, previous: Option<&str>) -> bool {
    let words = content_words(scene);
    let mut sources = content_words(premise);
    sources.extend(previous.map(content_words).unwrap_or_default());
    words.intersection(&sources).next().is_some()
}

/// A scene's repetition: whether a sentence occurs twice, and the share of its word 3-grams
/// that are distinct (1.0 for a scene too short to have any).
pub fn repetition(scene: &str) -> (bool, f64) {
    let sentences: Vec<String> = scene
        .split(['.', '!', '?', '\n'])
        .map(normalized)
        .filter(|sentence| sentence.split(' ').count() >= 3)
        .collect();
    let distinct_sentences: HashSet<&String> = sentences.iter().collect();
    let words: Vec<String> = normalized(scene).split(' ').map(str::to_owned).collect();
    let grams: Vec<&[String]> = words.windows(3).collect();
    let distinct: HashSet<&[String]> = grams.iter().copied().collect();
    let share = if grams.is_empty() {
        1.0
    } else {
        distinct.len() as f64 / grams.len() as f64
    };
    (distinct_sentences.len() < sentences.len(), share)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_concrete_move_has_a_verb_three_words_and_is_no_echo() {
        let echoes = vec!["Ranger, level 1".to_owned()];
        assert!(is_concrete("Pry the iron door open", &echoes));
        for weak in ["Take action 2", "Ranger, level 1", "The iron door", "Run"] {
            assert!(!is_concrete(weak, &echoes), "{weak}");
        }
    }

    #[test]
    fn the_narrator_talking_about_itself_is_bad_voice() {
        assert!(good_voice("You step into the rain. Your lantern gutters."));
        assert!(good_voice(
            "The guard glares at you. \"I know your face,\" he says."
        ));
        for observed in [
            "Mira, I've just set off from my home, and you mentioned a lantern.",
            "(winks at the client) You've got a good idea.",
            "I will show you some of my best friends.",
            "This is an example of a classic puzzle in my set of 72 episodes.",
            "The hall is dark and cold.",
        ] {
            assert!(!good_voice(observed), "{observed}");
        }
    }

    #[test]
    fn grounding_and_repetition_are_measured() {
        assert!(grounded("You reach the crypt.", "A flooded crypt", None));
        assert!(!grounded(
            "You eat an apple.",
            "A flooded crypt",
            Some("Rain falls.")
        ));
        let (repeated, share) =
            repetition("The rain falls hard. The rain falls hard. You wait and wait and wait.");
        assert!(repeated && share < 0.8, "{share}");
        assert_eq!(
            repetition("You open the door and step inside."),
            (false, 1.0)
        );
    }
}
