//! Whether an action is a move in the scene at all: a placeholder ("Take action 2", "Option
//! B") or an echo of the character sheet or the premise ("Ranger, level 1") is refused like any
//! other bad action, so the model is asked to repair it and, failing that, the rules offer
//! their own.

use super::action::{ActionIssue, ActionList, ActionListError, ActionProblem};

/// Words that name a slot rather than a move: "action 2", "option B", "choice one".
const SLOT_WORDS: [&str; 6] = ["action", "option", "choice", "move", "step", "answer"];

/// Words that only fill out a slot name: "take action 2", "choose option 1".
const FILLER_WORDS: [&str; 10] = [
    "take", "choose", "pick", "select", "do", "perform", "the", "an", "a", "next",
];

/// Whole descriptions that say nothing about the scene.
const EMPTY_MOVES: [&str; 8] = [
    "continue",
    "do something",
    "something else",
    "next",
    "none",
    "n a",
    "tbd",
    "todo",
];

/// The description in lower case, words only (punctuation dropped).
pub fn normalized(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `description` is a placeholder: a slot name ("Take action 2", "Option B"), a bare
/// number, or a move that says nothing ("Continue", "Do something").
pub fn is_placeholder(description: &str) -> bool {
    let text = normalized(description);
    if text.is_empty() || EMPTY_MOVES.contains(&text.as_str()) {
        return true;
    }
    let words: Vec<&str> = text.split(' ').collect();
    let is_label = |word: &&str| {
        word.chars().all(|c| c.is_ascii_digit())
            || (word.len() == 1 && word.chars().all(|c| c.is_ascii_lowercase()))
            || ["one", "two", "three", "four", "five", "six"].contains(word)
    };
    let only_a_slot = words
        .iter()
        .all(|word| SLOT_WORDS.contains(word) || FILLER_WORDS.contains(word) || is_label(word))
        && words
            .iter()
            .any(|word| SLOT_WORDS.contains(word) || is_label(word));
    // "This is the third action", "my 2nd option": an action about its own place in the list.
    let numbered_slot = words.windows(2).any(|pair| {
        ["action", "option", "choice"].contains(&pair[1])
            && (ORDINALS.contains(&pair[0]) || is_ordinal(pair[0]))
    });
    only_a_slot || numbered_slot
}

/// Words that number a slot.
const ORDINALS: [&str; 6] = ["first", "second", "third", "fourth", "fifth", "sixth"];

/// `2nd`, `3rd`, `4th`.
fn is_ordinal(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && ["st", "nd", "rd", "th"].contains(&&word[digits.len()..])
}

/// Whether `description` only repeats one of `echoes` (the character's name and class, their
/// sheet line, the premise): it is one of them, or a run of three or more words of one.
pub fn is_echo(description: &str, echoes: &[String]) -> bool {
    let text = normalized(description);
    !text.is_empty()
        && echoes.iter().map(|echo| normalized(echo)).any(|echo| {
            echo == text
                || (text.split(' ').count() >= 3
                    && format!(" {echo} ").contains(&format!(" {text} ")))
        })
}

impl ActionList {
    /// Refuses the list if an action is a placeholder or an echo of `echoes` (see
    /// [`is_placeholder`], [`is_echo`]).
    pub fn check_concrete(&self, echoes: &[String]) -> Result<(), ActionListError> {
        let problems: Vec<ActionProblem> = self
            .actions()
            .iter()
            .enumerate()
            .filter_map(|(index, action)| {
                let description = action.description().as_str();
                let issue = if is_placeholder(description) {
                    ActionIssue::Placeholder
                } else if is_echo(description, echoes) {
                    ActionIssue::Echo
                } else {
                    return None;
                };
                Some(ActionProblem::at(index, action.id().as_str(), issue))
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ActionListError { problems })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholders_a_small_model_wrote_are_refused() {
        for observed in [
            "Take action 1",
            "Take action 2",
            "Option B",
            "Choice 3",
            "Action",
            "2.",
            "Continue",
            "Do something",
            "This is my 2nd action. I will roll a d20.",
            "This is the third action.",
        ] {
            assert!(is_placeholder(observed), "{observed}");
        }
        for concrete in [
            "Take the rusty key",
            "Choose the left tunnel",
            "Wait",
            "Step onto the bridge",
            "Answer the riddle",
            "Take the first step onto the bridge",
        ] {
            assert!(!is_placeholder(concrete), "{concrete}");
        }
    }

    #[test]
    fn an_echo_of_the_sheet_or_the_premise_is_refused() {
        let echoes = [
            "Mira".to_owned(),
            "Ranger".to_owned(),
            "Ranger, level 1".to_owned(),
            "Mira the Ranger".to_owned(),
            "A lantern flickers at the mouth of a flooded crypt, and something inside is knocking."
                .to_owned(),
        ];
        for observed in [
            "Ranger, level 1",
            "Mira",
            "the mouth of a flooded crypt",
            "RANGER",
        ] {
            assert!(is_echo(observed, &echoes), "{observed}");
        }
        for concrete in [
            "Enter the flooded crypt",
            "Knock back",
            "Raise the lantern high",
        ] {
            assert!(!is_echo(concrete, &echoes), "{concrete}");
        }
    }
}
