//! `request_check`: the player's own words call for a check; the server rolls the player's d20
//! with the sheet's modifier against the difficulty class, and the narration follows the result.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::proficiency::Skill;
use crate::game::text::DiceReason;
use crate::game::{Attribute, DifficultyClass};

/// Arguments of `request_check`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestCheck {
    /// The attribute.
    pub attribute: Attribute,
    /// E.g. Athletics.
    // Described as a plain string: the eighteen names would cost every call ~90 tokens, and a
    // wrong one is refused with the list.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub skill: Option<Skill>,
    /// 5 easy, 10 moderate, 15 hard, 20 very hard.
    #[serde(alias = "dc", alias = "difficulty_class")]
    pub difficulty_class: DifficultyClass,
    /// What for.
    pub reason: DiceReason,
}

impl GameTool for RequestCheck {
    const NAME: &'static str = "request_check";
    const DESCRIPTION: &'static str =
        "The player's own words try something risky or uncertain: roll their check.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Check {
            attribute: self.attribute,
            skill: self.skill,
            dc: self.difficulty_class,
            reason: self.reason.as_str().to_owned(),
        })
    }
}
