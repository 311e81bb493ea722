//! `rest`: the character rests; the rules say what it restores.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::{RestKind, StateDelta};

/// Arguments of `rest`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct Rest {
    /// short: an hour, a hit die of HP back; long: a night, all HP back.
    pub kind: RestKind,
}

impl GameTool for Rest {
    const NAME: &'static str = "rest";
    const DESCRIPTION: &'static str = "The character rests somewhere safe enough.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Change(vec![StateDelta::Rest {
            kind: self.kind,
        }]))
    }
}
