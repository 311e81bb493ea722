//! Claims with numbers: damage taken (`you take 5 damage`, `the goblin hits you for 5`, `you
//! lose 3 hit points`), damage dealt (`you deal 7 damage to the goblin`), healing (`you regain 4
//! hit points`, `the potion heals you for 7`), hit points left (`you are down to 3 HP`),
//! experience (`you gain 50 XP`) and levels (`you reach level 2`, `you level up`).
//!
//! Who a number is about comes from its verb: whoever takes, suffers or loses it (the actor of
//! `take`), whoever is dealt it (`deals you`, `hits you for`, `to the goblin`), or, when the
//! attacker deals it, the other side of the fight. A number nobody in particular takes (`the
//! trap deals 10 damage to anyone who …`) claims nothing.

use super::claims::{Claim, FoeRef};
use super::reader::{asserted, is_adverb, is_you, sequence_at, Actor, Context, Reader};
use super::text::number;
use crate::gm::prose::lexicon::{
    AMOUNT_FILLER, DAMAGE_TYPES, DEAL_AMOUNT, EARN, HEAL, HIT_POINTS_LEFT_CUES, PHRASE_STOPS,
    TAKE_AMOUNT,
};

/// What a number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Damage,
    HitPoints,
    Experience,
    Bare,
}

/// The kinds of verb a number hangs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    /// [`TAKE_AMOUNT`].
    Take,
    /// [`DEAL_AMOUNT`].
    Deal,
    /// [`HEAL`].
    Heal,
    /// [`EARN`].
    Earn,
}

/// The verb a number hangs on, and who it is dealt to when the words say.
#[derive(Clone, Debug, Default)]
struct Governor {
    /// The verb's place and kind.
    verb: Option<(usize, Verb)>,
    /// `… you for 5`, `deals you 5`.
    to_you: bool,
    /// `… the goblin for 6`.
    to_foe: Option<FoeRef>,
}

/// Who a number of damage is about.
enum Target {
    Hero,
    Foe(Option<FoeRef>),
}

