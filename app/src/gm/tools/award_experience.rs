//! `award_experience`: the narrator grants experience for what the character achieved; the
//! rules decide whether it brings a level (at most one at a time) and what the level brings.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::progression::MAX_AWARD;
use crate::game::text::DiceReason;
use crate::game::StateDelta;

/// Arguments of `award_experience`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct AwardExperience {
    /// 1 to 10000 (a small fight 50-300, a quest's end 500-2000).
    pub amount: i64,
    /// What for.
    pub reason: DiceReason,
}

impl GameTool for AwardExperience {
    const NAME: &'static str = "award_experience";
    const DESCRIPTION: &'static str = "A challenge overcome or a milestone reached; the game \
        grants levels.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        let amount = u32::try_from(self.amount)
            .ok()
            .filter(|amount| (1..=MAX_AWARD).contains(amount))
            .ok_or(ArgumentError::OutOfRange {
                field: "amount",
                min: 1,
                max: i64::from(MAX_AWARD),
                given: self.amount,
            })?;
        Ok(ToolCommand::Change(vec![StateDelta::GainExperience {
            amount,
        }]))
    }
}
