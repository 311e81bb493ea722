//! The inventory: items keyed by slug, each with a quantity of 1..=999, at most
//! [`Inventory::MAX_ITEMS`] different items. Adding an item whose name slugifies to a carried
//! item's slug stacks onto it (keeping the first name and description); a quantity that would
//! pass 999 stops at 999; a quantity that reaches zero removes the item.
//!
//! Each item has an [`ItemKind`] (plain gear unless the [`catalogue`] knows its
//! name or the caller gave it one) and may be equipped: at most one weapon, one armour and one
//! shield at a time, and only those. An item that is gone is no longer equipped. Items stored
//! before items had kinds read as plain gear, not equipped; gear and unequipped items are written
//! exactly as before (no `kind` or `equipped` field).

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use super::catalogue;
use super::item_kind::{ItemKind, Slot};
use super::text::{blank_as_none, ItemDescription, ItemName, Slug, TextError};

/// A quantity outside 1..=999.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("quantity must be {}..={} (got {value})", Quantity::MIN, Quantity::MAX)]
pub struct QuantityError {
    value: i64,
}

/// How many of an item, 1..=999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u16")]
pub struct Quantity(u16);

impl Quantity {
    /// The fewest of an item that can be carried.
    pub const MIN: u16 = 1;
    /// The most of one item that can be carried.
    pub const MAX: u16 = 999;
    /// One.
    pub const ONE: Quantity = Quantity(1);

    /// The quantity `value`, or an error outside 1..=999.
    pub fn new(value: i64) -> Result<Self, QuantityError> {
        u16::try_from(value)
            .ok()
            .filter(|v| (Self::MIN..=Self::MAX).contains(v))
            .map(Self)
            .ok_or(QuantityError { value })
    }

    /// The quantity as a number.
    pub fn value(self) -> u16 {
        self.0
    }
}

impl TryFrom<i64> for Quantity {
    type Error = QuantityError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<Quantity> for u16 {
    fn from(quantity: Quantity) -> u16 {
        quantity.0
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl JsonSchema for Quantity {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Quantity")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": Self::MIN, "maximum": Self::MAX })
    }
}

/// An item being given to the character (the `add_inventory` tool's item). Its slug is made from
/// its name when it is created, so an item that cannot be keyed never gets this far.
///
/// Its kind is the catalogue's when the catalogue knows its name, else the kind it was given
/// ([`NewItem::with_kind`], or a `kind` field), else plain gear. It is written with a `kind` only
/// when its name alone would not give that kind, so items written before kinds existed read
/// back the same and are written the same.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "NewItemWire")]
pub struct NewItem {
    slug: Slug,
    name: ItemName,
    description: Option<ItemDescription>,
    quantity: Quantity,
    kind: ItemKind,
}

/// The wire shape of [`NewItem`]: `{ name, description, quantity, kind? }`.
#[derive(Deserialize)]
struct NewItemWire {
    name: ItemName,
    #[serde(default, deserialize_with = "blank_as_none")]
    description: Option<ItemDescription>,
    quantity: Quantity,
    #[serde(default)]
    kind: Option<ItemKind>,
}

/// The shape the model is shown for [`NewItem`]: `{ name, description, quantity }` (a `kind` is
/// read too, but not yet offered).
#[derive(JsonSchema)]
#[schemars(description = "An item to give the character.")]
#[allow(dead_code)]
struct NewItemSchema {
    /// The item's short name.
    name: ItemName,
    /// What the item is, or null.
    description: Option<ItemDescription>,
    /// How many, 1 to 999.
    quantity: Quantity,
}

impl TryFrom<NewItemWire> for NewItem {
    type Error = TextError;

    fn try_from(wire: NewItemWire) -> Result<Self, Self::Error> {
        let item = NewItem::new(wire.name, wire.description, wire.quantity)?;
        Ok(match wire.kind {
            Some(kind) => item.with_kind(kind),
            None => item,
        })
    }
}