impl Reader<'_> {
    /// The clause's number claims.
    pub(super) fn numbers(&mut self, context: &Context<'_>) {
        let words = context.words;
        for at in 0..words.len() {
            // `no damage` is a claim of none.
            let amount = number(&words[at]).or((words[at] == "no").then_some(0));
            if let Some(amount) = amount {
                let (unit, end) = unit_at(words, at + 1);
                if words[at] == "no" && unit != Unit::Damage {
                    continue;
                }
                let governor = self.governor(context, at);
                let verb_at = governor.verb.map_or(at, |(v, _)| v);
                if !asserted(&words[..verb_at])
                    || words.get(at.wrapping_sub(1)).is_some_and(|w| w == "worth")
                {
                    continue;
                }
                let claim = match unit {
                    Unit::Damage => self.damage(context, &governor, end, amount),
                    Unit::HitPoints => self.hit_points(context, &governor, at, end, amount),
                    Unit::Experience => self.experience(context, &governor, amount),
                    Unit::Bare if bare_end(words, at + 1) => {
                        self.healing(context, &governor, amount, true)
                    }
                    Unit::Bare => None,
                };
                self.claims.extend(claim);
            }
        }
        self.levels(context);
        self.full_health(context);
    }

    /// `you are back to full health`, `you are fully healed`.
    fn full_health(&mut self, context: &Context<'_>) {
        let words = context.words;
        let hero = context.subject == Actor::Hero || words.iter().any(|w| is_you(w));
        for at in 0..words.len() {
            let full = sequence_at(words, at, &["full", "health"])
                || sequence_at(words, at, &["full", "hit", "points"])
                || sequence_at(words, at, &["fully", "healed"])
                || sequence_at(words, at, &["fully", "restored"]);
            if full && hero && asserted(&words[..at]) {
                self.claims.push(Claim::FullHealth);
            }
        }
    }

    /// The verb before the number at `at`, passing over fillers, `you` and `for`.
    fn governor(&self, context: &Context<'_>, at: usize) -> Governor {
        let words = context.words;
        let mut governor = Governor::default();
        let mut k = at;
        let mut passed_for = false;
        while k > 0 {
            let w = words[k - 1].as_str();
            let kinds = [
                (TAKE_AMOUNT, Verb::Take),
                (DEAL_AMOUNT, Verb::Deal),
                (HEAL, Verb::Heal),
                (EARN, Verb::Earn),
            ];
            if let Some((_, kind)) = kinds.into_iter().find(|(list, _)| list.contains(&w)) {
                governor.verb = Some((k - 1, kind));
                break;
            }
            if is_you(w) {
                governor.to_you = true;
            } else if w == "for" {
                passed_for = true;
            } else if passed_for && !governor.to_you {
                governor.to_foe = self.foe_ending_at(words, k);
                break;
            } else if !AMOUNT_FILLER.contains(&w) && !is_adverb(w) {
                break;
            }
            k -= 1;
        }
        governor
    }

    /// Who a number of damage is about: said after it (`to you`, `to the goblin`), by its verb,
    /// or by the clause's attacker.
    fn target(&self, context: &Context<'_>, governor: &Governor, end: usize) -> Option<Target> {
        let words = context.words;
        if words.get(end).is_some_and(|w| w == "to") {
            let next = words.get(end + 1).map(String::as_str);
            if next.is_some_and(|w| is_you(w) || w == "your") {
                return Some(Target::Hero);
            }
            if next.is_some_and(|w| matches!(w, "it" | "him" | "her")) {
                return Some(Target::Foe(self.foe_before(words, end)));
            }
            return self
                .foe_at(words, end + 1, None)
                .map(|(foe, _, _)| Target::Foe(Some(foe)));
        }
        if governor.to_you {
            return Some(Target::Hero);
        }
        if governor.to_foe.is_some() {
            return Some(Target::Foe(governor.to_foe.clone()));
        }
        let taker = match governor.verb {
            Some((v, Verb::Take)) => return self.taker(context, v),
            Some((v, Verb::Deal)) => self.actor_of(context, v),
            Some(_) => return None,
            // No verb: the hero feels it, unless the clause names the foe struck.
            None if context.subject == Actor::Hero => {
                let struck = (0..words.len()).find_map(|i| self.foe_at(words, i, None));
                return Some(match struck {
                    Some((foe, _, _)) => Target::Foe(Some(foe)),
                    None => Target::Hero,
                });
            }
            None => context.subject.clone(),
        };
        match taker {
            a if a.is_hero_side() => Some(Target::Foe(self.foe_before(words, words.len()))),
            a if a.is_foe_side() => Some(Target::Hero),
            _ if context.you => Some(Target::Hero),
            _ => None,
        }
    }

    /// Who takes a number with `take`, `suffer`, `lose`.
    fn taker(&self, context: &Context<'_>, verb: usize) -> Option<Target> {
        match self.actor_of(context, verb) {
            Actor::Hero => Some(Target::Hero),
            Actor::Foe(foe) => Some(Target::Foe(Some(foe))),
            _ => None,
        }
    }

    fn damage(
        &self,
        context: &Context<'_>,
        governor: &Governor,
        end: usize,
        amount: u32,
    ) -> Option<Claim> {
        match self.target(context, governor, end)? {
            Target::Hero => Some(Claim::Damage(amount)),
            Target::Foe(foe) => Some(Claim::Dealt { foe, amount }),
        }
    }

    /// `lose 3 hit points` (damage), `regain 3 hit points` (healing), `down to 3 hit points`
    /// (what is left).
    fn hit_points(
        &self,
        context: &Context<'_>,
        governor: &Governor,
        at: usize,
        end: usize,
        amount: u32,
    ) -> Option<Claim> {
        match governor.verb {
            Some((_, Verb::Take | Verb::Deal)) => {
                return self.damage(context, governor, end, amount)
            }
            Some((_, Verb::Heal)) => return self.healing(context, governor, amount, false),
            _ => {}
        }
        let words = context.words;
        let cue = at > 0 && HIT_POINTS_LEFT_CUES.contains(&words[at - 1].as_str());
        let left = words
            .get(end)
            .is_some_and(|w| matches!(w.as_str(), "left" | "remaining" | "remain" | "remains"));
        let hero = words[at.saturating_sub(5)..at].iter().any(|w| is_you(w))
            || context.subject == Actor::Hero;
        ((cue || left) && hero).then_some(Claim::HitPointsLeft(amount))
    }

    /// Healing, unless a foe is healed; a bare number only after `heal`, `regain`, `restore`.
    fn healing(
        &self,
        context: &Context<'_>,
        governor: &Governor,
        amount: u32,
        bare: bool,
    ) -> Option<Claim> {
        let (v, kind) = governor.verb?;
        if kind != Verb::Heal || (bare && context.words[v].starts_with("gain")) {
            return None;
        }
        let healer = self.actor_of(context, v);
        (!matches!(healer, Actor::Foe(_) | Actor::FoeThing(_)) || governor.to_you)
            .then_some(Claim::Healing(amount))
    }

    /// `you gain 50 XP`, `the fight grants you 50 XP`.
    fn experience(&self, context: &Context<'_>, governor: &Governor, amount: u32) -> Option<Claim> {
        let (v, kind) = governor.verb?;
        let hero = governor.to_you || self.actor_of(context, v) == Actor::Hero;
        (matches!(kind, Verb::Earn | Verb::Heal) && hero).then_some(Claim::Experience(amount))
    }

    /// `you reach level 2`, `you are now level 3`, `you level up`, `you gain a level`.
    fn levels(&mut self, context: &Context<'_>) {
        let words = context.words;
        for at in 0..words.len() {
            let level = match words[at].as_str() {
                "level" if !sequence_at(words, at + 1, &["up"]) => {
                    match words.get(at + 1).and_then(|w| number(w)) {
                        Some(n) if at > 0 && is_level_cue(&words[at - 1]) => {
                            Some(u8::try_from(n).ok())
                        }
                        _ => None,
                    }
                }
                "level" | "levels" | "levelled" | "leveled"
                    if sequence_at(words, at + 1, &["up"]) =>
                {
                    Some(None)
                }
                "gain" | "gains" | "gained"
                    if sequence_at(words, at + 1, &["a", "level"])
                        || sequence_at(words, at + 1, &["a", "new", "level"]) =>
                {
                    Some(None)
                }
                _ => None,
            };
            let hero = context.you && !context.subject.is_foe_side();
            if let Some(level) = level.filter(|_| hero && asserted(&words[..at])) {
                self.claims.push(Claim::Level(level));
            }
        }
    }
}

