//! Items claimed gained (`you pocket the silver key`, `you find a potion`, `the merchant hands
//! you a map`, `you slip the ring into your pack`) or lost (`you drop your torch`, `you hand
//! over the letter`, `you give the guard a coin`, `you drink the potion`). The hero must be the
//! one who acts; a verb with many senses (`take`, `find`, `lose`) counts only when its object
//! is a thing a hero carries (`you take a breath`, `you lose your footing` claim nothing).

use super::claims::Claim;
use super::reader::{asserted, is_adverb, sequence_at, Actor, Context, Reader};
use super::text::{number, singular};
use crate::gm::prose::lexicon::{
    CONTAINERS, DETERMINERS, GAIN, GIVE_AWAY, GIVE_YOU, LOSE, LOSE_WITH_PARTICLE, MEASURES,
    PHRASE_STOPS, PICK_UP, POCKET, PUT_AWAY, TAKE_YOURS,
};

/// An object as the prose names it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Object {
    /// Its words, lower case, without determiners or an owner (`silver key`).
    pub words: Vec<String>,
    /// How many, if said.
    pub quantity: Option<u32>,
    /// Whether it is the hero's already (`your torch`).
    pub yours: bool,
    /// Whether a determiner or number opens it (a thing, not an act: `a note`, not `note`).
    pub determined: bool,
    /// Where it ends.
    pub end: usize,
}

impl Object {
    /// Its last word, singular.
    fn head(&self) -> &str {
        self.words.last().map_or("", |w| singular(w))
    }

    /// Its words as one text.
    fn name(&self) -> String {
        self.words.join(" ")
    }
}

impl Reader<'_> {
    /// The clause's item claims; things listed together count each (`you take the key and a
    /// purse`).
    pub(super) fn items(&mut self, context: &Context<'_>) {
        for at in 0..context.words.len() {
            let found = self
                .gain_at(context, at)
                .or_else(|| self.loss_at(context, at))
                .or_else(|| self.taken_from_you(context, at));
            if let Some((claim, end)) = found {
                self.claims.push(claim.clone());
                self.claims
                    .extend(self.listed_after(context.words, end, &claim));
            }
        }
    }

    /// The things listed after an item claim's object (`… and a purse with 15 gold`), each
    /// claimed the same way.
    fn listed_after(&self, words: &[String], mut end: usize, claim: &Claim) -> Vec<Claim> {
        let mut more = Vec::new();
        while sequence_at(words, end, &["and"]) {
            let Some(object) = object_at(words, end + 1).filter(|o| o.determined && !o.yours)
            else {
                break;
            };
            if !self.is_item(&object) {
                break;
            }
            end = object.end;
            more.push(match claim {
                Claim::ItemLost { .. } => Claim::ItemLost {
                    item: object.name(),
                },
                _ => Claim::ItemGained {
                    item: object.name(),
                    quantity: object.quantity,
                },
            });
        }
        more
    }

    /// An item of the hero's someone else takes (`the merchant takes your 10 gold coins`).
    fn taken_from_you(&self, context: &Context<'_>, at: usize) -> Option<(Claim, usize)> {
        let words = context.words;
        if !TAKE_YOURS.contains(&words[at].as_str()) || !asserted(&words[..at]) {
            return None;
        }
        let object = object_at(words, at + 1)?;
        let other = !matches!(self.actor_of(context, at), Actor::Hero | Actor::Unknown);
        (other && object.yours && self.is_item(&object)).then(|| {
            let end = object.end;
            (
                Claim::ItemLost {
                    item: object.name(),
                },
                end,
            )
        })
    }

    /// An item gained by the verb at `at`, and where its object ends.
    fn gain_at(&self, context: &Context<'_>, at: usize) -> Option<(Claim, usize)> {
        let words = context.words;
        let verb = words[at].as_str();
        let given = GIVE_YOU.contains(&verb) && sequence_at(words, at + 1, &["you"]);
        let mut start = at + 1 + usize::from(given);
        let picked = PICK_UP.contains(&verb);
        if picked && sequence_at(words, start, &["up"]) {
            start += 1;
        }
        let object = object_at(words, start)?;
        let cue = possession_cue(words, object.end);
        let pocket = POCKET.contains(&verb) || (PUT_AWAY.contains(&verb) && cue);
        let weak = GAIN.contains(&verb)
            || given
            || (picked && (start > at + 1 || sequence_at(words, object.end, &["up"])));
        if !(pocket || weak)
            || (!given && self.actor_of(context, at) != Actor::Hero)
            || !asserted(&words[..at])
            || object.yours
            || from_your(words, object.end)
        {
            return None;
        }
        // `you grab the rope` (carried already): using it, not gaining another.
        if !pocket && object.quantity.is_none() && self.vocabulary.is_carried(&object.name()) {
            return None;
        }
        let plural = singular(object.words.last()?) != object.words.last()?.as_str();
        let thing = self.is_item(&object)
            && (object.determined
                || plural
                || cue
                || ["gold", "silver", "copper"].contains(&object.head()));
        (pocket || thing).then(|| {
            let claim = Claim::ItemGained {
                item: object.name(),
                quantity: object.quantity,
            };
            (claim, object.end)
        })
    }

    /// An item lost, dropped, given away or drunk by the verb at `at`, and where its object
    /// ends.
    fn loss_at(&self, context: &Context<'_>, at: usize) -> Option<(Claim, usize)> {
        let words = context.words;
        let verb = words[at].as_str();
        let particle = LOSE_WITH_PARTICLE
            .iter()
            .find(|(v, _)| *v == verb)
            .map(|(_, p)| *p);
        let gives = GIVE_AWAY.contains(&verb);
        if !(LOSE.contains(&verb) || gives || particle.is_some()) {
            return None;
        }
        let mut start = at + 1;
        let leading = ["over", "up", "away"]
            .iter()
            .find(|p| sequence_at(words, start, &[p]));
        start += usize::from(leading.is_some());
        let mut object = object_at(words, start)?;
        if let Some(particle) = particle {
            let around = leading == Some(&particle) || sequence_at(words, object.end, &[particle]);
            if !around {
                return None;
            }
        }
        if gives && !self.is_item(&object) {
            // `give the guard a coin`: the thing is the second object.
            object = object_at(words, object.end)?;
        }
        if self.actor_of(context, at) != Actor::Hero
            || !asserted(&words[..at])
            || !self.is_item(&object)
            || possession_cue(words, object.end)
        {
            return None;
        }
        let claim = Claim::ItemLost {
            item: object.name(),
        };
        Some((claim, object.end))
    }

    /// Whether `object` is a thing a hero carries (`gold pieces` too).
    fn is_item(&self, object: &Object) -> bool {
        let metal = |w: &String| ["gold", "silver", "copper", "platinum"].contains(&w.as_str());
        self.vocabulary.is_item(object.head())
            || (object.head() == "piece" && object.words.iter().any(metal))
    }
}

