//! The narrator's voice kept by the rules, for a model too small to keep it: asides in
//! parentheses and sentences about the story, the game or the player are dropped, and so is
//! any sentence mostly told already (in the previous scene or earlier in this one); the
//! narrator's "I" (a small model writes as the hero) becomes the player's "you". Quoted speech
//! is left alone.

use std::collections::HashSet;

use crate::game::action_quality::normalized;
use crate::gm::prose::lexicon::{ABOUT_THE_TELLING, PERSON_SWAPS};

/// `scene` in the player's voice (see the module documentation); `None` if nothing is left.
pub fn in_second_person(scene: &str, previous: Option<&str>) -> Option<String> {
    let mut told: HashSet<[String; 3]> = previous.map(trigrams).unwrap_or_default();
    let kept: Vec<String> = sentences(&without_asides(scene))
        .into_iter()
        .filter(|sentence| {
            let words = format!(" {} ", normalized(sentence));
            // Told once: a sentence mostly made of what was already said (in the previous
            // scene or earlier in this one) is dropped.
            let grams = trigrams(sentence);
            let repeated = grams.iter().filter(|gram| told.contains(*gram)).count();
            let fresh = grams.is_empty() || repeated * 2 < grams.len();
            told.extend(grams);
            fresh
                && !sentence.trim_end().ends_with('?')
                && !ABOUT_THE_TELLING
                    .iter()
                    .any(|meta| words.contains(&format!(" {meta} ")))
                && !sentence
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|sentence| capitalized(&swap_pronouns(&sentence)))
        .collect();
    let text = kept.join(" ").trim().to_owned();
    (!text.is_empty()).then(|| capitalized(&text))
}

/// The word 3-grams of `text`.
fn trigrams(text: &str) -> HashSet<[String; 3]> {
    let words: Vec<String> = normalized(text).split(' ').map(str::to_owned).collect();
    words
        .windows(3)
        .map(|gram| [gram[0].clone(), gram[1].clone(), gram[2].clone()])
        .collect()
}

/// `text` without its `( … )` asides.
fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The sentences of `text`, each with its end mark.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(if c == '\n' { ' ' } else { c });
        if matches!(c, '.' | '!' | '?' | '\n') {
            let sentence = current.split_whitespace().collect::<Vec<_>>().join(" ");
            if sentence.chars().any(char::is_alphabetic) {
                out.push(sentence);
            }
            current.clear();
        }
    }
    let rest = current.split_whitespace().collect::<Vec<_>>().join(" ");
    if rest.chars().any(char::is_alphabetic) {
        out.push(rest);
    }
    out
}

/// `sentence` with first-person words outside quotes in the second person.
fn swap_pronouns(sentence: &str) -> String {
    let mut out = Vec::new();
    let mut quoted = false;
    let words: Vec<&str> = sentence.split(' ').collect();
    let mut at = 0;
    while at < words.len() {
        let word = words[at];
        let opens = word.matches('"').count() % 2 == 1;
        if !quoted {
            let pair = words.get(at + 1).map(|next| format!("{word} {next}"));
            if let Some((from, to)) = pair.as_deref().and_then(|pair| swap(pair)) {
                out.push(with_punctuation(&from, to));
                at += 2;
                quoted ^= opens;
                continue;
            }
            if let Some((from, to)) = swap(word) {
                out.push(with_punctuation(&from, to));
                at += 1;
                quoted ^= opens;
                continue;
            }
        }
        out.push(word.to_owned());
        quoted ^= opens;
        at += 1;
    }
    out.join(" ")
}

/// The swap for `text` (ignoring trailing punctuation): the text matched and its replacement.
fn swap(text: &str) -> Option<(String, &'static str)> {
    let bare = text.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != '\'');
    let bare_lower = bare.replace('’', "'");
    PERSON_SWAPS
        .iter()
        .find(|(from, _)| {
            bare_lower == *from || (*from != "I" && bare_lower.eq_ignore_ascii_case(from))
        })
        .map(|(_, to)| (text.to_owned(), *to))
}

/// `to` followed by the punctuation that ended `from`.
fn with_punctuation(from: &str, to: &str) -> String {
    let bare = from.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != '\'');
    format!("{to}{}", &from[bare.len()..])
}

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_models_first_person_becomes_the_players_second_person() {
        let observed = "As I stood at the entrance of the city, a mass of ruins towered above me. \
                        The darkness was endless, and I was ready to face whatever lay within.";
        assert_eq!(
            in_second_person(observed, None).unwrap(),
            "As you stood at the entrance of the city, a mass of ruins towered above you. The \
             darkness was endless, and you were ready to face whatever lay within."
        );
    }

    #[test]
    fn asides_talk_about_the_story_questions_and_repeats_are_dropped() {
        let previous = "The darkness was endless.";
        let observed = "(winks at the client) The darkness was endless. Rain hammers the door. \
                        Rain hammers the door. \
                        This is where you could expand on the story. Who is that? 1. A plan. \
                        \"I know my way,\" the guard says.";
        assert_eq!(
            in_second_person(observed, Some(previous)).unwrap(),
            "Rain hammers the door. \"I know my way,\" the guard says."
        );
        assert_eq!(in_second_person("Here is the plan: the story.", None), None);
        assert_eq!(
            in_second_person("I am a wizard. The tower waits.", None).unwrap(),
            "You are a wizard. The tower waits."
        );
    }
}
