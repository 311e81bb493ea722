//! Claims about the fight's foes: one went down (`the goblin dies`, `Goblin 2 collapses`, `it
//! falls`, `you cut down the goblin`), is still standing (`the goblin survives`), or ran (`the
//! goblin flees`). The foe must be named as one of the fight's (its kind), as the one doing the
//! verb or the one killed; `the goblin's blade falls` names no foe falling.

use super::claims::{Claim, FoeRef};
use super::reader::{asserted, sequence_at, Actor, Context, Reader};
use crate::gm::prose::lexicon::{FOE_DOWN, FOE_FLED, FOE_STANDING, KILL, KILL_WITH};

/// What the words at a place say about a foe.
#[derive(Clone, Copy)]
enum Fate {
    Down,
    Standing,
    Fled,
}

impl Reader<'_> {
    /// The clause's claims about the fight's foes.
    pub(super) fn foes(&mut self, context: &Context<'_>) {
        let words = context.words;
        for at in 0..words.len() {
            if !asserted(&words[..at]) {
                break;
            }
            if let Some(fate) = fate_at(words, at) {
                if let Actor::Foe(foe) = self.actor_of(context, at) {
                    self.claims.push(match fate {
                        Fate::Down => Claim::FoeDown(foe),
                        Fate::Standing => Claim::FoeStanding(foe),
                        Fate::Fled => Claim::FoeFled(foe),
                    });
                }
            } else if let Some(foe) = self.killed_at(context, at) {
                self.claims.push(Claim::FoeDown(foe));
            }
        }
    }

    /// The foe killed by the verb at `at` (`slay the goblin`, `cut the goblin down`), unless
    /// the foe itself does it.
    fn killed_at(&self, context: &Context<'_>, at: usize) -> Option<FoeRef> {
        let words = context.words;
        let verb = words[at].as_str();
        let particle = KILL_WITH.iter().find(|(v, _)| *v == verb).map(|(_, p)| *p);
        if !KILL.contains(&verb) && particle.is_none() {
            return None;
        }
        let leading = particle.is_some_and(|p| sequence_at(words, at + 1, &[p]));
        let (foe, end, possessive) = self.foe_at(words, at + 1 + usize::from(leading), None)?;
        if possessive || (particle.is_some_and(|p| !leading && !sequence_at(words, end, &[p]))) {
            return None;
        }
        match self.actor_of(context, at) {
            Actor::Foe(actor) if actor.kind == foe.kind && !foe.all => None,
            _ => Some(foe),
        }
    }
}

/// What the words at `at` say of whoever does them.
fn fate_at(words: &[String], at: usize) -> Option<Fate> {
    let found = |list: &[&[&str]]| {
        list.iter()
            .find(|s| sequence_at(words, at, s))
            .map(|s| s.len())
    };
    if let Some(len) = found(FOE_DOWN) {
        return down_reads_as_death(words, at, len).then_some(Fate::Down);
    }
    if found(FOE_STANDING).is_some() {
        return Some(Fate::Standing);
    }
    found(FOE_FLED).map(|_| Fate::Fled)
}

/// Whether a way of going down at `at` (`len` words) means out of the fight: `falls` only at
/// the clause's end or to the ground (not `falls back`, `falls silent`), `collapses` not to its
/// knees, `is down` not `down to 3 hit points`.
fn down_reads_as_death(words: &[String], at: usize, len: usize) -> bool {
    let next = words.get(at + len).map(String::as_str);
    let after: Vec<&str> = words[at + len..]
        .iter()
        .take(4)
        .map(String::as_str)
        .collect();
    match words[at].as_str() {
        "falls" | "fell" | "fall" if len == 1 => {
            next.is_none()
                || (next == Some("to")
                    && after.iter().any(|w| {
                        ["ground", "floor", "earth", "dirt", "stones", "flagstones"].contains(w)
                    }))
                || sequence_at(words, at + 1, &["in", "a", "heap"])
        }
        "is" | "are" | "goes" | "went" | "go" if words[at + len - 1] == "down" => {
            next != Some("to")
        }
        _ => !after.iter().any(|w| matches!(*w, "knee" | "knees")),
    }
}
