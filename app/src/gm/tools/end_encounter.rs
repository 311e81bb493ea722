//! `end_encounter`: the fight stops another way than by the sword (a surrender, a truce). Foes
//! already down still count for experience.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};

/// Arguments of `end_encounter` (none).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct EndEncounter {}

impl GameTool for EndEncounter {
    const NAME: &'static str = "end_encounter";
    const DESCRIPTION: &'static str = "The fight stops without a victor (a surrender, a truce).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::EndEncounter)
    }
}
