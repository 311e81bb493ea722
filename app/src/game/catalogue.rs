//! The items the rules know by name, with SRD 5.1 figures: common weapons, armour, the shield,
//! healing potions and antitoxin. An item whose name (as a slug, so any case or spacing) is one
//! of these gets its kind from here, wherever it comes from ([`NewItem::new`]); a caller cannot
//! make a "Longsword" that deals 3d12.
//!
//! [`NewItem::new`]: super::inventory::NewItem::new

use super::dice::DiceExpr;
use super::item_kind::{ArmorCategory, ArmorRule, DamageType, Effect, ItemKind, WeaponProfile};
use super::text::{ConditionName, Slug};

/// An item's kind as plain data, made into an [`ItemKind`] on lookup.
#[derive(Clone, Copy, Debug)]
enum Spec {
    /// Damage dice, damage type, finesse, ranged.
    Weapon(&'static str, DamageType, bool, bool),
    /// Category and base AC.
    Armor(ArmorCategory, i64),
    /// +2 AC.
    Shield,
    /// Healing dice.
    Heal(&'static str),
    /// The condition cured.
    Cure(&'static str),
}

/// One known item: its name, other names it goes by, and its kind.
#[derive(Clone, Copy, Debug)]
struct Entry {
    name: &'static str,
    aliases: &'static [&'static str],
    spec: Spec,
}

use ArmorCategory::{Heavy, Light, Medium};
use DamageType::{Bludgeoning, Piercing, Slashing};

const fn weapon(name: &'static str, dice: &'static str, damage: DamageType) -> Entry {
    Entry {
        name,
        aliases: &[],
        spec: Spec::Weapon(dice, damage, false, false),
    }
}

const fn finesse(name: &'static str, dice: &'static str, damage: DamageType) -> Entry {
    Entry {
        name,
        aliases: &[],
        spec: Spec::Weapon(dice, damage, true, false),
    }
}

const fn ranged(name: &'static str, dice: &'static str) -> Entry {
    Entry {
        name,
        aliases: &[],
        spec: Spec::Weapon(dice, Piercing, false, true),
    }
}

impl Entry {
    /// The same entry, also known by `aliases` (slugs).
    const fn aka(self, aliases: &'static [&'static str]) -> Entry {
        Entry { aliases, ..self }
    }
}

const fn armor(
    name: &'static str,
    aliases: &'static [&'static str],
    category: ArmorCategory,
    base: i64,
) -> Entry {
    Entry {
        name,
        aliases,
        spec: Spec::Armor(category, base),
    }
}

/// Every item the rules know by name.
const ENTRIES: &[Entry] = &[
    weapon("Club", "1d4", Bludgeoning),
    finesse("Dagger", "1d4", Piercing),
    weapon("Handaxe", "1d6", Slashing).aka(&["hand-axe"]),
    weapon("Mace", "1d6", Bludgeoning),
    weapon("Quarterstaff", "1d6", Bludgeoning).aka(&["staff"]),
    weapon("Spear", "1d6", Piercing),
    weapon("Battleaxe", "1d8", Slashing),
    weapon("Greataxe", "1d12", Slashing).aka(&["great-axe"]),
    weapon("Greatsword", "2d6", Slashing),
    weapon("Longsword", "1d8", Slashing).aka(&["long-sword"]),
    finesse("Rapier", "1d8", Piercing),
    finesse("Scimitar", "1d6", Slashing),
    finesse("Shortsword", "1d6", Piercing).aka(&["short-sword"]),
    weapon("Warhammer", "1d8", Bludgeoning),
    ranged("Light crossbow", "1d8"),
    ranged("Longbow", "1d8"),
    ranged("Shortbow", "1d6"),
    armor("Padded armor", &["padded-armour"], Light, 11),
    armor("Leather armor", &["leather-armour"], Light, 11),
    armor(
        "Studded leather armor",
        &["studded-leather", "studded-leather-armour"],
        Light,
        12,
    ),
    armor("Hide armor", &["hide-armour"], Medium, 12),
    armor("Chain shirt", &[], Medium, 13),
    armor("Scale mail", &[], Medium, 14),
    armor("Breastplate", &[], Medium, 14),
    armor(
        "Half plate",
        &["half-plate-armor", "half-plate-armour"],
        Medium,
        15,
    ),
    armor("Ring mail", &[], Heavy, 14),
    armor("Chain mail", &[], Heavy, 16),
    armor("Splint armor", &["splint", "splint-armour"], Heavy, 17),
    armor("Plate armor", &["plate", "plate-armour"], Heavy, 18),
    Entry {
        name: "Shield",
        aliases: &[],
        spec: Spec::Shield,
    },
    Entry {
        name: "Potion of healing",
        aliases: &["healing-potion"],
        spec: Spec::Heal("2d4+2"),
    },
    Entry {
        name: "Potion of greater healing",
        aliases: &["greater-healing-potion"],
        spec: Spec::Heal("4d4+4"),
    },
    Entry {
        name: "Antitoxin",
        aliases: &[],
        spec: Spec::Cure("Poisoned"),
    },
];

