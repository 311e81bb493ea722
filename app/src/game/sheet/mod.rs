//! The character sheet (the game's state of the hero): name, class, level, hit points, attributes,
//! optional sanity, conditions, inventory, location and in-game time.
//!
//! A sheet is created once with [`CharacterSheet::new`] and the `with_*` setters; after that it
//! changes only through [`StateDelta::apply`](super::delta::StateDelta::apply), which keeps every
//! invariant. Each part checks its own bounds when deserialised, so a stored sheet that breaks one
//! is rejected.
//!
//! What is equipped is kept on the carried items themselves ([`Item::is_equipped`]), so an item
//! that is gone can never stay equipped; the armour class and weapon attacks that follow from it
//! are in [`equipment`](super::equipment).
//!
//! [`Item::is_equipped`]: super::inventory::Item::is_equipped
//!
//! Files: this one holds the sheet, its values and their bounds; `powers.rs` what the sheet
//! makes of its spells and class features (see [`powers`](super::powers)).

mod powers;

use std::fmt;

use serde::{Deserialize, Serialize};

use super::powers::Powers;

use super::attributes::{Attribute, AttributeBonus, Attributes};
use super::conditions::Conditions;
use super::inventory::{Inventory, NewItem};
use super::item_kind::Slot;
use super::proficiency::{Proficiencies, Skill};
pub use super::progression::Level;
use super::progression::{proficiency_bonus, HitDie, LevelError};
use super::stakes::{Stakes, Vitality};
use super::text::{
    AbilityName, AbilityText, Backstory, CharacterName, ClassName, LocationName, Slug,
};

/// A level, hit points or sanity value out of its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// A level outside 1..=20.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// Maximum hit points outside 1..=999.
    #[error("max HP must be 1..={} (got {value})", HitPoints::MAX)]
    MaxHp {
        /// The rejected value.
        value: i64,
    },
    /// Hit points below zero or above the maximum.
    #[error("HP must be 0..={max} (got {value})")]
    Hp {
        /// The rejected value.
        value: i64,
        /// The maximum it was checked against.
        max: u16,
    },
    /// Sanity outside 0..=100.
    #[error("sanity must be 0..={} (got {value})", Sanity::MAX)]
    Sanity {
        /// The rejected value.
        value: i64,
    },
}

/// Hit points: current 0..=max, max 1..=999. Serialises as `{"current": 7, "max": 10}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "HitPointsWire")]
pub struct HitPoints {
    current: u16,
    max: u16,
}

#[derive(Deserialize)]
struct HitPointsWire {
    current: i64,
    max: i64,
}

impl TryFrom<HitPointsWire> for HitPoints {
    type Error = SheetError;

    fn try_from(wire: HitPointsWire) -> Result<Self, Self::Error> {
        Self::new(wire.current, wire.max)
    }
}

impl HitPoints {
    /// The highest maximum.
    pub const MAX: u16 = 999;

    /// `current` of `max` hit points, or an error when out of range.
    pub fn new(current: i64, max: i64) -> Result<Self, SheetError> {
        let max = u16::try_from(max)
            .ok()
            .filter(|m| (1..=Self::MAX).contains(m))
            .ok_or(SheetError::MaxHp { value: max })?;
        let current = u16::try_from(current)
            .ok()
            .filter(|c| *c <= max)
            .ok_or(SheetError::Hp {
                value: current,
                max,
            })?;
        Ok(Self { current, max })
    }

    /// Full hit points of `max`.
    pub fn full(max: i64) -> Result<Self, SheetError> {
        Self::new(max, max)
    }

    /// The current hit points.
    pub fn current(self) -> u16 {
        self.current
    }

    /// The maximum.
    pub fn max(self) -> u16 {
        self.max
    }

    /// Sets the current hit points, clamped into 0..=max.
    pub(in crate::game) fn set_current_clamped(&mut self, value: i64) {
        // The clamp makes the cast lossless.
        self.current = value.clamp(0, i64::from(self.max)) as u16;
    }

