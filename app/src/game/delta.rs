//! Typed state changes ([`StateDelta`]) and the one place they are applied.
//!
//! [`StateDelta::apply`] validates and clamps: hit points stay in 0..=max, max HP in 1..=999,
//! level in 1..=20, attributes in 1..=30, sanity in 0..=100, quantities in 1..=999 (zero or below
//! removes the item). Changing an item that is not carried, removing a condition the character
//! does not have, adding past the inventory or condition limits, or changing sanity on a sheet
//! without it is a [`DeltaError`] whose message the model can read (`No item "sandwich" in
//! inventory`). On error the sheet is untouched; [`StateDelta::apply_all`] is atomic over a list.
//!
//! What actually changed comes back as [`Change`]s, each with a short player-facing
//! [`label`](Change::label) for the story log's chips: `−5 HP`, `+ Rusty key`, `+2 Torch`,
//! `− Rope`, `Poisoned`. Labels use the real minus sign `−` (U+2212), which reads better than a
//! hyphen in the UI; model-facing text elsewhere stays ASCII.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeScore};
use super::conditions::{Condition, ConditionError};
use super::inventory::{InventoryError, ItemChange, NewItem};
use super::sheet::{CharacterSheet, GameTime, Level, Sanity};
use super::text::{ConditionName, LocationName, Slug};

/// The minus sign used in labels.
const MINUS: char = '\u{2212}';

/// One requested change to the character sheet. Numbers are clamped into their ranges when
/// applied, so they are plain integers here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum StateDelta {
    /// Hit points up (healing) or down (damage) by `amount`.
    ChangeHp {
        /// The change, negative for damage.
        amount: i32,
    },
    /// Hit points set to `hp`.
    SetHp {
        /// The new value, clamped into 0..=max.
        hp: i32,
    },
    /// Maximum hit points set to `max_hp`; current hit points above it drop to it.
    SetMaxHp {
        /// The new maximum, clamped into 1..=999.
        max_hp: i32,
    },
    /// The level set to `level`.
    SetLevel {
        /// The new level, clamped into 1..=20.
        level: i32,
    },
    /// An attribute score set.
    SetAttribute {
        /// Which attribute.
        attribute: Attribute,
        /// The new score, clamped into 1..=30.
        score: i32,
    },
    /// Sanity up or down by `amount` (an error if the sheet has no sanity).
    ChangeSanity {
        /// The change, negative for a loss.
        amount: i32,
    },
    /// An item given, stacked onto a carried item with the same slug.
    AddItem {
        /// The item.
        item: NewItem,
    },
    /// A carried item's quantity changed; at zero or below it is removed.
    ChangeItemQuantity {
        /// The carried item.
        slug: Slug,
        /// The change, negative to use up or drop.
        change: i32,
    },
    /// A condition gained (or, if present, its duration and notes replaced).
    AddCondition {
        /// The condition.
        condition: Condition,
    },
    /// A condition lost.
    RemoveCondition {
        /// Its name, matched ignoring case.
        name: ConditionName,
    },
    /// The character moved.
    MoveTo {
        /// The new location.
        location: LocationName,
    },
    /// In-game time passed.
    AdvanceTime {
        /// How many minutes.
        minutes: u32,
    },
}

