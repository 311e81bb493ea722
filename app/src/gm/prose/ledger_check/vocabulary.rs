//! The words a claim is made of in this turn: the fight's foes by kind, the things that count as
//! items (a list of portable things, the rules' catalogue, whatever the hero carries and the
//! turn's items), and the condition names (the SRD's, and any the sheet or the turn uses).

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::game::{catalogue, CharacterSheet};
use crate::gm::prose::lexicon::{CONDITIONS, ITEMS, SAME_THINGS};

use super::claims::FoeRef;
use super::rules::RulesRecord;
use super::text::{singular, words};

/// The item words every turn shares, singular: the list of portable things and the words of
/// the rules' catalogue (made once, not for every scene checked).
static COMMON_ITEM_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let mut items: HashSet<String> = ITEMS.iter().map(|w| (*w).to_owned()).collect();
    for (name, _) in catalogue::entries() {
        items.extend(words(name).iter().map(|w| singular(w).to_owned()));
    }
    items
});

/// The words of this turn's claims.
#[derive(Clone, Debug, Default)]
pub(super) struct Vocabulary {
    /// Each foe kind in the fight, lower case (`giant rat`).
    foes: Vec<String>,
    /// Item words, singular, besides [`COMMON_ITEM_WORDS`]: those of the turn's items and of
    /// what the hero carries.
    items: HashSet<String>,
    /// Condition words and the names they stand for, lower case.
    conditions: Vec<(String, String)>,
    /// The names of the items the hero carried before the turn.
    carried: Vec<String>,
}

impl Vocabulary {
    /// The words of the turn `rules` records, for the hero of `before`.
    pub(super) fn new(rules: &RulesRecord, before: &CharacterSheet) -> Self {
        let mut foes: Vec<String> = Vec::new();
        for foe in &rules.foes {
            if !foes.contains(&foe.kind) {
                foes.push(foe.kind.clone());
            }
        }
        let mut items: HashSet<String> = HashSet::new();
        let names = rules.items.iter().map(|i| i.name.clone()).chain(
            before
                .inventory()
                .items()
                .iter()
                .map(|i| i.name().to_string()),
        );
        for name in names {
            items.extend(words(&name).iter().map(|w| singular(w).to_owned()));
        }
        let mut conditions: Vec<(String, String)> = CONDITIONS
            .iter()
            .map(|(w, n)| ((*w).to_owned(), (*n).to_owned()))
            .collect();
        let named = rules
            .conditions_added
            .iter()
            .chain(&rules.conditions_removed)
            .cloned()
            .chain(
                before
                    .conditions()
                    .list()
                    .iter()
                    .map(|c| c.name.to_string()),
            );
        for name in named {
            if let [word] = words(&name).as_slice() {
                conditions.push((word.clone(), word.clone()));
            }
        }
        let carried = before
            .inventory()
            .items()
            .iter()
            .map(|i| i.name().to_string())
            .collect();
        Self {
            foes,
            items,
            conditions,
            carried,
        }
    }

    /// The foe a word names: a kind's last word (`rat` for a giant rat) or, for a kind of
    /// several words, its first (`bandit` for a bandit captain); plural for every foe of it.
    pub(super) fn foe(&self, word: &str) -> Option<FoeRef> {
        let (base, plural) = match self.find_kind(word) {
            Some(kind) => (kind, false),
            None => (self.find_kind(&plural_base(word)?)?, true),
        };
        Some(FoeRef {
            kind: base,
            number: None,
            all: plural,
        })
    }

    fn find_kind(&self, word: &str) -> Option<String> {
        let by_last = self
            .foes
            .iter()
            .find(|kind| kind.rsplit(' ').next() == Some(word));
        let by_first = || {
            self.foes
                .iter()
                .find(|kind| kind.contains(' ') && kind.split(' ').next() == Some(word))
        };
        by_last.or_else(by_first).cloned()
    }

    /// Whether `word` is a thing a hero can carry.
    pub(super) fn is_item(&self, word: &str) -> bool {
        let word = singular(word);
        COMMON_ITEM_WORDS.contains(word) || self.items.contains(word)
    }

    /// Whether the hero carried something called `item` before the turn (`the rope`): the
    /// last words must be the same (no words for the same things here: `the silver dagger` is
    /// not the hero's gold coins).
    pub(super) fn is_carried(&self, item: &str) -> bool {
        let head = |text: &str| words(text).last().map(|w| singular(w).to_owned());
        self.carried
            .iter()
            .any(|name| head(item).is_some() && head(item) == head(name))
    }

    /// The condition `word` names (`paralysed` → `paralyzed`), if it names one.
    pub(super) fn condition(&self, word: &str) -> Option<&str> {
        self.conditions
            .iter()
            .find(|(w, _)| w == word)
            .map(|(_, name)| name.as_str())
    }
}

/// The singular of a plural foe word (`goblins`, `wolves`, `thieves`), if it looks plural.
fn plural_base(word: &str) -> Option<String> {
    if let Some(stem) = word.strip_suffix("ves") {
        return Some(format!("{stem}f"));
    }
    if let Some(stem) = word.strip_suffix("men") {
        return Some(format!("{stem}man"));
    }
    let one = singular(word);
    (one != word).then(|| one.to_owned())
}

/// Whether the prose's `claimed` words and the rules' item `name` are the same thing: one's
/// last word is among the other's words, or a word for the same things is.
pub(super) fn same_item(claimed: &str, name: &str) -> bool {
    let set = |text: &str| -> Vec<String> {
        words(text).iter().map(|w| singular(w).to_owned()).collect()
    };
    let (c, r) = (set(claimed), set(name));
    let covers = |head: Option<&String>, other: &[String]| {
        head.is_some_and(|h| other.iter().any(|w| kin(h).contains(w.as_str())))
    };
    covers(c.last(), &r) || covers(r.last(), &c)
}

/// `word` and the words for the same things.
fn kin(word: &str) -> HashSet<&str> {
    SAME_THINGS
        .iter()
        .filter(|group| group.contains(&word))
        .flat_map(|group| group.iter().copied())
        .chain(std::iter::once(word))
        .collect()
}
