//! `change_inventory`: items gained, used up, spent, lost or given away, in one tool (it took
//! two, `add_inventory` and `update_inventory`, which the registry still reads). An item is
//! named by its name or its slug, which come to the same key: a gain stacks onto a carried item
//! of that name and a loss takes from it.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::text::{ItemDescription, ItemName};
use crate::game::{NewItem, Quantity, Slug, StateDelta};

/// The most items one call may change.
pub const MAX_CHANGES_PER_CALL: usize = 10;

/// Arguments of `change_inventory`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ChangeInventory {
    /// 1 to 10: item (name or slug), change (+ gained, - used up), a new item's description.
    pub items: Vec<ItemChange>,
}

/// One item's change.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ItemChange {
    /// The item's name, or its slug from the sheet.
    #[serde(alias = "name", alias = "slug")]
    pub item: ItemName,
    /// How many gained (+) or used up (-).
    #[serde(alias = "quantity", alias = "quantityChange", alias = "quantity_change")]
    pub change: i32,
    /// What a new item is.
    #[serde(default)]
    pub description: Option<ItemDescription>,
}

impl GameTool for ChangeInventory {
    const NAME: &'static str = "change_inventory";
    const DESCRIPTION: &'static str = "Items gained, used up, spent, lost or given away.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.items.is_empty() || self.items.len() > MAX_CHANGES_PER_CALL {
            return Err(ArgumentError::PerCall {
                what: "items",
                min: 1,
                max: MAX_CHANGES_PER_CALL,
                given: self.items.len(),
            });
        }
        let deltas = self
            .items
            .into_iter()
            .map(ItemChange::delta)
            .collect::<Result<_, _>>()?;
        Ok(ToolCommand::Change(deltas))
    }
}

impl ItemChange {
    /// A gain adds the item (stacking by slug onto one carried), a loss changes the carried
    /// item's quantity; no change is refused.
    fn delta(self) -> Result<StateDelta, ArgumentError> {
        let given = i64::from(self.change);
        if self.change > 0 {
            let quantity = Quantity::new(given).map_err(|_| ArgumentError::OutOfRange {
                field: "change",
                min: -999,
                max: 999,
                given,
            })?;
            let item = NewItem::new(self.item, self.description, quantity)?;
            return Ok(StateDelta::AddItem { item });
        }
        if self.change == 0 {
            return Err(ArgumentError::Missing("a change other than 0"));
        }
        Ok(StateDelta::ChangeItemQuantity {
            slug: Slug::new(self.item.as_str())?,
            change: self.change,
        })
    }
}
