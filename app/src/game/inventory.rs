//! The inventory: items keyed by slug, each with a quantity of 1..=999, at most
//! [`Inventory::MAX_ITEMS`] different items. Adding an item whose name slugifies to a carried
//! item's slug stacks onto it (keeping the first name and description); a quantity that would
//! pass 999 stops at 999; a quantity that reaches zero removes the item.

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "NewItemWire")]
pub struct NewItem {
    slug: Slug,
    name: ItemName,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<ItemDescription>,
    quantity: Quantity,
}

/// The wire shape of [`NewItem`]: `{ name, description, quantity }`.
#[derive(Deserialize, JsonSchema)]
#[schemars(description = "An item to give the character.")]
struct NewItemWire {
    /// The item's short name.
    name: ItemName,
    /// What the item is, or null.
    #[serde(default, deserialize_with = "blank_as_none")]
    description: Option<ItemDescription>,
    /// How many, 1 to 999.
    quantity: Quantity,
}

impl TryFrom<NewItemWire> for NewItem {
    type Error = TextError;

    fn try_from(wire: NewItemWire) -> Result<Self, Self::Error> {
        NewItem::new(wire.name, wire.description, wire.quantity)
    }
}

impl JsonSchema for NewItem {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("NewItem")
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        NewItemWire::json_schema(generator)
    }
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
            name,
            description,
            quantity,
        })
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
pub struct Item {
    slug: Slug,
    name: ItemName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<ItemDescription>,
    quantity: Quantity,
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
        });
        Ok(Some(ItemChange {
            slug: item.slug.clone(),
            name: item.name.clone(),
            from: 0,
            to: item.quantity.value(),
        }))
    }

    /// Changes the quantity of the carried item `slug` by `change`; at zero or below the item is
    /// removed, above 999 it stops at 999. Changes nothing on error.
    pub(in crate::game) fn change_quantity(
        &mut self,
        slug: &Slug,
        change: i32,
    ) -> Result<Option<ItemChange>, InventoryError> {
        let index = self
            .items
            .iter()
            .position(|item| &item.slug == slug)
            .ok_or_else(|| InventoryError::NoSuchItem { slug: slug.clone() })?;
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
