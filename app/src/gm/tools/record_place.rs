//! `record_place`: the narrator records a place the character reached and where it leads, for
//! the map in the side panel (see [`crate::game::map`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::map::{PlaceRecord, MAX_EXITS};
use crate::game::text::LocationName;

/// Arguments of `record_place`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordPlace {
    /// E.g. The bell tower.
    pub place: LocationName,
    /// 0 to 8 places it leads to.
    #[serde(default, alias = "connects_to", alias = "exits")]
    pub connects_to: Vec<LocationName>,
}

impl GameTool for RecordPlace {
    const NAME: &'static str = "record_place";
    const DESCRIPTION: &'static str = "A new place the character reached and where it leads \
        (the player's map).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.connects_to.len() > MAX_EXITS {
            return Err(ArgumentError::PerCall {
                what: "places it leads to",
                min: 0,
                max: MAX_EXITS,
                given: self.connects_to.len(),
            });
        }
        Ok(ToolCommand::Map(PlaceRecord {
            place: self.place,
            connects_to: self.connects_to,
        }))
    }
}
