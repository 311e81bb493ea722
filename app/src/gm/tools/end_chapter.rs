//! `end_chapter`: the narrator ends the chapter under way once the hero has done what it asks;
//! the rules check its goal (the place reached, the person met, the item carried) and refuse it
//! otherwise (see [`crate::game::spine`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};

/// Arguments of `end_chapter` (none: it is always the chapter under way).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct EndChapter {}

impl GameTool for EndChapter {
    const NAME: &'static str = "end_chapter";
    const DESCRIPTION: &'static str = "The chapter under way's goal is met in the story.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::EndChapter)
    }
}
