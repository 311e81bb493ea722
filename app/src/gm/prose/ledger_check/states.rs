//! Claims about the hero's state and the dice's verdicts: conditions gained (`you are
//! poisoned`, `the blast knocks you prone`) or lost (`you are no longer frightened`), and
//! checks that succeeded or failed (`you succeed`, `you fail to pick the lock`, `you manage to
//! climb the wall`, `your attempt fails`, `you get away`). A verdict word about someone else,
//! or one that is only possible (`if you fail`), claims nothing.

use super::claims::{Claim, Verdict};
use super::reader::{asserted, content, is_adverb, is_you, sequence_at, Actor, Context, Reader};
use crate::gm::prose::lexicon::{BECOME, CAUSE_FADES, CONDITION_CAUSES, ESCAPED, LEAVE_YOU, TRIES};

impl Reader<'_> {
    /// The clause's claims about conditions and verdicts.
    pub(super) fn states(&mut self, context: &Context<'_>) {
        let words = context.words;
        for at in 0..words.len() {
            let condition = self.vocabulary.condition(&words[at]).map(str::to_owned);
            if let Some(name) = condition {
                let lost = at >= 2 && words[at - 2] == "no" && words[at - 1] == "longer";
                if lost && words[..at - 2].iter().any(|w| is_you(w)) && asserted(&words[..at - 2]) {
                    self.claims.push(Claim::ConditionLost(name));
                } else if !lost && on_the_hero(words, at) && asserted(&words[..at]) {
                    self.claims.push(Claim::ConditionGained(name));
                }
            }
            if let Some(claim) = self.verdict_at(context, at) {
                self.claims.push(claim);
            }
            if let Some(name) = cause_fades(words, at).filter(|_| context.you) {
                if asserted(&words[..at]) {
                    self.claims.push(Claim::ConditionLost(name.to_owned()));
                }
            }
        }
        if let Some(claim) = bare_verdict(words) {
            self.claims.push(claim);
        }
    }

    /// A verdict claimed by the words at `at`: the hero succeeding, failing, managing or
    /// getting away, or the hero's attempt succeeding or failing.
    fn verdict_at(&self, context: &Context<'_>, at: usize) -> Option<Claim> {
        let words = context.words;
        if !asserted(&words[..at]) {
            return None;
        }
        if words[at] == "your"
            && words
                .get(at + 1)
                .is_some_and(|w| TRIES.contains(&w.as_str()))
        {
            let claimed = match words.get(at + 2).map(String::as_str)? {
                "succeeds" | "succeeded" | "works" | "worked" | "holds" => Verdict::Success,
                "fails" | "failed" => Verdict::Failure,
                "falls" if sequence_at(words, at + 3, &["short"]) => Verdict::Failure,
                _ => return None,
            };
            return Some(Claim::Verdict {
                claimed,
                about: Vec::new(),
            });
        }
        let (claimed, rest) = match words[at].as_str() {
            "succeed" | "succeeded" => (Verdict::Success, at + 1),
            "fail" | "failed" => (Verdict::Failure, at + 1),
            "manage" | "managed" if sequence_at(words, at + 1, &["to"]) => {
                (Verdict::Success, at + 1)
            }
            // `you successfully climb the cliff`: the task follows at once.
            "successfully" => (Verdict::Success, at),
            "unsuccessfully" => (Verdict::Failure, at),
            _ => {
                let escaped = ESCAPED.iter().any(|s| sequence_at(words, at, s));
                return (escaped && self.actor_of(context, at) == Actor::Hero).then(|| {
                    Claim::Verdict {
                        claimed: Verdict::Success,
                        about: vec!["escape".to_owned()],
                    }
                });
            }
        };
        if self.actor_of(context, at) != Actor::Hero {
            return None;
        }
        let about = match words.get(rest).map(String::as_str) {
            Some("to" | "in" | "at" | "successfully" | "unsuccessfully") => {
                let task: Vec<String> = words[rest + 1..].iter().take(5).cloned().collect();
                let mut about: Vec<String> = content(&task).into_iter().collect();
                about.sort();
                about
            }
            _ => Vec::new(),
        };
        Some(Claim::Verdict { claimed, about })
    }
}

/// Whether the condition word at `at` is said of the hero: `you are (now) poisoned`, `you're
/// prone`, `leaves you poisoned`, `you are knocked prone`.
fn on_the_hero(words: &[String], at: usize) -> bool {
    let mut k = at;
    while k > 0 && is_adverb(&words[k - 1]) {
        k -= 1;
    }
    let word = |back: usize| -> &str {
        k.checked_sub(back)
            .and_then(|i| words.get(i))
            .map_or("", String::as_str)
    };
    word(1) == "you're"
        || (BECOME.contains(&word(1)) && is_you(word(2)))
        || (word(1) == "you" && LEAVE_YOU.contains(&word(2)))
        || (matches!(word(1), "knocked" | "left" | "rendered")
            && matches!(word(2), "are" | "were")
            && is_you(word(3)))
}

/// The condition whose cause goes away at `at` (`the poison leaves`, `the fear wears off`).
fn cause_fades(words: &[String], at: usize) -> Option<&'static str> {
    let (_, name) = CONDITION_CAUSES
        .iter()
        .find(|(noun, _)| words[at] == *noun)?;
    let mut next = at + 1;
    while next < words.len() && is_adverb(&words[next]) {
        next += 1;
    }
    CAUSE_FADES
        .iter()
        .any(|fade| sequence_at(words, next, fade))
        .then_some(*name)
}

/// A clause that is only a verdict: `Success!`, `A failure.`
fn bare_verdict(words: &[String]) -> Option<Claim> {
    let rest: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "a" | "critical" | "total" | "complete" | "utter"))
        .collect();
    let claimed = match rest.as_slice() {
        ["success"] => Verdict::Success,
        ["failure"] => Verdict::Failure,
        _ => return None,
    };
    Some(Claim::Verdict {
        claimed,
        about: Vec::new(),
    })
}