/// Whether a bare number ends its phrase at `at` (`heals you for 7.`, `heals 7 and …`), so it
/// counts nothing else (`recover 3 arrows`).
fn bare_end(words: &[String], at: usize) -> bool {
    words
        .get(at)
        .is_none_or(|w| PHRASE_STOPS.contains(&w.as_str()) || w == "more")
}

/// Whether `word` before `level N` makes it a level reached (`reach`, `now`, `to`).
fn is_level_cue(word: &str) -> bool {
    [
        "reach", "reached", "reaches", "reaching", "attain", "attained", "attains", "now", "to",
        "become", "becomes", "became", "hit", "hits",
    ]
    .contains(&word)
}

/// What the words from `at` count, and where that phrase ends.
fn unit_at(words: &[String], at: usize) -> (Unit, usize) {
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    let mut i = at;
    if matches!(word(i), "point" | "points") && word(i + 1) == "of" {
        i += 2;
    }
    if DAMAGE_TYPES.contains(&word(i)) {
        i += 1;
    }
    match word(i) {
        "damage" => (Unit::Damage, i + 1),
        "hit" if matches!(word(i + 1), "point" | "points") => {
            if word(i + 2) == "of" && word(i + 3) == "damage" {
                (Unit::Damage, i + 4)
            } else {
                (Unit::HitPoints, i + 2)
            }
        }
        "hp" | "health" => (Unit::HitPoints, i + 1),
        "xp" | "exp" => (Unit::Experience, i + 1),
        "experience" if matches!(word(i + 1), "point" | "points") => (Unit::Experience, i + 2),
        "experience" => (Unit::Experience, i + 1),
        _ => (Unit::Bare, at),
    }
}
