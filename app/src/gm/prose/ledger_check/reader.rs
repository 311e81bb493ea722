//! The reader shared by the claim patterns: who a clause is about (its subject, carried over to
//! a clause that starts with its verb), who does a verb (the actor just before it, else the
//! subject), which foe of the fight a phrase names (`the goblin`, `Goblin 2`, `the second
//! goblin`, `it` after a goblin), and whether a clause asserts at all (no `if`, `not`,
//! `could`, `try to` before its verb).

use std::collections::HashSet;

use super::claims::{Claim, FoeRef};
use super::text::{self, number, singular, Clause};
use super::vocabulary::Vocabulary;
use crate::gm::prose::lexicon::{
    CLAUSE_LEADERS, FOE_OPENERS, FOE_PRONOUNS, HEDGES, ORDINALS, OTHER_OPENERS, PHRASE_STOPS,
};

/// Who a clause or a verb is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Actor {
    /// The player's character (`you`).
    Hero,
    /// Something of the hero's (`your blade`).
    HeroThing,
    /// A foe of the fight.
    Foe(FoeRef),
    /// Something of a foe's (`the goblin's scimitar`).
    FoeThing(FoeRef),
    /// Someone or something else.
    Other,
    /// Not said (the clause starts with its verb).
    Unknown,
}

impl Actor {
    /// Whether the hero or the hero's weapon acts.
    pub(super) fn is_hero_side(&self) -> bool {
        matches!(self, Actor::Hero | Actor::HeroThing)
    }

    /// Whether a foe or a foe's weapon acts.
    pub(super) fn is_foe_side(&self) -> bool {
        matches!(self, Actor::Foe(_) | Actor::FoeThing(_))
    }
}

/// One clause as a pattern sees it.
pub(super) struct Context<'c> {
    /// Its words.
    pub words: &'c [String],
    /// Its subject (carried over from the clause before when it names none).
    pub subject: Actor,
    /// Where its subject starts (after `and`, `then`, …).
    pub start: usize,
    /// Whether its sentence speaks of the hero at all (`you`, `your`).
    pub you: bool,
}

/// Reads the clauses in order, remembering the last foe named, and collects the claims.
pub(super) struct Reader<'a> {
    /// The words of the turn.
    pub vocabulary: &'a Vocabulary,
    /// The foe named last, for `it` and `the creature`.
    last_foe: Option<FoeRef>,
    /// The claims read so far.
    pub claims: Vec<Claim>,
}

/// Whether `word` is the hero: `you`, `you're`, `yourself`, …
pub(super) fn is_you(word: &str) -> bool {
    matches!(
        word,
        "you" | "you're" | "you've" | "you'd" | "you'll" | "yourself"
    )
}

/// Whether `word` is an adverb a pattern may skip (`slowly`, `then`, `finally`).
pub(super) fn is_adverb(word: &str) -> bool {
    (word.len() > 4 && word.ends_with("ly"))
        || [
            "then", "now", "just", "still", "also", "again", "soon", "even", "too",
        ]
        .contains(&word)
}

/// Whether `words` (a clause up to a verb) assert what follows: none of [`HEDGES`], no `n't`,
/// no `'ll`, no reaching for something (`you reach for the key`).
pub(super) fn asserted(words: &[String]) -> bool {
    let reaching = words.windows(2).any(|pair| {
        matches!(
            pair[0].as_str(),
            "reach" | "reaches" | "reaching" | "reached"
        ) && matches!(pair[1].as_str(), "for" | "toward" | "towards" | "out")
    });
    !reaching
        && !words.iter().any(|w| {
            HEDGES.contains(&w.as_str()) || w.ends_with("n't") || w.ends_with("'ll") || w == "you'd"
        })
}

/// Whether `words` continue with `sequence` at `at`.
pub(super) fn sequence_at(words: &[String], at: usize, sequence: &[&str]) -> bool {
    words.len() >= at + sequence.len()
        && words[at..at + sequence.len()]
            .iter()
            .zip(sequence)
            .all(|(w, s)| w == s)
}