    /// Sets the maximum, clamped into 1..=999; current hit points above it drop to it.
    pub(in crate::game) fn set_max_clamped(&mut self, value: i64) {
        // The clamp makes the cast lossless.
        self.max = value.clamp(1, i64::from(Self::MAX)) as u16;
        self.current = self.current.min(self.max);
    }
}

impl Default for HitPoints {
    fn default() -> Self {
        Self {
            current: 10,
            max: 10,
        }
    }
}

/// Sanity, 0..=100 (for games that track it, like a horror campaign).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct Sanity(u8);

impl Sanity {
    /// Full sanity.
    pub const MAX: u8 = 100;

    /// Sanity `value`, or an error outside 0..=100.
    pub fn new(value: i64) -> Result<Self, SheetError> {
        u8::try_from(value)
            .ok()
            .filter(|v| *v <= Self::MAX)
            .map(Self)
            .ok_or(SheetError::Sanity { value })
    }

    /// Sanity `value` clamped into 0..=100.
    pub fn clamped(value: i64) -> Self {
        // The clamp makes the cast lossless.
        Self(value.clamp(0, i64::from(Self::MAX)) as u8)
    }

    /// Sanity as a number.
    pub fn value(self) -> u8 {
        self.0
    }
}

impl TryFrom<i64> for Sanity {
    type Error = SheetError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<Sanity> for u8 {
    fn from(sanity: Sanity) -> u8 {
        sanity.0
    }
}

/// In-game time in minutes since the start of day 1. Displays as `Day 1, 08:00`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct GameTime(u32);

impl GameTime {
    /// Eight in the morning of day 1, when adventures start (480 minutes into the game).
    pub const START: GameTime = GameTime(8 * 60);

    /// The time `minutes` after the start of day 1.
    pub fn from_minutes(minutes: u32) -> Self {
        Self(minutes)
    }

    /// Minutes since the start of day 1.
    pub fn minutes(self) -> u32 {
        self.0
    }

    /// The day, from 1.
    pub fn day(self) -> u32 {
        self.0 / (24 * 60) + 1
    }

    /// The time `minutes` later (saturating at the largest time).
    pub fn after(self, minutes: u32) -> Self {
        Self(self.0.saturating_add(minutes))
    }
}

impl fmt::Display for GameTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let in_day = self.0 % (24 * 60);
        write!(
            f,
            "Day {}, {:02}:{:02}",
            self.day(),
            in_day / 60,
            in_day % 60
        )
    }
}

/// A signature ability: what the character is known for (the game master reads it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    /// Its name.
    pub name: AbilityName,
    /// What it does, if said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<AbilityText>,
}

/// A character and everything the rules track about them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterSheet {
    pub(in crate::game) name: CharacterName,
    pub(in crate::game) class: ClassName,
    pub(in crate::game) level: Level,
    pub(in crate::game) hit_points: HitPoints,
    pub(in crate::game) attributes: Attributes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) sanity: Option<Sanity>,
    #[serde(default)]
    pub(in crate::game) conditions: Conditions,
    #[serde(default)]
    pub(in crate::game) inventory: Inventory,
    pub(in crate::game) location: LocationName,
    pub(in crate::game) time: GameTime,
    #[serde(default)]
    pub(in crate::game) hit_die: HitDie,
    #[serde(default)]
    pub(in crate::game) experience: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(in crate::game) abilities: Vec<Ability>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) backstory: Option<Backstory>,
    #[serde(default)]
    pub(in crate::game) stakes: Stakes,
    #[serde(default)]
    pub(in crate::game) vitality: Vitality,
    /// Hit dice spent since the last long rest; `None` on sheets made before hit dice were a
    /// pool (their short rests stay unlimited, so their logs replay as they were played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) hit_dice_spent: Option<u8>,
    /// Skills and saving throws the character is proficient in (none on sheets made before
    /// proficiencies counted).
    #[serde(default, skip_serializing_if = "Proficiencies::is_empty")]
    pub(in crate::game) proficiencies: Proficiencies,
    /// Ability score improvements spent (see [`improvement`](super::improvement)).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(in crate::game) improvements: u8,
    /// Spells, slots, class feature uses and rests (none on sheets made before they counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::game) powers: Option<Powers>,
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

