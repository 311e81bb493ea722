//! `roll_on_table`: an uncertain event with several outcomes, each on a range of one die; the
//! rules check that the ranges cover the die exactly once, the player sees the table, then the
//! server rolls (see [`crate::game::outcome_table`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::outcome_table::{Outcome, OutcomeTable, TableDie};
use crate::game::text::TableName;

/// Arguments of `roll_on_table`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct RollOnTable {
    /// What it decides, e.g. Who answers?
    pub name: TableName,
    /// d6, d20 or d100.
    // A plain string in the schema: the variants' descriptions would cost every call tokens,
    // and a wrong die is refused with the three names.
    #[schemars(with = "String")]
    pub die: TableDie,
    /// 2 to 10, from..to faces covering the die exactly once.
    pub outcomes: Vec<Outcome>,
}

impl GameTool for RollOnTable {
    const NAME: &'static str = "roll_on_table";
    const DESCRIPTION: &'static str = "An uncertain event with several outcomes (who answers, \
        what the chest holds): the game rolls; follow its outcome.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Table(OutcomeTable::new(
            self.name,
            self.die,
            self.outcomes,
        )?))
    }
}