impl Serialize for NewItem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Out<'a> {
            slug: &'a Slug,
            name: &'a ItemName,
            #[serde(skip_serializing_if = "Option::is_none")]
            description: Option<&'a ItemDescription>,
            quantity: Quantity,
            #[serde(skip_serializing_if = "Option::is_none")]
            kind: Option<&'a ItemKind>,
        }
        Out {
            slug: &self.slug,
            name: &self.name,
            description: self.description.as_ref(),
            quantity: self.quantity,
            kind: (self.kind != kind_by_name(&self.name)).then_some(&self.kind),
        }
        .serialize(serializer)
    }
}

impl JsonSchema for NewItem {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("NewItem")
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        NewItemSchema::json_schema(generator)
    }
}

/// The kind an item's name alone gives it: the catalogue's, or plain gear.
fn kind_by_name(name: &ItemName) -> ItemKind {
    catalogue::kind_of(name.as_str()).unwrap_or_default()
}

impl NewItem {
    /// An item to add; fails when the name has no letter or digit to make a slug from.
    pub fn new(
        name: ItemName,
        description: Option<ItemDescription>,
        quantity: Quantity,
    ) -> Result<Self, TextError> {
        Ok(Self {
            slug: Slug::new(name.as_str())?,
            kind: kind_by_name(&name),
            name,
            description,
            quantity,
        })
    }

    /// The same item as `kind`, unless the catalogue knows its name: then the catalogue's kind
    /// stays (the rules own the numbers of a longsword).
    pub fn with_kind(mut self, kind: ItemKind) -> Self {
        if catalogue::kind_of(self.name.as_str()).is_none() {
            self.kind = kind;
        }
        self
    }

    /// What it is to the rules.
    pub fn kind(&self) -> &ItemKind {
        &self.kind
    }

    /// The slug it will be carried under.
    pub fn slug(&self) -> &Slug {
        &self.slug
    }

    /// Its name.
    pub fn name(&self) -> &ItemName {
        &self.name
    }

    /// Its description, if any.
    pub fn description(&self) -> Option<&ItemDescription> {
        self.description.as_ref()
    }

    /// How many are added.
    pub fn quantity(&self) -> Quantity {
        self.quantity
    }
}

/// An item the character carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ItemWire")]
pub struct Item {
    slug: Slug,
    name: ItemName,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<ItemDescription>,
    quantity: Quantity,
    #[serde(skip_serializing_if = "ItemKind::is_gear")]
    kind: ItemKind,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    equipped: bool,
}

/// The stored shape of [`Item`]; `kind` and `equipped` are missing from items stored before
/// items had kinds.
#[derive(Deserialize)]
struct ItemWire {
    slug: Slug,
    name: ItemName,
    #[serde(default)]
    description: Option<ItemDescription>,
    quantity: Quantity,
    #[serde(default)]
    kind: ItemKind,
    #[serde(default)]
    equipped: bool,
}

impl TryFrom<ItemWire> for Item {
    type Error = InventoryError;

    fn try_from(wire: ItemWire) -> Result<Self, Self::Error> {
        if wire.equipped && wire.kind.slot().is_none() {
            return Err(InventoryError::NotEquippable { name: wire.name });
        }
        Ok(Self {
            slug: wire.slug,
            name: wire.name,
            description: wire.description,
            quantity: wire.quantity,
            kind: wire.kind,
            equipped: wire.equipped,
        })
    }
}

impl Item {
    /// Its key.
    pub fn slug(&self) -> &Slug {
        &self.slug
    }

    /// Its name.
    pub fn name(&self) -> &ItemName {
        &self.name
    }

    /// Its description, if any.
    pub fn description(&self) -> Option<&ItemDescription> {
        self.description.as_ref()
    }

    /// How many are carried.
    pub fn quantity(&self) -> Quantity {
        self.quantity
    }

    /// What it is to the rules.
    pub fn kind(&self) -> &ItemKind {
        &self.kind
    }

