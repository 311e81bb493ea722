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
    /// The attribute the check uses: STR, DEX, CON, INT, WIS or CHA.
    pub attribute: Attribute,
    /// The skill it uses, if one fits, e.g. "Athletics" (the character's proficiency counts).
    #[serde(default)]
    pub skill: Option<Skill>,
    /// How hard: 5 easy, 10 moderate, 15 hard, 20 very hard.
    #[serde(alias = "dc", alias = "difficulty_class")]
    pub difficulty_class: DifficultyClass,
    /// What the check is for, e.g. "Climb the wet wall".
    pub reason: DiceReason,
}

impl GameTool for RequestCheck {
    const NAME: &'static str = "request_check";
    const DESCRIPTION: &'static str = "When what the player wrote is risky or uncertain, ask \
        for their check (d20 + modifier against the DC); narrate what follows from it.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Check {
            attribute: self.attribute,
            skill: self.skill,
            dc: self.difficulty_class,
            reason: self.reason.as_str().to_owned(),
        })
    }
}
