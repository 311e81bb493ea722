//! Each claim held against what the rules did. A claim the rules cannot speak to (a foe the
//! fight never named, a verdict in a turn without a check, `the goblin dies` when one of two
//! goblins fell in an earlier turn) is let pass: only a claim the record plainly denies is a
//! contradiction.

use crate::game::CharacterSheet;
use crate::gm::prose::lexicon::ESCAPE_WORDS;

use super::claims::{Claim, FoeRef, Verdict};
use super::reader::content;
use super::rules::{FoeRecord, RulesRecord};
use super::text::words;
use super::vocabulary::same_item;
use super::Contradiction;

/// The contradiction `claim` makes with `rules`, for the hero of `before`, if any.
pub(super) fn judge(
    claim: &Claim,
    rules: &RulesRecord,
    before: &CharacterSheet,
) -> Option<Contradiction> {
    match claim {
        Claim::Damage(n) => damage(*n, rules),
        Claim::Healing(n) => (!rules.healing.accepts(*n)).then(|| Contradiction::Healing {
            claimed: *n,
            rules: rules.healing.total(),
        }),
        Claim::HitPointsLeft(n) => hit_points_left(*n, rules, before),
        Claim::FullHealth => hit_points_left(u32::from(before.hit_points().max()), rules, before),
        Claim::Dealt { foe, amount } => dealt(foe.as_ref(), *amount, rules),
        Claim::FoeDown(foe) => foe_down(foe, rules),
        Claim::FoeStanding(foe) => foe_standing(foe, rules),
        Claim::FoeFled(foe) => foe_fled(foe, rules),
        Claim::ItemGained { item, quantity } => item_gained(item, *quantity, rules),
        Claim::ItemLost { item } => {
            let lost = rules.items.iter().filter(|m| m.to < m.from);
            (!lost.clone().any(|m| same_item(item, &m.name)))
                .then(|| Contradiction::ItemLost { item: item.clone() })
        }
        Claim::ConditionGained(name) => condition_gained(name, rules, before),
        Claim::ConditionLost(name) => {
            let had = before
                .conditions()
                .list()
                .iter()
                .any(|c| same_condition(name, c.name.as_str()));
            let lost = rules
                .conditions_removed
                .iter()
                .any(|c| same_condition(name, c));
            (had && !lost).then(|| Contradiction::ConditionLost {
                condition: name.clone(),
            })
        }
        Claim::Experience(n) => {
            (!rules.experience.accepts(*n)).then(|| Contradiction::Experience {
                claimed: *n,
                rules: rules.experience.total(),
            })
        }
        Claim::Level(level) => level_reached(*level, rules, before),
        Claim::Verdict { claimed, about } => verdict(*claimed, about, rules),
    }
}

fn damage(claimed: u32, rules: &RulesRecord) -> Option<Contradiction> {
    let total = rules.damage.total();
    let agrees = if claimed == 0 {
        total == 0
    } else {
        rules.damage.accepts(claimed)
    };
    (!agrees).then_some(Contradiction::Damage {
        claimed,
        rules: total,
    })
}

fn hit_points_left(
    claimed: u32,
    rules: &RulesRecord,
    before: &CharacterSheet,
) -> Option<Contradiction> {
    let now = rules.hp_left(before.hit_points().current());
    let seen = rules.hp_seen.iter().any(|hp| u32::from(*hp) == claimed);
    (!seen && u32::from(now) != claimed).then_some(Contradiction::HitPointsLeft {
        claimed,
        rules: now,
    })
}

/// The foes of the fight `foe` may name: those of its kind (and number, if given).
fn named<'r>(foe: &FoeRef, rules: &'r RulesRecord) -> Vec<&'r FoeRecord> {
    rules
        .foes
        .iter()
        .filter(|f| f.kind == foe.kind && (foe.number.is_none() || f.number == foe.number))
        .collect()
}

/// Whether the turn knows every foe `foe` may name: it picks one out, the fight began this
/// turn, or the only one of its kind has no number (it was alone of its kind).
fn definite(foe: &FoeRef, named: &[&FoeRecord], rules: &RulesRecord) -> bool {
    foe.number.is_some() || rules.fight_began || matches!(named, [one] if one.number.is_none())
}

/// `foe` as the note names it: its label when it is one foe, else as the prose put it.
fn label(foe: &FoeRef, named: &[&FoeRecord]) -> String {
    match named {
        [one] => one.label.clone(),
        _ => foe.to_string(),
    }
}

fn dealt(foe: Option<&FoeRef>, claimed: u32, rules: &RulesRecord) -> Option<Contradiction> {
    let struck: Vec<&FoeRecord> = match foe.map(|f| named(f, rules)) {
        Some(found) if !found.is_empty() => found,
        _ => rules.foes.iter().collect(),
    };
    let blows: Vec<u32> = struck
        .iter()
        .flat_map(|f| f.blows.iter().copied())
        .collect();
    let all: u32 = rules.foes.iter().flat_map(|f| &f.blows).sum();
    let total: u32 = blows.iter().sum();
    let agrees = blows.contains(&claimed) || (claimed > 0 && (claimed == total || claimed == all));
    (!agrees).then(|| Contradiction::Dealt {
        foe: foe.map(|f| label(f, &named(f, rules))),
        claimed,
        rules: total,
    })
}