    /// Whether it is equipped (only a weapon, armour or shield can be).
    pub fn is_equipped(&self) -> bool {
        self.equipped
    }
}

/// A carried inventory had two items with one slug, or too many items.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InventoryError {
    /// Adding a new item to a full inventory.
    #[error(
        "Inventory is full ({} different items); drop something first",
        Inventory::MAX_ITEMS
    )]
    Full,
    /// Changing the quantity of an item not carried.
    #[error("No item \"{slug}\" in inventory")]
    NoSuchItem {
        /// The slug asked for.
        slug: Slug,
    },
    /// Two items with one slug (only in stored data).
    #[error("Item \"{slug}\" is listed twice")]
    Duplicate {
        /// The slug listed twice.
        slug: Slug,
    },
    /// Equipping an item that is not a weapon, armour or shield.
    #[error("{name} is not a weapon, armour or a shield, so it cannot be equipped")]
    NotEquippable {
        /// The item's name.
        name: ItemName,
    },
    /// Unequipping an item that is not equipped.
    #[error("{name} is not equipped")]
    NotEquipped {
        /// The item's name.
        name: ItemName,
    },
    /// Two equipped items in one slot (only in stored data).
    #[error("Two items are equipped as the {}", slot.name())]
    SlotTaken {
        /// The slot.
        slot: Slot,
    },
}

/// An item equipped or put away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EquipChange {
    /// The item's slug.
    pub slug: Slug,
    /// The item's name.
    pub name: ItemName,
    /// Whether it is now equipped.
    pub equipped: bool,
}

/// How one item's carried quantity changed: `from` 0 is newly added, `to` 0 is gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemChange {
    /// The item's slug.
    pub slug: Slug,
    /// The item's name.
    pub name: ItemName,
    /// The quantity before, 0 if not carried.
    pub from: u16,
    /// The quantity after, 0 if no longer carried.
    pub to: u16,
}

/// The items a character carries, in the order first picked up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Item>", into = "Vec<Item>")]
pub struct Inventory {
    items: Vec<Item>,
}

impl Inventory {
    /// The most different items a character can carry.
    pub const MAX_ITEMS: usize = 100;

    /// The items.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The item with `slug`, if carried.
    pub fn get(&self, slug: &Slug) -> Option<&Item> {
        self.items.iter().find(|item| &item.slug == slug)
    }

    /// How many different items are carried.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is carried.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Adds `item`, stacking by slug; quantities stop at 999. Changes nothing on error.
    pub(in crate::game) fn add(
        &mut self,
        item: &NewItem,
    ) -> Result<Option<ItemChange>, InventoryError> {
        if let Some(carried) = self.items.iter_mut().find(|c| c.slug == item.slug) {
            let from = carried.quantity.value();
            let to = from
                .saturating_add(item.quantity.value())
                .min(Quantity::MAX);
            carried.quantity = Quantity(to);
            return Ok((to != from).then(|| ItemChange {
                slug: carried.slug.clone(),
                name: carried.name.clone(),
                from,
                to,
            }));
        }
        if self.items.len() >= Self::MAX_ITEMS {
            return Err(InventoryError::Full);
        }
        self.items.push(Item {
            slug: item.slug.clone(),
            name: item.name.clone(),
            description: item.description.clone(),
            quantity: item.quantity,
            kind: item.kind.clone(),
            equipped: false,
        });
        Ok(Some(ItemChange {
            slug: item.slug.clone(),
            name: item.name.clone(),
            from: 0,
            to: item.quantity.value(),
        }))
    }

