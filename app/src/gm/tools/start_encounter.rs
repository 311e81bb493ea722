//! `start_encounter`: a fight begins. The model names the foes; the rules know their figures
//! (the SRD bestiary, or a challenge rating for a creature it lacks), roll initiative and, from
//! then on, every attack and its damage.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, FoeProblem, GameTool, ToolCommand};
use crate::game::bestiary::{ChallengeRating, CreatureName};
use crate::game::combat::MAX_FOES;
use crate::game::fight::FoeSpec;

/// Arguments of `start_encounter`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct StartEncounter {
    /// A name per foe, e.g. Goblin, Goblin; not in the SRD: Bog hag (CR 2).
    pub foes: Vec<String>,
}

impl GameTool for StartEncounter {
    const NAME: &'static str = "start_encounter";
    const DESCRIPTION: &'static str = "Any foe's attack, even one ambush blow: a fight. The \
        game rolls every attack, its damage and the foes' turns.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.foes.is_empty() || self.foes.len() > MAX_FOES {
            return Err(ArgumentError::PerCall {
                what: "foes",
                min: 1,
                max: MAX_FOES,
                given: self.foes.len(),
            });
        }
        let foes = self
            .foes
            .iter()
            .map(|foe| foe_spec(foe))
            .collect::<Result<Vec<_>, _>>()?;
        for foe in &foes {
            foe.creature()?;
        }
        Ok(ToolCommand::StartEncounter(foes))
    }
}

/// `Goblin`, or `Bog hag (CR 2)`.
pub fn foe_spec(text: &str) -> Result<FoeSpec, ArgumentError> {
    let text = text.trim();
    let (name, challenge) = match text.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((name, rating)) => {
            let rating = rating.trim();
            let rating = rating
                .strip_prefix("CR")
                .or_else(|| rating.strip_prefix("cr"))
                .unwrap_or(rating);
            let challenge: ChallengeRating =
                rating.trim().parse().map_err(|error| foe_error(text, error))?;
            (name.trim(), Some(challenge))
        }
        None => (text, None),
    };
    let name = CreatureName::new(name).map_err(|error| foe_error(text, error))?;
    Ok(FoeSpec { name, challenge })
}

/// The foe named `text` refused for `problem`.
fn foe_error(text: &str, problem: impl Into<FoeProblem>) -> ArgumentError {
    ArgumentError::Foe {
        text: text.to_owned(),
        problem: problem.into(),
    }
}
