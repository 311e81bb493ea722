//! `hazard`: a trap, a fall, fire, poison — harm no foe's attack deals. The model names it and
//! how bad it is; the rules roll its damage for the character's level and the save the scene
//! gives (see [`hazard`](crate::game::hazard)).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::hazard::HazardSeverity;
use crate::game::text::DiceReason;
use crate::game::Attribute;

/// Arguments of `hazard`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HazardCall {
    /// E.g. Falling rocks.
    pub what: DiceReason,
    /// For a hero of this level.
    pub severity: HazardSeverity,
    /// The save that halves it.
    #[serde(default)]
    pub save: Option<Attribute>,
}

impl GameTool for HazardCall {
    const NAME: &'static str = "hazard";
    const DESCRIPTION: &'static str =
        "A trap, fall, fire or poison: the game rolls its damage and save.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Hazard {
            what: self.what.as_str().to_owned(),
            severity: self.severity,
            save: self.save,
        })
    }
}