impl CharacterSheet {
    /// A level-1 character at `location` with 10/10 HP, every attribute 10, no sanity score, no
    /// conditions, nothing carried, at [`GameTime::START`], a d8 hit die, no experience, no
    /// abilities or backstory, heroic stakes. The creation rules' `CharacterDraft` makes a
    /// character by them.
    pub fn new(name: CharacterName, class: ClassName, location: LocationName) -> Self {
        Self {
            name,
            class,
            level: Level::default(),
            hit_points: HitPoints::default(),
            attributes: Attributes::default(),
            sanity: None,
            conditions: Conditions::default(),
            inventory: Inventory::default(),
            location,
            time: GameTime::START,
            hit_die: HitDie::default(),
            experience: 0,
            abilities: Vec::new(),
            backstory: None,
            stakes: Stakes::default(),
            vitality: Vitality::Up,
            hit_dice_spent: Some(0),
            proficiencies: Proficiencies::default(),
            improvements: 0,
            powers: None,
        }
    }

    /// The same character, proficient in `proficiencies`.
    pub fn with_proficiencies(mut self, proficiencies: Proficiencies) -> Self {
        self.proficiencies = proficiencies;
        self
    }

    /// The same sheet as it was made before proficiencies counted (files exported then start
    /// without any).
    pub fn before_proficiencies(mut self) -> Self {
        self.proficiencies = Proficiencies::default();
        self
    }

    /// The same character with a class's hit die and signature abilities.
    pub fn with_class_rules(mut self, hit_die: HitDie, abilities: Vec<Ability>) -> Self {
        self.hit_die = hit_die;
        self.abilities = abilities;
        self
    }

    /// The same character, playing for `stakes`.
    pub fn with_stakes(mut self, stakes: Stakes) -> Self {
        self.stakes = stakes;
        self
    }

    /// The same character with a backstory (or none).
    pub fn with_backstory(mut self, backstory: Option<Backstory>) -> Self {
        self.backstory = backstory;
        self
    }

    /// The same character carrying `item` too (ignored if the inventory is full).
    pub fn with_item(mut self, item: NewItem) -> Self {
        // Starting gear is a handful of items, far below the inventory's limit.
        let _ = self.inventory.add(&item);
        self
    }

    /// The same character with the first carried weapon, armour and shield equipped (where
    /// none of that slot is).
    pub fn with_first_of_each_equipped(mut self) -> Self {
        let firsts: Vec<Slug> = [Slot::Weapon, Slot::Armor, Slot::Shield]
            .into_iter()
            .filter(|slot| self.inventory.equipped(*slot).is_none())
            .filter_map(|slot| {
                let items = self.inventory.items().iter();
                items
                    .filter(|item| item.kind().slot() == Some(slot))
                    .map(|item| item.slug().clone())
                    .next()
            })
            .collect();
        for slug in firsts {
            // A carried weapon, armour or shield with its slot free: equipping cannot fail.
            let _ = self.inventory.equip(&slug);
        }
        self
    }

    /// The same character at `level`.
    pub fn with_level(mut self, level: Level) -> Self {
        self.level = level;
        self
    }

    /// The same character with `hit_points`.
    pub fn with_hit_points(mut self, hit_points: HitPoints) -> Self {
        self.hit_points = hit_points;
        self
    }

    /// The same character with `attributes`.
    pub fn with_attributes(mut self, attributes: Attributes) -> Self {
        self.attributes = attributes;
        self
    }

    /// The same character, tracking `sanity`.
    pub fn with_sanity(mut self, sanity: Sanity) -> Self {
        self.sanity = Some(sanity);
        self
    }

    /// The same character at `time`.
    pub fn with_time(mut self, time: GameTime) -> Self {
        self.time = time;
        self
    }

    /// The character's name.
    pub fn name(&self) -> &CharacterName {
        &self.name
    }