/// Why a delta could not be applied. The message is written for the model (it becomes the tool
/// result) and for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeltaError {
    /// An inventory rule: a missing item or a full inventory.
    #[error(transparent)]
    Inventory(#[from] InventoryError),
    /// A condition rule: a missing condition or too many.
    #[error(transparent)]
    Condition(#[from] ConditionError),
    /// A sanity change on a sheet that does not track sanity.
    #[error("This character has no sanity score")]
    NoSanity,
}

/// One thing that actually changed on the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Change {
    /// Current hit points.
    Hp {
        /// Before.
        from: u16,
        /// After.
        to: u16,
    },
    /// Maximum hit points.
    MaxHp {
        /// Before.
        from: u16,
        /// After.
        to: u16,
    },
    /// The level.
    Level {
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// An attribute score.
    Attribute {
        /// Which attribute.
        attribute: Attribute,
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// Sanity.
    Sanity {
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// An item's quantity (from 0: picked up; to 0: gone).
    Item(ItemChange),
    /// A condition gained, or its duration or notes changed.
    ConditionAdded(Condition),
    /// A condition lost.
    ConditionRemoved(Condition),
    /// The location.
    Location {
        /// Before.
        from: LocationName,
        /// After.
        to: LocationName,
    },
    /// The in-game time.
    Time {
        /// Before.
        from: GameTime,
        /// After.
        to: GameTime,
    },
}

impl Change {
    /// The chip text: `−5 HP`, `+3 HP`, `Max HP 12`, `Level 3`, `STR 14`, `−10 Sanity`,
    /// `+ Rusty key` (one picked up), `+2 Torch`, `−1 Torch`, `− Rope` (none left), `Poisoned`,
    /// `− Poisoned`, `→ The crypt`, `+1 h 30 min`.
    pub fn label(&self) -> String {
        match self {
            Change::Hp { from, to } => format!("{} HP", signed(i64::from(*to) - i64::from(*from))),
            Change::MaxHp { to, .. } => format!("Max HP {to}"),
            Change::Level { to, .. } => format!("Level {to}"),
            Change::Attribute { attribute, to, .. } => format!("{attribute} {to}"),
            Change::Sanity { from, to } => {
                format!("{} Sanity", signed(i64::from(*to) - i64::from(*from)))
            }
            Change::Item(ItemChange { name, from, to, .. }) => match (*from, *to) {
                (0, 1) => format!("+ {name}"),
                (_, 0) => format!("{MINUS} {name}"),
                (from, to) => format!("{} {name}", signed(i64::from(to) - i64::from(from))),
            },
            Change::ConditionAdded(condition) => condition.name.to_string(),
            Change::ConditionRemoved(condition) => format!("{MINUS} {}", condition.name),
            Change::Location { to, .. } => format!("→ {to}"),
            Change::Time { from, to } => {
                format!("+{}", duration(to.minutes().saturating_sub(from.minutes())))
            }
        }
    }
}

/// `+3` or `−5`, with the real minus sign.
fn signed(value: i64) -> String {
    if value < 0 {
        format!("{MINUS}{}", value.unsigned_abs())
    } else {
        format!("+{value}")
    }
}

/// `45 min`, `2 h`, `1 h 30 min`, `3 d 2 h`.
fn duration(minutes: u32) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let parts: Vec<String> = [(days, "d"), (hours, "h"), (mins, "min")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    if parts.is_empty() {
        "0 min".to_owned()
    } else {
        parts.join(" ")
    }
}

/// What applying deltas actually changed, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AppliedChanges(Vec<Change>);

impl AppliedChanges {
    /// The changes.
    pub fn changes(&self) -> &[Change] {
        &self.0
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The chip labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.0.iter().map(Change::label).collect()
    }
}

impl StateDelta {
    /// Applies the delta to `sheet`, clamping numbers into range, and reports what changed.
    /// On error `sheet` is unchanged.
    pub fn apply(&self, sheet: &mut CharacterSheet) -> Result<AppliedChanges, DeltaError> {
        let mut changes = AppliedChanges::default();
        self.apply_into(sheet, &mut changes)?;
        Ok(changes)
    }

    /// Applies every delta in order, all or nothing: on the first error `sheet` is left as it
    /// was before the first delta.
    pub fn apply_all(
        deltas: &[StateDelta],
        sheet: &mut CharacterSheet,
    ) -> Result<AppliedChanges, DeltaError> {
        let mut next = sheet.clone();
        let mut changes = AppliedChanges::default();
        for delta in deltas {
            delta.apply_into(&mut next, &mut changes)?;
        }
        *sheet = next;
        Ok(changes)
    }

    /// Applies the delta, pushing what changed. Every check comes before any mutation, so an
    /// error leaves `sheet` as it was.
    fn apply_into(
        &self,
        sheet: &mut CharacterSheet,
        changes: &mut AppliedChanges,
    ) -> Result<(), DeltaError> {
        let out = &mut changes.0;
        match self {
            StateDelta::ChangeHp { amount } => {
                let current = i64::from(sheet.hit_points.current());
                set_hp(sheet, current + i64::from(*amount), out);
            }
            StateDelta::SetHp { hp } => set_hp(sheet, i64::from(*hp), out),
            StateDelta::SetMaxHp { max_hp } => {
                let before = sheet.hit_points;
                sheet.hit_points.set_max_clamped(i64::from(*max_hp));
                let after = sheet.hit_points;
                if after.max() != before.max() {
                    out.push(Change::MaxHp {
                        from: before.max(),
                        to: after.max(),
                    });
                }
                if after.current() != before.current() {
                    out.push(Change::Hp {
                        from: before.current(),
                        to: after.current(),
                    });
                }
            }
            StateDelta::SetLevel { level } => {
                let from = sheet.level;
                sheet.level = Level::clamped(i64::from(*level));
                if sheet.level != from {
                    out.push(Change::Level {
                        from: from.value(),
                        to: sheet.level.value(),
                    });
                }
            }
            StateDelta::SetAttribute { attribute, score } => {
                let from = sheet.attributes.get(*attribute);
                let to = AttributeScore::clamped(i64::from(*score));
                sheet.attributes.set(*attribute, to);
                if to != from {
                    out.push(Change::Attribute {
                        attribute: *attribute,
                        from: from.value(),
                        to: to.value(),
                    });
                }
            }
            StateDelta::ChangeSanity { amount } => {
                let from = sheet.sanity.ok_or(DeltaError::NoSanity)?;
                let to = Sanity::clamped(i64::from(from.value()) + i64::from(*amount));
                sheet.sanity = Some(to);
                if to != from {
                    out.push(Change::Sanity {
                        from: from.value(),
                        to: to.value(),
                    });
                }
            }
            StateDelta::AddItem { item } => {
                if let Some(change) = sheet.inventory.add(item)? {
                    out.push(Change::Item(change));
                }
            }
            StateDelta::ChangeItemQuantity { slug, change } => {
                if let Some(change) = sheet.inventory.change_quantity(slug, *change)? {
                    out.push(Change::Item(change));
                }
            }
            StateDelta::AddCondition { condition } => {
                let previous = sheet.conditions.add(condition.clone())?;
                if previous.as_ref() != Some(condition) {
                    out.push(Change::ConditionAdded(condition.clone()));
                }
            }
            StateDelta::RemoveCondition { name } => {
                let removed = sheet.conditions.remove(name)?;
                out.push(Change::ConditionRemoved(removed));
            }
            StateDelta::MoveTo { location } => {
                if &sheet.location != location {
                    let from = std::mem::replace(&mut sheet.location, location.clone());
                    out.push(Change::Location {
                        from,
                        to: location.clone(),
                    });
                }
            }
            StateDelta::AdvanceTime { minutes } => {
                let from = sheet.time;
                sheet.time = from.after(*minutes);
                if sheet.time != from {
                    out.push(Change::Time {
                        from,
                        to: sheet.time,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Sets current hit points (clamped) and records the change.
fn set_hp(sheet: &mut CharacterSheet, value: i64, out: &mut Vec<Change>) {
    let from = sheet.hit_points.current();
    sheet.hit_points.set_current_clamped(value);
    let to = sheet.hit_points.current();
    if to != from {
        out.push(Change::Hp { from, to });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::inventory::Quantity;
    use crate::game::sheet::tests::mira;
    use crate::game::text::{ConditionDuration, ItemName};

    fn add_item(name: &str, quantity: i64) -> StateDelta {
        StateDelta::AddItem {
            item: NewItem::new(
                ItemName::new(name).unwrap(),
                None,
                Quantity::new(quantity).unwrap(),
            )
            .unwrap(),
        }
    }

    fn change_item(slug: &str, change: i32) -> StateDelta {
        StateDelta::ChangeItemQuantity {
            slug: Slug::new(slug).unwrap(),
            change,
        }
    }

    fn labels(delta: StateDelta, sheet: &mut CharacterSheet) -> Vec<String> {
        delta.apply(sheet).unwrap().labels()
    }

    #[test]
    fn hp_is_clamped_and_reports_the_actual_change() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -5 }, &mut sheet),
            ["−5 HP"]
        );
        assert_eq!(sheet.hit_points().current(), 5);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -50 }, &mut sheet),
            ["−5 HP"]
        );
        assert_eq!(sheet.hit_points().current(), 0);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -1 }, &mut sheet),
            Vec::<String>::new()
        );
        assert_eq!(labels(StateDelta::SetHp { hp: 99 }, &mut sheet), ["+10 HP"]);
        assert_eq!(sheet.hit_points().current(), 10);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: i32::MIN }, &mut sheet),
            ["−10 HP"]
        );
    }

    #[test]
    fn max_hp_drags_current_down() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: 6 }, &mut sheet),
            ["Max HP 6", "−4 HP"]
        );
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: 5000 }, &mut sheet),
            ["Max HP 999"]
        );
        assert_eq!(sheet.hit_points().current(), 6);
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: -3 }, &mut sheet),
            ["Max HP 1", "−5 HP"]
        );
    }

    #[test]
    fn level_and_attributes_are_clamped() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::SetLevel { level: 25 }, &mut sheet),
            ["Level 20"]
        );
        assert_eq!(
            labels(StateDelta::SetLevel { level: 0 }, &mut sheet),
            ["Level 1"]
        );
        let set = |score| StateDelta::SetAttribute {
            attribute: Attribute::Strength,
            score,
        };
        assert_eq!(labels(set(14), &mut sheet), ["STR 14"]);
        assert_eq!(labels(set(40), &mut sheet), ["STR 30"]);
        assert_eq!(labels(set(-2), &mut sheet), ["STR 1"]);
        assert_eq!(sheet.attributes().strength.value(), 1);
    }

    #[test]
    fn sanity_needs_a_sanity_score() {
        let mut sheet = mira();
        let err = StateDelta::ChangeSanity { amount: -5 }
            .apply(&mut sheet)
            .unwrap_err();
        assert_eq!(err.to_string(), "This character has no sanity score");
        let mut sheet = mira().with_sanity(Sanity::new(100).unwrap());
        assert_eq!(
            labels(StateDelta::ChangeSanity { amount: -10 }, &mut sheet),
            ["−10 Sanity"]
        );
        assert_eq!(
            labels(StateDelta::ChangeSanity { amount: 50 }, &mut sheet),
            ["+10 Sanity"]
        );
    }

    #[test]
    fn item_labels() {
        let mut sheet = mira();
        assert_eq!(
            labels(add_item("Rusty key", 1), &mut sheet),
            ["+ Rusty key"]
        );
        assert_eq!(labels(add_item("Torch", 2), &mut sheet), ["+2 Torch"]);
        assert_eq!(labels(add_item("torch", 1), &mut sheet), ["+1 Torch"]);
        assert_eq!(labels(change_item("torch", -1), &mut sheet), ["−1 Torch"]);
        assert_eq!(labels(add_item("Rope", 3), &mut sheet), ["+3 Rope"]);
        assert_eq!(labels(change_item("Rope", -3), &mut sheet), ["− Rope"]);
        assert!(sheet.inventory().get(&Slug::new("rope").unwrap()).is_none());
        assert_eq!(
            labels(change_item("torch", 0), &mut sheet),
            Vec::<String>::new()
        );
    }

    #[test]
    fn missing_item_is_an_error_and_changes_nothing() {
        let mut sheet = mira();
        let before = sheet.clone();
        let err = change_item("sandwich", -1).apply(&mut sheet).unwrap_err();
        assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
        assert_eq!(sheet, before);
    }

    #[test]
    fn condition_labels_and_errors() {
        let mut sheet = mira();
        let poisoned = Condition::named(ConditionName::new("Poisoned").unwrap());
        let add = StateDelta::AddCondition {
            condition: poisoned.clone(),
        };
        assert_eq!(labels(add.clone(), &mut sheet), ["Poisoned"]);
        assert_eq!(labels(add, &mut sheet), Vec::<String>::new());
        let mut longer = poisoned.clone();
        longer.duration = Some(ConditionDuration::new("1 hour").unwrap());
        assert_eq!(
            labels(StateDelta::AddCondition { condition: longer }, &mut sheet),
            ["Poisoned"]
        );
        let remove = StateDelta::RemoveCondition {
            name: ConditionName::new("poisoned").unwrap(),
        };
        assert_eq!(labels(remove.clone(), &mut sheet), ["− Poisoned"]);
        assert_eq!(
            remove.apply(&mut sheet).unwrap_err().to_string(),
            "No condition \"poisoned\" to remove"
        );
    }

    #[test]
    fn location_and_time() {
        let mut sheet = mira();
        let crypt = LocationName::new("The crypt").unwrap();
        let move_to = StateDelta::MoveTo { location: crypt };
        assert_eq!(labels(move_to.clone(), &mut sheet), ["→ The crypt"]);
        assert_eq!(labels(move_to, &mut sheet), Vec::<String>::new());
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 90 }, &mut sheet),
            ["+1 h 30 min"]
        );
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 45 }, &mut sheet),
            ["+45 min"]
        );
        assert_eq!(
            labels(
                StateDelta::AdvanceTime {
                    minutes: 3 * 1440 + 120
                },
                &mut sheet
            ),
            ["+3 d 2 h"]
        );
        assert_eq!(sheet.time().to_string(), "Day 4, 12:15");
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 0 }, &mut sheet),
            Vec::<String>::new()
        );
    }

    #[test]
    fn apply_all_is_atomic() {
        let mut sheet = mira();
        let before = sheet.clone();
        let deltas = [
            StateDelta::ChangeHp { amount: -3 },
            add_item("Torch", 1),
            change_item("sandwich", -1),
        ];
        let err = StateDelta::apply_all(&deltas, &mut sheet).unwrap_err();
        assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
        assert_eq!(sheet, before);
        let changes = StateDelta::apply_all(&deltas[..2], &mut sheet).unwrap();
        assert_eq!(changes.labels(), ["−3 HP", "+ Torch"]);
        assert_eq!(changes.changes().len(), 2);
        assert!(!changes.is_empty());
    }

    #[test]
    fn full_inventory_rejects_new_items_only() {
        let mut sheet = mira();
        let deltas: Vec<StateDelta> = (0..100)
            .map(|i| add_item(&format!("Pebble {i}"), 1))
            .collect();
        StateDelta::apply_all(&deltas, &mut sheet).unwrap();
        let err = add_item("Feather", 1).apply(&mut sheet).unwrap_err();
        assert!(matches!(err, DeltaError::Inventory(InventoryError::Full)));
        assert_eq!(labels(add_item("pebble 7", 2), &mut sheet), ["+2 Pebble 7"]);
    }

    #[test]
    fn deltas_and_changes_serialise_tagged() {
        let delta = StateDelta::SetMaxHp { max_hp: 12 };
        let json = serde_json::to_value(&delta).unwrap();
        assert_eq!(json, serde_json::json!({"type": "setMaxHp", "maxHp": 12}));
        let back: StateDelta = serde_json::from_value(json).unwrap();
        assert_eq!(back, delta);
        let add: StateDelta = serde_json::from_value(serde_json::json!({
            "type": "addItem", "item": {"name": "Rusty key", "quantity": 1}
        }))
        .unwrap();
        let mut sheet = mira();
        let changes = add.apply(&mut sheet).unwrap();
        let json = serde_json::to_value(&changes).unwrap();
        assert_eq!(json[0]["type"], "item");
        assert_eq!(json[0]["slug"], "rusty-key");
        let back: AppliedChanges = serde_json::from_value(json).unwrap();
        assert_eq!(back, changes);
    }
}
