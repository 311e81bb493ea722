//! People who remember: how each person met feels about the hero, on a five-step ladder the
//! rules move. A social check (Persuasion, Deception, Intimidation) asked of a person is made
//! against the DC their attitude sets; its success moves them one step towards the hero (two on a
//! success by 5 or more), its failure one step away.

use serde::{Deserialize, Serialize};

use crate::game::proficiency::Skill;
use crate::game::text::JournalName;

/// How a person feels about the hero, from worst to best.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Attitude {
    /// They want the hero gone or hurt.
    Hostile,
    /// They distrust the hero.
    Wary,
    /// They do not care either way.
    #[default]
    Indifferent,
    /// They like the hero.
    Friendly,
    /// They would take risks for the hero.
    Devoted,
}

/// Every attitude, worst first.
const LADDER: [Attitude; 5] = [
    Attitude::Hostile,
    Attitude::Wary,
    Attitude::Indifferent,
    Attitude::Friendly,
    Attitude::Devoted,
];

impl Attitude {
    /// Its name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hostile => "hostile",
            Self::Wary => "wary",
            Self::Indifferent => "indifferent",
            Self::Friendly => "friendly",
            Self::Devoted => "devoted",
        }
    }

    /// The DC of a social check asked of a person with this attitude.
    pub fn dc(self) -> u8 {
        match self {
            Self::Hostile => 20,
            Self::Wary => 15,
            Self::Indifferent => 12,
            Self::Friendly => 10,
            Self::Devoted => 5,
        }
    }

    /// The attitude after a social check against [`Attitude::dc`] that came to `total`.
    pub fn after_check(self, total: i32) -> Self {
        let margin = total - i32::from(self.dc());
        let steps: isize = match margin {
            m if m >= 5 => 2,
            m if m >= 0 => 1,
            _ => -1,
        };
        let at = self.rung();
        LADDER[at.saturating_add_signed(steps).min(LADDER.len() - 1)]
    }

    /// The attitude `steps` rungs up (down when negative), if the ladder has it; a move past
    /// either end stops there.
    pub fn stepped(self, steps: isize) -> Option<Self> {
        let to = self
            .rung()
            .saturating_add_signed(steps)
            .min(LADDER.len() - 1);
        (steps != 0).then_some(LADDER[to])
    }

    fn rung(self) -> usize {
        LADDER.iter().position(|a| *a == self).unwrap_or(2)
    }
}

/// Whether a check of `skill` is a social one, whose DC the person's attitude sets.
pub fn is_social(skill: Skill) -> bool {
    matches!(
        skill,
        Skill::Persuasion | Skill::Deception | Skill::Intimidation
    )
}

/// The most characters of one thing a person remembers of the hero.
pub const MAX_FACT_CHARS: usize = 160;

/// The most things a person remembers of the hero.
pub const MAX_KNOWN: usize = 3;

/// A person the hero has met (or the plan names), and what they think of the hero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// Their name.
    pub name: JournalName,
    /// How they feel about the hero.
    pub attitude: Attitude,
    /// What they know of the hero, newest last (at most [`MAX_KNOWN`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knows: Vec<String>,
}

impl Person {
    /// Remembers `fact` about the hero, forgetting the oldest past [`MAX_KNOWN`].
    pub fn remember(&mut self, fact: String) {
        self.knows.push(fact);
        if self.knows.len() > MAX_KNOWN {
            self.knows.remove(0);
        }
    }

    /// Whether `text` names this person (their name without its article, ignoring case).
    pub fn named_in(&self, text: &str) -> bool {
        names(self.name.as_str(), text)
    }
}

/// Whether `text` names `name` (without a leading article, ignoring case, on word bounds).
pub fn names(name: &str, text: &str) -> bool {
    let bare = without_article(name).to_lowercase();
    if bare.is_empty() {
        return false;
    }
    let text = text.to_lowercase();
    text.match_indices(&bare).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + bare.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// `name` without a leading "the", "a" or "an".
pub fn without_article(name: &str) -> &str {
    let trimmed = name.trim();
    for article in ["the ", "a ", "an "] {
        if trimmed.len() > article.len() && trimmed[..article.len()].eq_ignore_ascii_case(article) {
            return trimmed[article.len()..].trim_start();
        }
    }
    trimmed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attitude_sets_the_dc_and_a_check_moves_it() {
        let dcs: Vec<u8> = LADDER.iter().map(|a| a.dc()).collect();
        assert_eq!(dcs, [20, 15, 12, 10, 5]);
        // A wary guard: 15 to win, 20 to win by five.
        assert_eq!(Attitude::Wary.after_check(14), Attitude::Hostile);
        assert_eq!(Attitude::Wary.after_check(15), Attitude::Indifferent);
        assert_eq!(Attitude::Wary.after_check(20), Attitude::Friendly);
        assert_eq!(Attitude::Devoted.after_check(30), Attitude::Devoted);
        assert_eq!(Attitude::Hostile.after_check(1), Attitude::Hostile);
    }

    #[test]
    fn attitudes_are_read_by_name_and_others_refused() {
        let read: Attitude = serde_json::from_str("\"friendly\"").unwrap();
        assert_eq!(read, Attitude::Friendly);
        let refused = serde_json::from_str::<Attitude>("\"smitten\"").unwrap_err();
        assert!(
            refused.to_string().contains("unknown variant `smitten`"),
            "{refused}"
        );
        assert!(is_social(Skill::Persuasion) && !is_social(Skill::Stealth));
    }

    #[test]
    fn a_person_is_named_on_word_bounds_and_remembers_three_things() {
        let mut guard = Person {
            name: JournalName::new("The guard").unwrap(),
            attitude: Attitude::Wary,
            knows: Vec::new(),
        };
        assert!(guard.named_in("You ask the Guard for the key."));
        assert!(!guard.named_in("The guardhouse is empty."));
        for n in 0..5 {
            guard.remember(format!("fact {n}"));
        }
        assert_eq!(guard.knows, ["fact 2", "fact 3", "fact 4"]);
    }
}
