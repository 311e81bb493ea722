//! `speak_to_player`: the game master speaks to the player outside the fiction ("you have no
//! rope"); shown apart from the story and kept out of the narrative.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::text::AsideText;

/// Arguments of `speak_to_player`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SpeakToPlayer {
    /// E.g. You have no rope.
    pub message: AsideText,
}

impl GameTool for SpeakToPlayer {
    const NAME: &'static str = "speak_to_player";
    const DESCRIPTION: &'static str = "Tell the player something outside the story (a rule, \
        an item they lack); never put it in the narration.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Aside(self.message.as_str().to_owned()))
    }
}