/// The content words of `words` (three letters or more, no stop word), singular.
pub(super) fn content(words: &[String]) -> HashSet<String> {
    words
        .iter()
        .filter(|w| w.len() >= 3 && !PHRASE_STOPS.contains(&w.as_str()) && !is_you(w))
        .map(|w| singular(w).to_owned())
        .collect()
}

impl<'a> Reader<'a> {
    /// A reader with the words of this turn.
    pub(super) fn new(vocabulary: &'a Vocabulary) -> Self {
        Self {
            vocabulary,
            last_foe: None,
            claims: Vec::new(),
        }
    }

    /// Reads every clause of every sentence.
    pub(super) fn read(&mut self, sentences: &[Vec<Clause>]) {
        for sentence in sentences {
            let you = sentence.iter().flatten().any(|w| is_you(w) || w == "your");
            let mut subject = Actor::Unknown;
            for words in sentence {
                let start = leaders_end(words);
                let own = self.subject(words, start);
                if own != Actor::Unknown {
                    subject = own;
                }
                let context = Context {
                    words,
                    subject: subject.clone(),
                    start,
                    you,
                };
                self.numbers(&context);
                self.items(&context);
                self.foes(&context);
                self.states(&context);
                self.remember_foes(words);
            }
        }
    }

    /// The clause's subject: `you`, `your …`, a foe, something else, or none (it starts with
    /// its verb).
    fn subject(&self, words: &[String], start: usize) -> Actor {
        let Some(first) = words.get(start) else {
            return Actor::Unknown;
        };
        if is_you(first) {
            return Actor::Hero;
        }
        if let Some((foe, _, possessive)) = self.foe_at(words, start, None) {
            return if possessive {
                Actor::FoeThing(foe)
            } else {
                Actor::Foe(foe)
            };
        }
        match first.as_str() {
            "your" => Actor::HeroThing,
            "it" | "he" | "she" => self.last_foe.clone().map_or(Actor::Other, Actor::Foe),
            w if OTHER_OPENERS.contains(&w) || number(w).is_some() => Actor::Other,
            _ => Actor::Unknown,
        }
    }

    /// Who does the verb at `verb`: `you` or a foe just before it (adverbs skipped), else the
    /// clause's subject when nothing else is named between it and the verb (`the goblin
    /// staggers and collapses`, not `the goblin watches the bridge collapse`).
    pub(super) fn actor_of(&self, context: &Context<'_>, verb: usize) -> Actor {
        let words = context.words;
        let mut at = verb;
        while at > context.start && is_adverb(&words[at - 1]) {
            at -= 1;
        }
        if at <= context.start {
            return context.subject.clone();
        }
        let before = words[at - 1].as_str();
        if is_you(before) {
            return Actor::Hero;
        }
        if matches!(before, "it" | "he" | "she") {
            return self
                .foe_before(words, at - 1)
                .map_or(Actor::Other, Actor::Foe);
        }
        if let Some(foe) = self.foe_ending_at(words, at) {
            return Actor::Foe(foe);
        }
        let joined = ["and", "then", "but", "or", "yet", "nor"].contains(&before);
        let between = &words[(context.start + 1).min(at)..at];
        let other = between.iter().any(|w| {
            OTHER_OPENERS.contains(&w.as_str())
                || is_you(w)
                || matches!(w.as_str(), "your" | "it" | "him")
        });
        if joined || !other {
            context.subject.clone()
        } else {
            Actor::Other
        }
    }

    /// The last foe named in `words` before `at`, else the last one named before the clause.
    pub(super) fn foe_before(&self, words: &[String], at: usize) -> Option<FoeRef> {
        (0..at)
            .rev()
            .find_map(|i| self.foe_at(words, i, Some(at)).map(|(foe, _, _)| foe))
            .or_else(|| self.last_foe.clone())
    }

