//! `add_inventory`: the character gains items (stacked by slug onto what they carry).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::{NewItem, StateDelta};

/// The most items one call may add.
pub const MAX_ITEMS_PER_CALL: usize = 10;

/// Arguments of `add_inventory`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct AddInventory {
    /// 1 to 10 items (description may be null; quantity 1 to 999).
    pub items: Vec<NewItem>,
}

impl GameTool for AddInventory {
    const NAME: &'static str = "add_inventory";
    const DESCRIPTION: &'static str = "Items the character gains (the same name stacks).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.items.is_empty() || self.items.len() > MAX_ITEMS_PER_CALL {
            return Err(ArgumentError::PerCall {
                what: "items",
                min: 1,
                max: MAX_ITEMS_PER_CALL,
                given: self.items.len(),
            });
        }
        Ok(ToolCommand::Change(
            self.items
                .into_iter()
                .map(|item| StateDelta::AddItem { item })
                .collect(),
        ))
    }
}
