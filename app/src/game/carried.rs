//! What a move says the hero uses, checked against what they carry: "Shoot the wolf with your
//! bow" needs a bow, "I drink my potion" a potion. The rules read a move's words for a thing it
//! claims as the hero's own (after "my" or "your", within a few words, or drunk, shot or lit) and
//! name the first one the inventory does not hold. Anything else a move names is the scene's
//! (a bow on the wall is not the hero's).

use super::inventory::Inventory;
use super::item_kind::ItemKind;

/// A thing a move uses that the hero does not carry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("you have no {0}")]
pub struct Lacking(pub &'static str);

/// The things the rules know a hero may carry, each as the word a move names it by and the
/// words in an item's name (or, with `*`, its kind) that make the hero its carrier.
const THINGS: &[(&str, &[&str])] = &[
    ("bow", &["bow"]),
    ("longbow", &["longbow"]),
    ("shortbow", &["shortbow"]),
    ("crossbow", &["crossbow"]),
    ("sling", &["sling"]),
    ("arrows", &["arrow", "bow"]),
    ("sword", &["sword", "rapier", "scimitar"]),
    ("longsword", &["longsword"]),
    ("shortsword", &["shortsword"]),
    ("greatsword", &["greatsword"]),
    ("rapier", &["rapier"]),
    ("scimitar", &["scimitar"]),
    ("dagger", &["dagger"]),
    ("daggers", &["dagger"]),
    ("knife", &["knife", "dagger"]),
    ("axe", &["axe"]),
    ("handaxe", &["handaxe"]),
    ("greataxe", &["greataxe"]),
    ("mace", &["mace"]),
    ("warhammer", &["warhammer"]),
    ("hammer", &["hammer"]),
    ("spear", &["spear"]),
    ("javelin", &["javelin"]),
    ("javelins", &["javelin"]),
    ("staff", &["staff"]),
    ("quarterstaff", &["quarterstaff"]),
    ("club", &["club"]),
    ("whip", &["whip"]),
    ("flail", &["flail"]),
    ("halberd", &["halberd"]),
    ("trident", &["trident"]),
    ("maul", &["maul"]),
    ("weapon", &["*weapon"]),
    ("shield", &["*shield"]),
    ("armor", &["*armor"]),
    ("armour", &["*armor"]),
    ("potion", &["potion"]),
    ("potions", &["potion"]),
    ("rope", &["rope"]),
    ("torch", &["torch"]),
    ("torches", &["torch"]),
    ("lantern", &["lantern"]),
    ("lockpicks", &["lockpick", "thieves"]),
    ("crowbar", &["crowbar"]),
    ("grappling", &["grappling"]),
    ("spellbook", &["spellbook"]),
    ("scroll", &["scroll"]),
    ("wand", &["wand"]),
    ("caltrops", &["caltrops"]),
];

/// Words that, just before a thing, make it the hero's own.
const OWNING: &[&str] = &["my", "your"];

/// Verbs whose thing is the hero's own even without "my": the potion drunk, the torch lit.
const USING: &[(&str, &str)] = &[
    ("drink", "potion"),
    ("drinks", "potion"),
    ("quaff", "potion"),
    ("quaffs", "potion"),
    ("light", "torch"),
    ("lights", "torch"),
];

/// How many words may stand between "my" and the thing ("my old yew bow").
const REACH: usize = 3;

/// The first thing `words` claim as the hero's that `inventory` does not hold.
pub fn lacking(words: &str, inventory: &Inventory) -> Result<(), Lacking> {
    let lower = words.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    for (index, word) in words.iter().enumerate() {
        let claimed: Vec<&'static str> = if OWNING.contains(word) {
            words[index + 1..]
                .iter()
                .take(REACH)
                .filter_map(|next| thing(next))
                .take(1)
                .collect()
        } else {
            USING
                .iter()
                .filter(|(verb, _)| verb == word)
                .filter_map(|(_, object)| {
                    let within = words[index + 1..].iter().take(REACH);
                    within.filter_map(|next| thing(next)).find(|t| t == object)
                })
                .collect()
        };
        for name in claimed {
            if !carries(inventory, name) {
                return Err(Lacking(name));
            }
        }
    }
    Ok(())
}

/// The thing a word names, if the rules know it.
fn thing(word: &str) -> Option<&'static str> {
    THINGS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(name, _)| *name)
}

/// Whether `inventory` holds the thing called `name`.
fn carries(inventory: &Inventory, name: &str) -> bool {
    let Some((_, marks)) = THINGS.iter().find(|(thing, _)| *thing == name) else {
        return true;
    };
    inventory.items().iter().any(|item| {
        let item_name = item.name().as_str().to_lowercase();
        marks.iter().any(|mark| match mark.strip_prefix('*') {
            Some("weapon") => matches!(item.kind(), ItemKind::Weapon(_)),
            Some("shield") => {
                matches!(item.kind(), ItemKind::Shield) || item_name.contains("shield")
            }
            Some("armor") => matches!(item.kind(), ItemKind::Armor(_)),
            _ => item_name.contains(mark),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::creation::tests_support::rogue;

    #[test]
    fn a_thing_claimed_as_the_heros_must_be_carried() {
        let empty = Inventory::default();
        assert_eq!(
            lacking("Shoot the wolf with your bow", &empty),
            Err(Lacking("bow"))
        );
        assert_eq!(lacking("I drink my potion", &empty), Err(Lacking("potion")));
        assert_eq!(lacking("I quaff a potion.", &empty), Err(Lacking("potion")));
        assert_eq!(
            lacking("Tie my trusty old rope to the beam", &empty),
            Err(Lacking("rope"))
        );
        assert_eq!(Lacking("potion").to_string(), "you have no potion");
        // The scene's things are not the hero's.
        assert_eq!(lacking("Take the bow from the wall", &empty), Ok(()));
        assert_eq!(lacking("Look for a potion on the shelf", &empty), Ok(()));
        assert_eq!(lacking("I sneak past the guard", &empty), Ok(()));
    }

    #[test]
    fn what_the_hero_carries_passes() {
        // Shortsword, daggers, leather armour, thieves' tools, a healing potion, torches.
        let sheet = rogue();
        let inventory = sheet.inventory();
        for words in [
            "I drink my potion",
            "Slash at it with your sword",
            "Throw your dagger",
            "Pick the lock with your lockpicks",
            "I light a torch",
            "I raise my weapon",
        ] {
            assert_eq!(lacking(words, inventory), Ok(()), "{words}");
        }
        assert_eq!(
            lacking("Shoot the wolf with your bow", inventory),
            Err(Lacking("bow"))
        );
    }
}