    /// The class.
    pub fn class(&self) -> &ClassName {
        &self.class
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Hit points.
    pub fn hit_points(&self) -> HitPoints {
        self.hit_points
    }

    /// The six attributes.
    pub fn attributes(&self) -> &Attributes {
        &self.attributes
    }

    /// Sanity, if this game tracks it.
    pub fn sanity(&self) -> Option<Sanity> {
        self.sanity
    }

    /// Conditions.
    pub fn conditions(&self) -> &Conditions {
        &self.conditions
    }

    /// What the character carries.
    pub fn inventory(&self) -> &Inventory {
        &self.inventory
    }

    /// Where the character is.
    pub fn location(&self) -> &LocationName {
        &self.location
    }

    /// The in-game time.
    pub fn time(&self) -> GameTime {
        self.time
    }

    /// The class's hit die.
    pub fn hit_die(&self) -> HitDie {
        self.hit_die
    }

    /// Experience points.
    pub fn experience(&self) -> u32 {
        self.experience
    }

    /// Signature abilities.
    pub fn abilities(&self) -> &[Ability] {
        &self.abilities
    }

    /// The backstory, if any.
    pub fn backstory(&self) -> Option<&Backstory> {
        self.backstory.as_ref()
    }

    /// What 0 HP means for this character.
    pub fn stakes(&self) -> Stakes {
        self.stakes
    }

    /// Up, down, stable or dead.
    pub fn vitality(&self) -> Vitality {
        self.vitality
    }

    /// The same sheet as it was made before hit dice were a pool (files exported then start
    /// without one).
    pub fn before_hit_dice_pool(mut self) -> Self {
        self.hit_dice_spent = None;
        self
    }

    /// The hit dice left to spend on short rests, and how many there are (one a level);
    /// `None` on a sheet made before hit dice were a pool.
    pub fn hit_dice(&self) -> Option<(u8, u8)> {
        let total = self.level.value();
        self.hit_dice_spent
            .map(|spent| (total.saturating_sub(spent), total))
    }
}

impl CharacterSheet {
    /// The skills and saving throws the character is proficient in.
    pub fn proficiencies(&self) -> &Proficiencies {
        &self.proficiencies
    }

    /// The proficiency bonus of the character's level.
    pub fn proficiency_bonus(&self) -> i8 {
        proficiency_bonus(self.level)
    }

    /// What a check of `attribute` adds to its d20: the modifier, and the proficiency bonus when
    /// the check is in a `skill` the character is proficient in.
    pub fn check_bonus(&self, attribute: Attribute, skill: Option<Skill>) -> AttributeBonus {
        let proficient = skill.is_some_and(|skill| self.proficiencies.has_skill(skill));
        self.attributes
            .bonus(attribute)
            .with_proficiency(proficient, self.proficiency_bonus())
    }

    /// What a saving throw of `attribute` adds to its d20: the modifier, and the proficiency
    /// bonus when the character is proficient in that save.
    pub fn save_bonus(&self, attribute: Attribute) -> AttributeBonus {
        let proficient = self.proficiencies.has_save(attribute);
        self.attributes
            .bonus(attribute)
            .with_proficiency(proficient, self.proficiency_bonus())
    }
}

#[cfg(test)]
pub(in crate::game) mod tests {
    use super::*;

    /// A fresh character for tests.
    pub(in crate::game) fn mira() -> CharacterSheet {
        CharacterSheet::new(
            CharacterName::new("Mira").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("Level 0").unwrap(),
        )
    }

    #[test]
    fn new_character_defaults() {
        let sheet = mira();
        assert_eq!(sheet.name().as_str(), "Mira");
        assert_eq!(sheet.class().as_str(), "Ranger");
        assert_eq!(sheet.level().value(), 1);
        assert_eq!(
            (sheet.hit_points().current(), sheet.hit_points().max()),
            (10, 10)
        );
        assert_eq!(sheet.attributes(), &Attributes::default());
        assert_eq!(sheet.sanity(), None);
        assert!(sheet.conditions().is_empty() && sheet.inventory().is_empty());
        assert_eq!(sheet.location().as_str(), "Level 0");
        assert_eq!(sheet.time().to_string(), "Day 1, 08:00");
    }