impl Entry {
    /// Whether `slug` names this entry.
    fn is_named(&self, slug: &Slug) -> bool {
        Slug::new(self.name).is_ok_and(|own| &own == slug)
            || self.aliases.iter().any(|alias| *alias == slug.as_str())
    }

    /// The kind the entry describes. The table is checked by the tests, so it always parses.
    fn kind(&self) -> ItemKind {
        let dice = |notation: &str| DiceExpr::parse(notation).expect("catalogue dice");
        match self.spec {
            Spec::Weapon(damage, damage_type, finesse, ranged) => ItemKind::Weapon(
                WeaponProfile::new(dice(damage), damage_type, finesse, ranged)
                    .expect("catalogue weapon"),
            ),
            Spec::Armor(category, base) => {
                ItemKind::Armor(ArmorRule::new(category, base).expect("catalogue armour"))
            }
            Spec::Shield => ItemKind::Shield,
            Spec::Heal(healing) => {
                ItemKind::Consumable(Effect::heal(dice(healing)).expect("catalogue healing"))
            }
            Spec::Cure(condition) => ItemKind::Consumable(Effect::Cure(
                ConditionName::new(condition).expect("catalogue condition"),
            )),
        }
    }
}

/// The kind of the item called `name` (any case, spacing or punctuation), if the rules know it.
pub fn kind_of(name: &str) -> Option<ItemKind> {
    let slug = Slug::new(name).ok()?;
    ENTRIES
        .iter()
        .find(|entry| entry.is_named(&slug))
        .map(Entry::kind)
}

/// Every item the rules know, by its catalogue name, with its kind.
pub fn entries() -> impl Iterator<Item = (&'static str, ItemKind)> {
    ENTRIES.iter().map(|entry| (entry.name, entry.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::item_kind::Slot;

    #[test]
    fn every_entry_is_within_the_bounds_and_named_once() {
        let mut slugs: Vec<String> = Vec::new();
        for entry in ENTRIES {
            // Panics if an entry is out of bounds.
            let _ = entry.kind();
            let own = Slug::new(entry.name).unwrap().as_str().to_owned();
            for slug in std::iter::once(own).chain(entry.aliases.iter().map(|a| (*a).to_owned())) {
                assert_eq!(
                    Slug::new(&slug).unwrap().as_str(),
                    slug,
                    "aliases are slugs"
                );
                assert!(!slugs.contains(&slug), "{slug} twice");
                slugs.push(slug);
            }
        }
        assert_eq!(entries().count(), ENTRIES.len());
    }

    #[test]
    fn names_match_in_any_case_and_by_alias() {
        let summary = |name: &str| kind_of(name).map(|kind| kind.summary());
        assert_eq!(summary("LONGSWORD").as_deref(), Some("1d8 slashing"));
        assert_eq!(
            summary("Short sword").as_deref(),
            Some("1d6 piercing, finesse")
        );
        assert_eq!(
            summary("Shortsword").as_deref(),
            Some("1d6 piercing, finesse")
        );
        assert_eq!(summary("dagger").as_deref(), Some("1d4 piercing, finesse"));
        assert_eq!(summary("Longbow").as_deref(), Some("1d8 piercing, ranged"));
        assert_eq!(summary("Greataxe").as_deref(), Some("1d12 slashing"));
        assert_eq!(summary("Leather armour").as_deref(), Some("AC 11 + DEX"));
        assert_eq!(summary("Studded leather").as_deref(), Some("AC 12 + DEX"));
        assert_eq!(
            summary("Scale mail").as_deref(),
            Some("AC 14 + DEX (max 2)")
        );
        assert_eq!(
            summary("Chain shirt").as_deref(),
            Some("AC 13 + DEX (max 2)")
        );
        assert_eq!(summary("Chain mail").as_deref(), Some("AC 16"));
        assert_eq!(summary("Healing potion").as_deref(), Some("heals 2d4+2"));
        assert_eq!(summary("Potion of Healing").as_deref(), Some("heals 2d4+2"));
        assert_eq!(summary("Antitoxin").as_deref(), Some("cures Poisoned"));
        assert_eq!(kind_of("shield").and_then(|k| k.slot()), Some(Slot::Shield));
        assert_eq!(kind_of("Rusty key"), None);
        assert_eq!(kind_of("???"), None);
    }
}
