//! `sanity_check`: the character meets horror; the rules roll their Wisdom save against the
//! horror's severity and, on a failure, the sanity it costs (see
//! [`sanity_check`](crate::game::sanity_check)). Offered only in games that track sanity.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::sanity_check::Severity;
use crate::game::text::DiceReason;

/// Arguments of `sanity_check`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SanityCheckCall {
    /// How dreadful the horror is.
    pub severity: Severity,
    /// What they face.
    pub reason: DiceReason,
}

impl GameTool for SanityCheckCall {
    const NAME: &'static str = "sanity_check";
    const DESCRIPTION: &'static str = "Horror met: the game rolls the sanity save and loss.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Sanity {
            severity: self.severity,
            reason: self.reason.as_str().to_owned(),
        })
    }
}