    /// Changes the quantity of the carried item `slug` by `change`; at zero or below the item is
    /// removed (and so no longer equipped), above 999 it stops at 999. Changes nothing on error.
    pub(in crate::game) fn change_quantity(
        &mut self,
        slug: &Slug,
        change: i32,
    ) -> Result<Option<ItemChange>, InventoryError> {
        let index = self.position(slug)?;
        let item = &mut self.items[index];
        let from = item.quantity.value();
        let wanted = i64::from(from) + i64::from(change);
        // The clamp makes the cast lossless.
        let to = wanted.clamp(0, i64::from(Quantity::MAX)) as u16;
        let change = ItemChange {
            slug: item.slug.clone(),
            name: item.name.clone(),
            from,
            to,
        };
        if to == from {
            return Ok(None);
        }
        if to == 0 {
            self.items.remove(index);
        } else {
            item.quantity = Quantity(to);
        }
        Ok(Some(change))
    }
}

impl Inventory {
    /// The item equipped in `slot`, if any.
    pub fn equipped(&self, slot: Slot) -> Option<&Item> {
        self.items
            .iter()
            .find(|item| item.equipped && item.kind.slot() == Some(slot))
    }

    /// Equips the carried item `slug`, putting away what held its slot before. Equipping what
    /// is equipped changes nothing. Changes nothing on error.
    pub(in crate::game) fn equip(
        &mut self,
        slug: &Slug,
    ) -> Result<Vec<EquipChange>, InventoryError> {
        let index = self.position(slug)?;
        let item = &self.items[index];
        let slot = item
            .kind
            .slot()
            .ok_or_else(|| InventoryError::NotEquippable {
                name: item.name.clone(),
            })?;
        if item.equipped {
            return Ok(Vec::new());
        }
        let mut changes = Vec::with_capacity(2);
        if let Some(held) = self
            .items
            .iter_mut()
            .find(|other| other.equipped && other.kind.slot() == Some(slot))
        {
            held.equipped = false;
            changes.push(EquipChange::of(held));
        }
        let item = &mut self.items[index];
        item.equipped = true;
        changes.push(EquipChange::of(item));
        Ok(changes)
    }

    /// Puts away the equipped item `slug`. Changes nothing on error.
    pub(in crate::game) fn unequip(&mut self, slug: &Slug) -> Result<EquipChange, InventoryError> {
        let index = self.position(slug)?;
        let item = &mut self.items[index];
        if !item.equipped {
            return Err(InventoryError::NotEquipped {
                name: item.name.clone(),
            });
        }
        item.equipped = false;
        Ok(EquipChange::of(item))
    }

    /// The same items as they were before items had kinds: without the items `dropping`, every
    /// one plain gear and nothing equipped.
    pub(in crate::game) fn untyped(&self, dropping: &[Slug]) -> Inventory {
        let items = self
            .items
            .iter()
            .filter(|item| !dropping.contains(&item.slug))
            .map(|item| Item {
                kind: ItemKind::Gear,
                equipped: false,
                ..item.clone()
            })
            .collect();
        Inventory { items }
    }

    fn position(&self, slug: &Slug) -> Result<usize, InventoryError> {
        self.items
            .iter()
            .position(|item| &item.slug == slug)
            .ok_or_else(|| InventoryError::NoSuchItem { slug: slug.clone() })
    }
}

impl EquipChange {
    fn of(item: &Item) -> Self {
        Self {
            slug: item.slug.clone(),
            name: item.name.clone(),
            equipped: item.equipped,
        }
    }
}

impl TryFrom<Vec<Item>> for Inventory {
    type Error = InventoryError;

    fn try_from(items: Vec<Item>) -> Result<Self, Self::Error> {
        if items.len() > Self::MAX_ITEMS {
            return Err(InventoryError::Full);
        }
        for (i, item) in items.iter().enumerate() {
            if items[..i].iter().any(|earlier| earlier.slug == item.slug) {
                return Err(InventoryError::Duplicate {
                    slug: item.slug.clone(),
                });
            }
        }
        for slot in [Slot::Weapon, Slot::Armor, Slot::Shield] {
            let held = items
                .iter()
                .filter(|item| item.equipped && item.kind.slot() == Some(slot));
            if held.count() > 1 {
                return Err(InventoryError::SlotTaken { slot });
            }
        }
        Ok(Self { items })
    }
}

