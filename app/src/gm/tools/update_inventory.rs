//! `update_inventory`: carried items used up, dropped, or found again.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::{Slug, StateDelta};

/// The most updates one call may make.
pub const MAX_UPDATES_PER_CALL: usize = 10;

/// Arguments of `update_inventory`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct UpdateInventory {
    /// 1 to 10: an item's slug from the sheet and its change (+ gained, - used up; none left
    /// removes it).
    pub updates: Vec<InventoryUpdate>,
}

/// One carried item's quantity change.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InventoryUpdate {
    /// The item's slug as shown on the character sheet, e.g. "rusty-key".
    pub slug: Slug,
    /// How many to add (positive) or use up/remove (negative); reaching zero removes the item.
    #[serde(alias = "quantity_change", alias = "change")]
    pub quantity_change: i32,
}

impl GameTool for UpdateInventory {
    const NAME: &'static str = "update_inventory";
    const DESCRIPTION: &'static str = "Carried items used up, spent, lost or given away.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.updates.is_empty() || self.updates.len() > MAX_UPDATES_PER_CALL {
            return Err(ArgumentError::PerCall {
                what: "updates",
                min: 1,
                max: MAX_UPDATES_PER_CALL,
                given: self.updates.len(),
            });
        }
        Ok(ToolCommand::Change(
            self.updates
                .into_iter()
                .map(|update| StateDelta::ChangeItemQuantity {
                    slug: update.slug,
                    change: update.quantity_change,
                })
                .collect(),
        ))
    }
}