    #[test]
    fn builders_set_initial_values() {
        let sheet = mira()
            .with_level(Level::new(3).unwrap())
            .with_hit_points(HitPoints::new(7, 24).unwrap())
            .with_sanity(Sanity::new(100).unwrap())
            .with_time(GameTime::from_minutes(24 * 60 + 5));
        assert_eq!(sheet.level().value(), 3);
        assert_eq!(sheet.hit_points().current(), 7);
        assert_eq!(sheet.sanity().map(Sanity::value), Some(100));
        assert_eq!(sheet.time().to_string(), "Day 2, 00:05");
    }

    #[test]
    fn value_bounds() {
        assert!(Level::new(0).is_err() && Level::new(21).is_err());
        assert_eq!(Level::clamped(99).value(), 20);
        assert_eq!(Level::clamped(-5).value(), 1);
        assert_eq!(
            HitPoints::new(11, 10).unwrap_err().to_string(),
            "HP must be 0..=10 (got 11)"
        );
        assert_eq!(
            HitPoints::new(0, 0).unwrap_err().to_string(),
            "max HP must be 1..=999 (got 0)"
        );
        assert!(HitPoints::new(-1, 10).is_err());
        assert_eq!(HitPoints::full(12).unwrap().current(), 12);
        assert_eq!(Sanity::clamped(150).value(), 100);
        assert!(Sanity::new(101).is_err());
        assert_eq!(
            GameTime::from_minutes(u32::MAX).after(5).minutes(),
            u32::MAX
        );
    }

    #[test]
    fn hit_point_clamping() {
        let mut hp = HitPoints::new(8, 10).unwrap();
        hp.set_current_clamped(-50);
        assert_eq!(hp.current(), 0);
        hp.set_current_clamped(500);
        assert_eq!(hp.current(), 10);
        hp.set_max_clamped(6);
        assert_eq!((hp.current(), hp.max()), (6, 6));
        hp.set_max_clamped(0);
        assert_eq!((hp.current(), hp.max()), (1, 1));
    }

    #[test]
    fn sheet_serde_round_trip_and_validation() {
        let sheet = mira().with_sanity(Sanity::new(80).unwrap());
        let json = serde_json::to_value(&sheet).unwrap();
        assert_eq!(json["hitPoints"]["current"], 10);
        assert_eq!(json["attributes"]["STR"], 10);
        assert_eq!(json["sanity"], 80);
        assert_eq!(json["time"], 480);
        let back: CharacterSheet = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, sheet);
        let mut broken = json;
        broken["hitPoints"]["current"] = 11.into();
        let err = serde_json::from_value::<CharacterSheet>(broken).unwrap_err();
        assert!(err.to_string().contains("HP must be 0..=10 (got 11)"));
    }

    #[test]
    fn checks_and_saves_add_the_level_s_bonus_only_where_proficient() {
        use crate::game::proficiency::Skill::{Arcana, Stealth};
        let sheet =
            mira().with_proficiencies(Proficiencies::new(vec![Stealth], vec![Attribute::Wisdom]));
        let stealth = sheet.check_bonus(Attribute::Dexterity, Some(Stealth));
        assert_eq!(
            (stealth.modifier, stealth.proficiency, stealth.total()),
            (0, 2, 2)
        );
        assert_eq!(stealth.to_string(), "DEX +0, proficiency +2");
        assert_eq!(
            sheet
                .check_bonus(Attribute::Dexterity, Some(Arcana))
                .total(),
            0
        );
        assert_eq!(sheet.check_bonus(Attribute::Dexterity, None).total(), 0);
        assert_eq!(sheet.save_bonus(Attribute::Wisdom).proficiency, 2);
        assert_eq!(sheet.save_bonus(Attribute::Strength).proficiency, 0);
        let veteran = sheet.with_level(Level::new(9).unwrap());
        assert_eq!(
            veteran
                .check_bonus(Attribute::Dexterity, Some(Stealth))
                .total(),
            4
        );
        assert_eq!(veteran.save_bonus(Attribute::Wisdom).total(), 4);
    }
}