fn foe_down(foe: &FoeRef, rules: &RulesRecord) -> Option<Contradiction> {
    let named = named(foe, rules);
    let down = if foe.all {
        named.iter().all(|f| f.down)
    } else {
        named.iter().any(|f| f.down)
    };
    if named.is_empty() || down || !definite(foe, &named, rules) {
        return None;
    }
    let standing: Vec<&FoeRecord> = named.iter().copied().filter(|f| !f.down).collect();
    Some(Contradiction::FoeDown {
        foe: label(foe, &standing),
        hp_left: match standing.as_slice() {
            [one] => one.hp_left,
            _ => None,
        },
    })
}

fn foe_standing(foe: &FoeRef, rules: &RulesRecord) -> Option<Contradiction> {
    let named = named(foe, rules);
    let all_down = !named.is_empty() && named.iter().all(|f| f.down);
    (all_down && definite(foe, &named, rules)).then(|| Contradiction::FoeStanding {
        foe: label(foe, &named),
    })
}

fn foe_fled(foe: &FoeRef, rules: &RulesRecord) -> Option<Contradiction> {
    let named = named(foe, rules);
    let fled = named.iter().any(|f| f.fled);
    if named.is_empty() || fled || rules.fight_stopped || !definite(foe, &named, rules) {
        return None;
    }
    Some(Contradiction::FoeFled {
        foe: label(foe, &named),
        down: named.iter().all(|f| f.down),
    })
}

fn item_gained(item: &str, quantity: Option<u32>, rules: &RulesRecord) -> Option<Contradiction> {
    let Some(found) = rules
        .items
        .iter()
        .find(|m| m.is_gain() && same_item(item, &m.name))
    else {
        return Some(Contradiction::ItemGained {
            item: item.to_owned(),
        });
    };
    let gained = u32::from(found.to - found.from);
    match quantity {
        Some(q) if q != gained && q != u32::from(found.to) => Some(Contradiction::ItemQuantity {
            item: found.name.clone(),
            claimed: q,
            rules: gained,
        }),
        _ => None,
    }
}

fn condition_gained(
    name: &str,
    rules: &RulesRecord,
    before: &CharacterSheet,
) -> Option<Contradiction> {
    let added = rules
        .conditions_added
        .iter()
        .any(|c| same_condition(name, c));
    let removed = rules
        .conditions_removed
        .iter()
        .any(|c| same_condition(name, c));
    let had = before
        .conditions()
        .list()
        .iter()
        .any(|c| same_condition(name, c.name.as_str()));
    if added || (had && !removed) {
        return None;
    }
    Some(Contradiction::ConditionGained {
        condition: name.to_owned(),
    })
}

/// Whether the condition word `name` is the rules' condition `rule` (`poisoned` is
/// `Poisoned (weak)`).
fn same_condition(name: &str, rule: &str) -> bool {
    words(rule).first().is_some_and(|first| first == name)
}

fn level_reached(
    claimed: Option<u8>,
    rules: &RulesRecord,
    before: &CharacterSheet,
) -> Option<Contradiction> {
    let was = before.level().value();
    let agrees = match (claimed, rules.level_after) {
        (Some(n), Some(after)) => n == after,
        (None, Some(_)) => true,
        (Some(n), None) => n == was,
        (None, None) => false,
    };
    (!agrees).then_some(Contradiction::Level {
        claimed,
        rules: rules.level_after.unwrap_or(was),
    })
}

/// A verdict held against the checks it is about: every check when it names no task, else
/// those whose reason shares a word with the task. Checks that disagree among themselves
/// decide nothing.
fn verdict(claimed: Verdict, about: &[String], rules: &RulesRecord) -> Option<Contradiction> {
    let checks: Vec<_> = rules
        .checks
        .iter()
        .filter(|check| about.is_empty() || is_about(check.escape, &check.reason, about))
        .collect();
    let first = checks.first()?;
    let ruled = Verdict::of(first.success);
    let agree = checks.iter().all(|c| Verdict::of(c.success) == ruled);
    (agree && ruled != claimed).then(|| Contradiction::Verdict {
        check: first.reason.clone(),
        claimed,
        rules: ruled,
    })
}

/// Whether a check (an escape, or one for `reason`) is about the task words `about`.
fn is_about(escape: bool, reason: &str, about: &[String]) -> bool {
    if about.iter().any(|w| ESCAPE_WORDS.contains(&w.as_str())) {
        return escape;
    }
    let reason = content(&words(reason));
    about.iter().any(|a| reason.iter().any(|r| same_stem(a, r)))
}

/// Whether two words share a stem: their first five letters (four for a shorter word: `pick`,
/// `picking`; `climb`, `climbing`; not `persuade`, `person`).
fn same_stem(a: &str, b: &str) -> bool {
    let n = a.chars().count().min(b.chars().count()).min(5);
    n >= 4 && a.chars().take(n).eq(b.chars().take(n))
}