impl From<Inventory> for Vec<Item> {
    fn from(inventory: Inventory) -> Self {
        inventory.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_item(name: &str, quantity: i64) -> NewItem {
        NewItem::new(
            ItemName::new(name).unwrap(),
            None,
            Quantity::new(quantity).unwrap(),
        )
        .unwrap()
    }

    fn slug(raw: &str) -> Slug {
        Slug::new(raw).unwrap()
    }

    #[test]
    fn quantity_bounds() {
        assert!(Quantity::new(0).is_err());
        assert!(Quantity::new(1000).is_err());
        assert_eq!(Quantity::new(999).unwrap().value(), 999);
        assert_eq!(
            Quantity::new(-1).unwrap_err().to_string(),
            "quantity must be 1..=999 (got -1)"
        );
    }

    #[test]
    fn adding_stacks_by_slug() {
        let mut inventory = Inventory::default();
        let change = inventory.add(&new_item("Torch", 2)).unwrap().unwrap();
        assert_eq!((change.from, change.to), (0, 2));
        let change = inventory.add(&new_item("torch", 3)).unwrap().unwrap();
        assert_eq!((change.from, change.to), (2, 5));
        assert_eq!(inventory.len(), 1);
        let torch = inventory.get(&slug("torch")).unwrap();
        assert_eq!(torch.name().as_str(), "Torch");
        assert_eq!(torch.quantity().value(), 5);
    }

    #[test]
    fn stacking_stops_at_999() {
        let mut inventory = Inventory::default();
        inventory.add(&new_item("Arrow", 998)).unwrap();
        let change = inventory.add(&new_item("Arrow", 5)).unwrap().unwrap();
        assert_eq!((change.from, change.to), (998, 999));
        assert_eq!(inventory.add(&new_item("Arrow", 5)).unwrap(), None);
    }

    #[test]
    fn inventory_size_is_bounded() {
        let mut inventory = Inventory::default();
        for i in 0..Inventory::MAX_ITEMS {
            inventory.add(&new_item(&format!("Pebble {i}"), 1)).unwrap();
        }
        let err = inventory.add(&new_item("Feather", 1)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Inventory is full (100 different items); drop something first"
        );
        // Stacking onto a carried item still works.
        assert!(inventory.add(&new_item("Pebble 0", 1)).unwrap().is_some());
    }

    #[test]
    fn quantity_change_removes_at_zero_or_below() {
        let mut inventory = Inventory::default();
        inventory.add(&new_item("Rope", 2)).unwrap();
        let change = inventory
            .change_quantity(&slug("rope"), -1)
            .unwrap()
            .unwrap();
        assert_eq!((change.from, change.to), (2, 1));
        let change = inventory
            .change_quantity(&slug("rope"), -5)
            .unwrap()
            .unwrap();
        assert_eq!((change.from, change.to), (1, 0));
        assert!(inventory.is_empty());
    }

    #[test]
    fn quantity_change_on_missing_item_is_an_error_the_model_can_read() {
        let mut inventory = Inventory::default();
        let err = inventory
            .change_quantity(&slug("sandwich"), -1)
            .unwrap_err();
        assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
    }

    #[test]
    fn new_item_needs_a_sluggable_name() {
        let err = NewItem::new(ItemName::new("???").unwrap(), None, Quantity::ONE).unwrap_err();
        assert_eq!(err.to_string(), "slug \"???\" has no letters or digits");
    }

    #[test]
    fn new_item_from_tool_json() {
        let item: NewItem =
            serde_json::from_str(r#"{"name":"Rusty Key","description":"","quantity":1}"#).unwrap();
        assert_eq!(item.slug().as_str(), "rusty-key");
        assert_eq!(item.description(), None);
        assert_eq!(item.quantity(), Quantity::ONE);
        assert!(serde_json::from_str::<NewItem>(r#"{"name":"Key","quantity":0}"#).is_err());
        assert!(serde_json::from_str::<NewItem>(r#"{"name":"!!","quantity":1}"#).is_err());
    }

    #[test]
    fn stored_inventory_rejects_duplicates() {
        let json = r#"[{"slug":"rope","name":"Rope","quantity":1},{"slug":"rope","name":"rope","quantity":2}]"#;
        let err = serde_json::from_str::<Inventory>(json).unwrap_err();
        assert!(err.to_string().contains("Item \"rope\" is listed twice"));
    }

    fn equip(inventory: &mut Inventory, raw: &str) -> Vec<String> {
        inventory
            .equip(&slug(raw))
            .unwrap()
            .iter()
            .map(|c| format!("{} {}", c.name, c.equipped))
            .collect()
    }

    #[test]
    fn catalogue_names_get_their_kind_and_others_are_gear_unless_given_one() {
        assert_eq!(new_item("long sword", 1).kind().summary(), "1d8 slashing");
        assert!(new_item("Rusty key", 1).kind().is_gear());
        let wand = ItemKind::Weapon(
            crate::game::WeaponProfile::new(
                crate::game::DiceExpr::parse("2d6").unwrap(),
                crate::game::DamageType::Fire,
                false,
                true,
            )
            .unwrap(),
        );
        let item = new_item("Fire wand", 1).with_kind(wand.clone());
        assert_eq!(item.kind(), &wand);
        // The catalogue owns the numbers of what it knows.
        let sword = new_item("Longsword", 1).with_kind(wand);
        assert_eq!(sword.kind().summary(), "1d8 slashing");
        let sword = new_item("Longsword", 1).with_kind(ItemKind::Gear);
        assert_eq!(sword.kind().summary(), "1d8 slashing");
    }

    #[test]
    fn new_items_are_written_with_a_kind_only_when_the_name_does_not_give_it() {
        let potion = new_item("Healing potion", 1);
        let json = serde_json::to_value(&potion).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"slug": "healing-potion", "name": "Healing potion", "quantity": 1})
        );
        assert_eq!(serde_json::from_value::<NewItem>(json).unwrap(), potion);
        let shield = new_item("Tower of wood", 1).with_kind(ItemKind::Shield);
        let json = serde_json::to_value(&shield).unwrap();
        assert_eq!(json["kind"], serde_json::json!({"type": "shield"}));
        assert_eq!(serde_json::from_value::<NewItem>(json).unwrap(), shield);
        let bad = r#"{"name":"Wand","quantity":1,"kind":{"type":"weapon","damage":"9d12","damageType":"fire"}}"#;
        assert!(serde_json::from_str::<NewItem>(bad).is_err());
    }

    #[test]
    fn an_item_added_before_kinds_existed_reads_and_writes_as_before() {
        let old = include_str!("fixtures/add-item-before-typed-items.json");
        let delta: crate::game::StateDelta = serde_json::from_str(old).unwrap();
        let crate::game::StateDelta::AddItem { item } = &delta else {
            panic!("an added item");
        };
        assert_eq!(item.kind().summary(), "heals 2d4+2");
        assert_eq!(serde_json::to_string(&delta).unwrap(), old.trim());
    }

    #[test]
    fn an_old_stored_item_is_plain_gear_and_not_equipped() {
        let old = r#"[{"slug":"longsword","name":"Longsword","description":"1d8 slashing.","quantity":1}]"#;
        let inventory: Inventory = serde_json::from_str(old).unwrap();
        let sword = inventory.get(&slug("longsword")).unwrap();
        assert!(sword.kind().is_gear() && !sword.is_equipped());
        assert_eq!(serde_json::to_string(&inventory).unwrap(), old);
    }

    #[test]
    fn equipping_takes_the_slot_and_puts_away_what_held_it() {
        let mut inventory = Inventory::default();
        for name in [
            "Longsword",
            "Dagger",
            "Chain mail",
            "Leather armor",
            "Shield",
            "Rope",
        ] {
            inventory.add(&new_item(name, 1)).unwrap();
        }
        assert_eq!(equip(&mut inventory, "longsword"), ["Longsword true"]);
        assert_eq!(equip(&mut inventory, "longsword"), Vec::<String>::new());
        assert_eq!(equip(&mut inventory, "chain-mail"), ["Chain mail true"]);
        assert_eq!(equip(&mut inventory, "shield"), ["Shield true"]);
        assert_eq!(
            equip(&mut inventory, "dagger"),
            ["Longsword false", "Dagger true"]
        );
        assert_eq!(
            equip(&mut inventory, "leather-armor"),
            ["Chain mail false", "Leather armor true"]
        );
        assert_eq!(
            inventory.equipped(Slot::Weapon).unwrap().name().as_str(),
            "Dagger"
        );
        assert_eq!(
            inventory.equipped(Slot::Shield).unwrap().name().as_str(),
            "Shield"
        );
        let before = inventory.clone();
        assert_eq!(
            inventory.equip(&slug("rope")).unwrap_err().to_string(),
            "Rope is not a weapon, armour or a shield, so it cannot be equipped"
        );
        assert_eq!(
            inventory.equip(&slug("greataxe")).unwrap_err().to_string(),
            "No item \"greataxe\" in inventory"
        );
        assert_eq!(
            inventory
                .unequip(&slug("longsword"))
                .unwrap_err()
                .to_string(),
            "Longsword is not equipped"
        );
        assert_eq!(inventory, before);
        let change = inventory.unequip(&slug("shield")).unwrap();
        assert!(!change.equipped);
        assert_eq!(inventory.equipped(Slot::Shield), None);
        // Gone is no longer equipped.
        inventory.change_quantity(&slug("dagger"), -1).unwrap();
        assert_eq!(inventory.equipped(Slot::Weapon), None);
    }

    #[test]
    fn stored_equipment_must_be_equippable_and_one_per_slot() {
        let gear = r#"[{"slug":"rope","name":"Rope","quantity":1,"equipped":true}]"#;
        let err = serde_json::from_str::<Inventory>(gear).unwrap_err();
        assert!(err.to_string().contains("Rope is not a weapon"), "{err}");
        let shield = r#"{"type":"shield"}"#;
        let two = format!(
            r#"[{{"slug":"a","name":"A","quantity":1,"kind":{shield},"equipped":true}},
                {{"slug":"b","name":"B","quantity":1,"kind":{shield},"equipped":true}}]"#
        );
        let err = serde_json::from_str::<Inventory>(&two).unwrap_err();
        assert!(
            err.to_string()
                .contains("Two items are equipped as the shield"),
            "{err}"
        );
        let one = two.replace(r#","equipped":true}]"#, "}]");
        let inventory: Inventory = serde_json::from_str(&one).unwrap();
        assert_eq!(
            inventory.equipped(Slot::Shield).unwrap().name().as_str(),
            "A"
        );
        let json = serde_json::to_value(&inventory).unwrap();
        assert_eq!(json[0]["equipped"], true);
        assert_eq!(json[1].get("equipped"), None);
    }

    #[test]
    fn untyped_drops_the_named_items_and_every_kind() {
        let mut inventory = Inventory::default();
        for name in ["Longsword", "Chain mail", "Healing potion"] {
            inventory.add(&new_item(name, 1)).unwrap();
        }
        inventory.equip(&slug("longsword")).unwrap();
        let old = inventory.untyped(&[slug("chain-mail")]);
        assert_eq!(old.len(), 2);
        assert!(old
            .items()
            .iter()
            .all(|i| i.kind().is_gear() && !i.is_equipped()));
    }

    #[test]
    fn inventory_serde_round_trip() {
        let mut inventory = Inventory::default();
        inventory.add(&new_item("Rope", 2)).unwrap();
        let json = serde_json::to_value(&inventory).unwrap();
        assert_eq!(json[0]["slug"], "rope");
        assert_eq!(json[0]["quantity"], 2);
        let back: Inventory = serde_json::from_value(json).unwrap();
        assert_eq!(back, inventory);
    }
}
