//! `ask_oracle`: a yes/no question about the world, answered by the server's d100 against the
//! likelihood (see [`crate::game::oracle`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::oracle::Likelihood;
use crate::game::text::OracleQuestion;

/// Arguments of `ask_oracle`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct AskOracle {
    /// E.g. Is the door locked?
    pub question: OracleQuestion,
    /// How likely a yes is.
    pub likelihood: Likelihood,
}

impl GameTool for AskOracle {
    const NAME: &'static str = "ask_oracle";
    const DESCRIPTION: &'static str = "A yes/no fact the story has not settled: follow the \
        answer (yes, no, yes and, no but).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        Ok(ToolCommand::Oracle {
            question: self.question.as_str().to_owned(),
            likelihood: self.likelihood,
        })
    }
}
