//! The character panel: attributes, items with what the panel offers for each, the powers
//! (slots, spells, class features) and the rest of the sheet as the player reads it.

use serde::{Deserialize, Serialize};

use super::*;

/// One attribute on the character panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributeView {
    /// `STR`, `DEX`, ...
    pub name: String,
    /// The score.
    pub score: u8,
    /// The modifier.
    pub modifier: i8,
}

/// One carried item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemView {
    /// Its key, sent back to use, equip or drop it.
    pub slug: String,
    /// Its name.
    pub name: String,
    /// How many.
    pub quantity: u16,
    /// What it is.
    pub description: Option<String>,
    /// What the rules make of it: `weapon 1d8 slashing`, `armour AC 11 + DEX`, `shield +2 AC`,
    /// `heals 2d4+2`; empty for gear.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// What the panel can do with it besides dropping it.
    #[serde(default)]
    pub handling: Handling,
}

/// What the character panel offers for an item besides dropping it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Handling {
    /// Gear: "Use" is a move for the game master.
    #[default]
    Gear,
    /// A consumable: "Use" asks the rules to use one.
    Consumable,
    /// A weapon, armour or shield not in hand: "Equip".
    Equippable,
    /// A weapon, armour or shield in hand: "Unequip".
    Equipped,
}

/// The character panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetView {
    /// Name.
    pub name: String,
    /// Class.
    pub class: String,
    /// Level.
    pub level: u8,
    /// Current hit points.
    pub hp: u16,
    /// Maximum hit points.
    pub max_hp: u16,
    /// Armour class, from what is equipped.
    pub armor_class: u8,
    /// Sanity, if the campaign tracks it.
    pub sanity: Option<u8>,
    /// STR DEX CON INT WIS CHA.
    pub attributes: Vec<AttributeView>,
    /// Conditions, e.g. `Poisoned (1 hour)`.
    pub conditions: Vec<String>,
    /// Inventory.
    pub inventory: Vec<ItemView>,
    /// Where the character is.
    pub location: String,
    /// In-game time, e.g. `Day 1, 08:00`.
    pub time: String,
    /// Experience points and the next level's threshold (none at level 20).
    pub experience: (u32, Option<u32>),
    /// Signature abilities: name and what it does.
    pub abilities: Vec<(String, Option<String>)>,
    /// The class's hit die and, for sheets that keep them as a pool, how many are left: `d8, 2 of 3 left`.
    pub hit_die: String,
    /// What 0 HP means.
    pub stakes: Stakes,
    /// On their feet, down, stable or fallen (the story is over).
    #[cfg_attr(
        target_arch = "wasm32",
        serde(deserialize_with = "crate::wire::tag_first::one")
    )]
    pub vitality: Vitality,
    /// The level's proficiency bonus.
    #[serde(default)]
    pub proficiency_bonus: i8,
    /// The skills the character is proficient in, each with what its check adds: `Stealth +5`.
    #[serde(default)]
    pub skills: Vec<String>,
    /// The saving throws the character is proficient in, each with what it adds: `DEX +5`.
    #[serde(default)]
    pub saves: Vec<String>,
    /// Ability score improvements earned and not yet spent.
    #[serde(default)]
    pub improvements_due: u8,
    /// Spells, slots, class features and rests, for sheets whose powers count.
    #[serde(default)]
    pub powers: Option<PowersView>,
}

/// The hero's powers as the character panel shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowersView {
    /// `INT: spell attack +5, save DC 13`, for a caster.
    pub casting: Option<String>,
    /// Slots by level that the class has: level, in all, left.
    pub slots: Vec<(u8, u8, u8)>,
    /// The spells known.
    pub spells: Vec<SpellView>,
    /// The spell held, if any.
    pub concentration: Option<String>,
    /// The class features.
    pub features: Vec<FeatureView>,
    /// Whether a short rest has just ended (hit dice may be spent).
    pub resting: bool,
    /// Hit dice left.
    pub hit_dice_left: u8,
}

/// A spell known, as the panel lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellView {
    /// Its key, sent back to cast it.
    pub slug: String,
    /// Its name.
    pub name: String,
    /// Its level (0: a cantrip).
    pub level: u8,
    /// What it does, in a line.
    pub summary: String,
    /// Why it cannot be cast now (no slot left…), if it cannot.
    pub refused: Option<String>,
    /// Whether it needs concentration.
    pub concentration: bool,
}

/// A class feature, as the panel lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureView {
    /// Its key, sent back to use it (`secondWind`).
    pub key: String,
    /// Its name.
    pub name: String,
    /// What it does, in a line.
    pub summary: String,
    /// Uses left and in all, for a feature that counts them.
    pub uses: Option<(u8, u8)>,
    /// Whether the panel can use it now (outside a fight: Second Wind, Arcane Recovery).
    pub usable: bool,
}
