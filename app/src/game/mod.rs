//! The game rules: pure Rust with no Leptos, no I/O and no clock, the RNG passed in. Compiled into
//! the server and the browser alike; everything the model asks for is parsed into these types and
//! checked by these rules. Nothing here knows the model or the wire format.
//!
//! - Dice:
//!   - [`dice`]: notation → [`DiceExpr`], rolls that keep every die, checks against a DC;
//!     advantage and disadvantage in `dice/edge.rs`, the chance of success worked out from the
//!     dice in `dice/chance.rs`.
//!   - [`analysis`]: what a roll's *Why?* says: the chance of success, the face the die had to
//!     show, the oracle's bands.
//!   - [`attributes`]: STR DEX CON INT WIS CHA, scores and modifiers.
//! - The sheet:
//!   - [`sheet`]: the character sheet, its values and their bounds; `sheet/powers.rs` what the
//!     sheet makes of its spells and class features.
//!   - [`conditions`]: the conditions on the sheet, with durations that end as game time passes.
//!   - [`condition_kind`]: the SRD's conditions and Madness, and their effect on rolls.
//!   - [`journal`]: the facts worth keeping (people, places, threads, promises, items).
//!   - [`map`]: the places recorded and how they connect.
//!   - [`text`]: bounded text and slugs.
//! - Items:
//!   - [`inventory`]: the items carried, stacked by slug, and which of them are equipped.
//!   - [`item_kind`]: what an item is to the rules: gear, weapon, armour, shield, consumable.
//!   - [`catalogue`]: the SRD weapons, armour and potions known by name.
//!   - [`equipment`]: what is equipped, and the armour class and weapon attacks it gives.
//!   - [`consumable`]: a consumable used for its rolled effect.
//!   - [`carried`]: what a move claims the hero carries, checked against the inventory.
//! - Deltas and actions:
//!   - [`delta`]: typed state changes, applied atomically with clamping, reporting what changed.
//!     `change.rs` what changed and its labels; `apply.rs` a delta, or a list of them, applied
//!     all or nothing; `hp.rs` hit points; `scores.rs` level, experience, scores and sanity;
//!     `items.rs` items given, equipped and used; `rest.rs` time passing and the rests (hit dice
//!     as a pool spent on short rests); `concentration.rs` the spell held; `powers.rs` spells,
//!     class features and hit dice (see [`powers`]).
//!   - [`action`]: the actions offered to the player and their validation; `draft.rs` the
//!     model's answer as written, `list.rs` the validated list and what is wrong with an answer.
//!   - [`action_quality`]: a placeholder or an echo of the sheet refused as an action.
//! - Creation and levels:
//!   - [`creation`]: classes with their saving throws and the skills to choose from (SRD 5.1),
//!     scores by standard array or point-buy, typed gear equipped; `presets.rs` the classes,
//!     `scores.rs` the scores checked, `create.rs` a draft made into a character, `older.rs`
//!     characters as older rules made them (their files in `fixtures/`).
//!   - [`progression`]: experience, levels and the hit points they bring.
//!   - [`proficiency`]: the SRD's eighteen skills and the attribute each uses, and what a
//!     character is proficient in; a check in a skill of theirs or a save of theirs adds the
//!     level's proficiency bonus.
//!   - [`improvement`]: ability score improvements at levels 4, 8, 12, 16 and 19: +2 to one
//!     score or +1 to two, none past 20; a higher CON raises the hit points of every level.
//! - Stakes and hazards:
//!   - [`stakes`]: what 0 HP means, death saves, the end of the story.
//!   - [`hazard`]: a trap, fall, fire or poison: its damage by severity and level from the SRD's
//!     table, and its save.
//!   - [`complication`]: what a failed roll with stakes costs when the scene let it cost
//!     nothing: a d6 table of bounded complications.
//!   - [`sanity_check`]: horror met by a Wisdom save, sanity lost by the rules' dice, the
//!     breaking point at 0.
//! - Fights:
//!   - [`bestiary`]: foes: SRD 5.1 creatures shipped as data in `creatures.json`, challenge
//!     ratings and their XP (`challenge.rs`), a foe made from a name and a rating
//!     (`by_rating.rs`).
//!   - [`combat`]: fights by the rules: initiative, attacks against armour class, damage and
//!     criticals, the foes' turns, dodge and flee, the end of a fight and its XP, within 12 foes
//!     and 100 rounds. `hero.rs` the hero's figures and actions; `bounds.rs` the bounds and the
//!     requests refused; `encounter.rs` the running fight; `hero_turn.rs` the hero's move
//!     played; `rounds.rs` the foes' turns, the next round and the end; `spell_cast.rs` a spell
//!     as the fight casts it and what it holds; `cast.rs` a spell resolved: attacks, saves, half
//!     damage, Sleep's pool, concentration and the CON save a blow forces; `attack.rs` an attack
//!     and its damage; `foe.rs` a foe; `initiative.rs` the order of turns; `exchange.rs` what
//!     happened; `profile.rs` an attack's figures; `roller.rs` fresh or recorded dice.
//!   - [`fight`]: a fight as the log keeps it: each step with the faces of its dice, played from
//!     the sheet and played again from those faces when the log is read, so numbers the rules
//!     did not make are refused. `moves.rs` the moves offered; `hero.rs` the hero's figures,
//!     weapon and checks from the sheet; `powers.rs` a spell or a class feature in a fight;
//!     `play.rs` a step played, read back, and what it does to the sheet.
//! - Spells and powers:
//!   - [`spells`]: SRD 5.1 spells shipped as data in `spells.json`, typed (`spell.rs`: level,
//!     casting time, range, how they land, their dice, condition, concentration), found by name
//!     (`book.rs`), their dice grown with the slot or the caster's level (`scaling.rs`).
//!   - [`spellcasting`]: spellcasting by class: the casting ability, spell attack and save DC,
//!     the SRD's slot tables for full and half casters, the spells each class knows by default
//!     at each level.
//!   - [`features`]: class features and their uses per rest.
//!   - [`powers`]: what the hero knows and has spent: slots, uses, concentration, rests. Applied
//!     by `delta/powers.rs`: a spell cast, a feature used, a short rest whose hit dice the player
//!     spends one at a time, a long rest once a day.
//!   - [`spell_words`]: a cast in the player's own words.
//! - The table:
//!   - [`party`]: the friends seated at the table and the companions, each with a real sheet;
//!     names unique at the table.
//! - The oracle, tables and the table's agreement:
//!   - [`oracle`]: yes/no questions about the world, answered by d100.
//!   - [`outcome_table`]: an uncertain event's outcomes on one d6, d20 or d100, accepted only
//!     when their ranges cover the die exactly once.
//!   - [`agreement`]: the game master's style, the lines never in the story and the veils kept
//!     off-screen, bounded; a line found in prose by its words, sentence by sentence.
//!
//! Tests beside them: `proptests.rs` (the dice parser, rolls, any sequence of deltas) and
//! `power_tests.rs` (slots, uses, hit dice and rests).

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
pub mod party;
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
pub mod spine;
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
