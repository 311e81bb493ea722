//! The game rules: pure Rust with no Leptos, no I/O and no clock, the RNG passed in. Compiled into
//! the server and the browser alike; everything the model asks for is parsed into these types and
//! checked by these rules.
//!
//! - [`dice`]: notation → [`DiceExpr`], rolls that keep every die, checks against a DC.
//! - [`attributes`]: STR DEX CON INT WIS CHA, scores and modifiers.
//! - [`sheet`]: the character sheet; [`inventory`] and [`conditions`] are parts of it;
//!   [`condition_kind`]: the conditions the rules know and their effect on rolls.
//! - [`item_kind`]: what an item is to the rules (gear, weapon, armour, shield, consumable);
//!   [`catalogue`]: the SRD items known by name; [`equipment`]: armour class and weapon attacks
//!   from what is equipped; [`consumable`]: using an item for its effect.
//! - [`delta`]: typed state changes, applied atomically with clamping, reporting what changed.
//! - [`journal`]: the facts worth keeping (people, places, threads, promises, items).
//! - [`action`]: the actions offered to the player and their validation.
//! - [`creation`]: classes, scores by standard array or point-buy, starting gear.
//! - [`progression`]: experience, levels and the hit points they bring; [`proficiency`]: the
//!   skills and saving throws a character adds the level's proficiency bonus to;
//!   [`improvement`]: the ability score improvements of levels 4, 8, 12, 16 and 19.
//! - [`stakes`]: what 0 HP means, death saves, the end of the story.
//! - [`sanity_check`]: horror met by a Wisdom save, sanity lost by the rules' dice, the
//!   breaking point at 0.
//! - [`complication`]: what a failed roll with stakes costs when the scene let it cost nothing.
//! - [`map`]: the places recorded and how they connect.
//! - [`oracle`]: yes/no questions about the world, answered by d100.
//! - [`outcome_table`]: an uncertain event's outcomes on one die, checked to cover it once.
//! - [`bestiary`]: foes as typed state: SRD 5.1 creatures shipped as data, or made from a
//!   challenge rating.
//! - [`combat`]: fights by the rules: initiative, attacks against armour class, damage, the foes'
//!   turns, the end of a fight and its experience.
//! - [`fight`]: a fight's steps as the log keeps them, played from the sheet and read back
//!   from their recorded dice.
//! - [`spells`]: SRD 5.1 spells shipped as data, typed, and their figures by slot and level;
//!   [`spellcasting`]: casting ability, attack bonus and save DC, slots by class and level, the
//!   spells each class knows; [`features`]: class features and their uses per rest;
//!   [`powers`]: what the hero knows and has spent (slots, uses, concentration, rests);
//!   [`spell_words`]: a cast in the player's own words.
//! - [`agreement`]: the game master's style and the table's lines and veils, and a line found
//!   in prose by its words.
//! - [`text`]: bounded text and slugs.

pub mod action;
pub mod action_quality;
pub mod agreement;
pub mod analysis;
pub mod attributes;
pub mod bestiary;
pub mod carried;
pub mod catalogue;
pub mod combat;
pub mod complication;
pub mod condition_kind;
pub mod conditions;
pub mod consumable;
pub mod creation;
pub mod delta;
pub mod dice;
pub mod equipment;
pub mod features;
pub mod fight;
pub mod hazard;
pub mod improvement;
pub mod inventory;
pub mod item_kind;
pub mod journal;
pub mod map;
pub mod oracle;
pub mod outcome_table;
#[cfg(test)]
mod power_tests;
pub mod powers;
pub mod proficiency;
pub mod progression;
pub mod sanity_check;
pub mod sheet;
pub mod spell_words;
pub mod spellcasting;
pub mod spells;
pub mod stakes;
pub mod text;

#[cfg(test)]
mod proptests;

pub use action::{
    Action, ActionList, ActionListDraft, ActionListError, Resolution, ValidatedActions,
};
pub use attributes::{Attribute, AttributeBonus, AttributeScore, Attributes};
pub use bestiary::{ArmorClass, Bestiary, ChallengeRating, Creature, DamageType, UnknownFoe};
pub use combat::{AttackProfile, Combat, CombatError, Encounter, Exchange, Hero, HeroAction};
pub use conditions::{Condition, Conditions};
pub use consumable::UseError;
pub use delta::{AppliedChanges, Change, DeltaError, RestKind, StateDelta};
pub use dice::{Check, DiceError, DiceExpr, DifficultyClass, Natural, Roll};
pub use equipment::{AttackError, DamageRoll, Equipped, WeaponAttack};
pub use inventory::{EquipChange, Inventory, Item, NewItem, Quantity};
pub use item_kind::{
    ArmorCategory, ArmorRule, Effect, ItemKind, ItemKindError, Slot, WeaponProfile,
};
pub use journal::{Journal, JournalChange, JournalEntry, JournalError, JournalKind};
pub use sheet::{Ability, CharacterSheet, GameTime, HitPoints, Level, Sanity};
pub use stakes::{Stakes, Vitality};
pub use text::{BoundedText, JournalName, JournalNote, Slug, TextError};
