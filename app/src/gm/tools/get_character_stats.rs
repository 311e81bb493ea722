//! `get_character_stats`: the narrator reads the character sheet.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};

/// Arguments of `get_character_stats` (none).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct GetCharacterStats {}

impl GameTool for GetCharacterStats {
    const NAME: &'static str = "get_character_stats";
    const DESCRIPTION: &'static str = "Read the character sheet.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::ReadSheet)
    }
}