    /// The foe named by the phrase starting at `at` (not reaching `limit`): it, where the phrase
    /// ends, and whether it is possessive (`the goblin's`).
    pub(super) fn foe_at(
        &self,
        words: &[String],
        at: usize,
        limit: Option<usize>,
    ) -> Option<(FoeRef, usize, bool)> {
        let end = limit.unwrap_or(words.len()).min(words.len());
        let mut i = at;
        let mut ordinal = None;
        while i < end
            && (FOE_OPENERS.contains(&words[i].as_str()) || ordinal_of(&words[i]).is_some())
        {
            ordinal = ordinal.or(ordinal_of(&words[i]));
            i += 1;
        }
        for head in i..end.min(i + 3) {
            let word = words[head].as_str();
            if let Some(mut foe) = self.head(word) {
                let numbered = words
                    .get(head + 1)
                    .and_then(|w| number(w))
                    .filter(|_| head + 1 < end);
                foe.number = numbered.and_then(|n| u8::try_from(n).ok()).or(ordinal);
                let stop = head + 1 + usize::from(numbered.is_some());
                return Some((foe, stop, word.ends_with("'s") || word.ends_with("s'")));
            }
            if PHRASE_STOPS.contains(&word) || is_you(word) {
                break;
            }
        }
        None
    }

    /// The foe whose name ends just before `at` (`… the goblin`, `… Goblin 2`), not
    /// possessive.
    pub(super) fn foe_ending_at(&self, words: &[String], at: usize) -> Option<FoeRef> {
        let last = words.get(at.checked_sub(1)?)?;
        let (head, numbered) = match number(last) {
            Some(n) => (words.get(at.checked_sub(2)?)?, u8::try_from(n).ok()),
            None => (last, None),
        };
        if head.ends_with("'s") || head.ends_with("s'") {
            return None;
        }
        let head_at = at - 1 - usize::from(numbered.is_some());
        let mut foe = self.head(head)?;
        let ordinal = words[head_at.saturating_sub(3)..head_at]
            .iter()
            .find_map(|w| ordinal_of(w));
        foe.number = numbered.or(ordinal);
        Some(foe)
    }

    /// The foe a head word names: a foe's kind (`goblin`, `goblins`, `goblin's`), or a word for
    /// the last foe named (`creature`).
    fn head(&self, word: &str) -> Option<FoeRef> {
        let bare = word.trim_end_matches("'s").trim_end_matches('\'');
        if let Some(found) = self.vocabulary.foe(bare) {
            return Some(found);
        }
        if FOE_PRONOUNS.contains(&singular(bare)) {
            return self.last_foe.clone();
        }
        None
    }

    /// Remembers the last foe `words` name, for `it` and `the creature` later.
    fn remember_foes(&mut self, words: &[String]) {
        if let Some(foe) = (0..words.len())
            .rev()
            .find_map(|i| self.foe_at(words, i, None).map(|(foe, _, _)| foe))
        {
            self.last_foe = Some(foe);
        }
    }
}

/// Where a clause's subject starts: after `and`, `then`, adverbs.
fn leaders_end(words: &[String]) -> usize {
    words
        .iter()
        .position(|w| !CLAUSE_LEADERS.contains(&w.as_str()) && !is_adverb(w))
        .unwrap_or(words.len())
}

/// The number an ordinal stands for (`second` → 2).
fn ordinal_of(word: &str) -> Option<u8> {
    ORDINALS
        .iter()
        .position(|o| *o == word)
        .and_then(|n| u8::try_from(n + 1).ok())
}

/// The claims `narration` makes in the words of `vocabulary`, in the order made.
pub(super) fn read(narration: &str, vocabulary: &Vocabulary) -> Vec<Claim> {
    let mut reader = Reader::new(vocabulary);
    reader.read(&text::sentences(narration));
    reader.claims
}