/// The noun phrase starting at `at`: determiners, numbers and owners (`the goblin's`) passed
/// over, at most four words, measures looked past (`a handful of coins`).
pub(super) fn object_at(words: &[String], at: usize) -> Option<Object> {
    let mut object = Object::default();
    let mut i = at;
    while let Some(w) = words.get(i) {
        if let Some(n) = number(w) {
            object.quantity = Some(n);
        } else if w == "your" {
            object.yours = true;
        } else if !DETERMINERS.contains(&w.as_str()) {
            break;
        }
        object.determined = true;
        i += 1;
    }
    while let Some(w) = words.get(i) {
        if w.ends_with("'s") || w.ends_with("s'") {
            object.words.clear();
        } else if MEASURES.contains(&w.as_str()) && sequence_at(words, i + 1, &["of"]) {
            object.words.clear();
            i += 1;
        } else if PHRASE_STOPS.contains(&w.as_str()) || is_adverb(w) || number(w).is_some() {
            break;
        } else if object.words.len() < 4 {
            object.words.push(w.clone());
        } else {
            break;
        }
        i += 1;
    }
    object.end = i;
    (!object.words.is_empty()).then_some(object)
}

/// Whether the words at `at` put the thing into the hero's keeping (`into your pack`).
fn possession_cue(words: &[String], at: usize) -> bool {
    let into = [
        "into", "in", "to", "onto", "inside", "under", "behind", "beneath",
    ];
    words.get(at).is_some_and(|w| into.contains(&w.as_str()))
        && sequence_at(words, at + 1, &["your"])
        && words[at + 2..]
            .iter()
            .take(2)
            .any(|w| CONTAINERS.contains(&singular(w)))
}

/// Whether the words at `at` take the thing out of the hero's own keeping (`from your pack`).
fn from_your(words: &[String], at: usize) -> bool {
    sequence_at(words, at, &["from", "your"]) || sequence_at(words, at, &["out", "of", "your"])
}
