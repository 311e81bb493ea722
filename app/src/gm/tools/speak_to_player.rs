//! `speak_to_player`: the game master speaks to the player outside the fiction ("you have no
//! rope"); shown apart from the story and kept out of the narrative.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::text::AsideText;

/// Arguments of `speak_to_player`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SpeakToPlayer {
    /// What to tell the player, e.g. "You have no rope; the rope was left at the camp.".
    pub message: AsideText,
}

impl GameTool for SpeakToPlayer {
    const NAME: &'static str = "speak_to_player";
    const DESCRIPTION: &'static str = "Tell the player something outside the story: a rule, \
        why a move cannot happen (they lack the item), a reminder. Not for narration.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Aside(self.message.as_str().to_owned()))
    }
}
