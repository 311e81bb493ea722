//! `roll_dice`: the narrator rolls for the story (a trap, a random event). Attacks and their
//! damage are not its to roll: a fight's every number is the rules' (`start_encounter`).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::text::DiceReason;
use crate::game::DiceExpr;

/// Arguments of `roll_dice`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct RollDice {
    /// E.g. 1d20+3, 2d6, 1d100.
    pub dice: String,
    /// What for.
    pub reason: DiceReason,
    /// On a single d20.
    #[serde(default, deserialize_with = "advantage")]
    pub advantage: Option<Advantage>,
}

/// Advantage or disadvantage on a d20 roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Advantage {
    /// Two d20s, keep the higher.
    Advantage,
    /// Two d20s, keep the lower.
    Disadvantage,
}

/// Reads `"adv"`, `"Advantage"`, `true` (advantage), `"dis"`, `"disadvantage"`; `"none"`,
/// `false`, blank and null mean a normal roll.
fn advantage<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Advantage>, D::Error> {
    use serde::de::Error;
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    let word = match value {
        None | Some(serde_json::Value::Null) | Some(serde_json::Value::Bool(false)) => {
            return Ok(None)
        }
        Some(serde_json::Value::Bool(true)) => return Ok(Some(Advantage::Advantage)),
        Some(serde_json::Value::String(word)) => word.trim().to_lowercase(),
        Some(other) => {
            return Err(D::Error::custom(format!(
                "advantage must be \"advantage\", \"disadvantage\" or null, not {other}"
            )))
        }
    };
    match word.as_str() {
        "" | "none" | "normal" | "no" => Ok(None),
        "adv" | "advantage" | "yes" => Ok(Some(Advantage::Advantage)),
        "dis" | "disadv" | "disadvantage" => Ok(Some(Advantage::Disadvantage)),
        _ => Err(D::Error::custom(format!(
            "advantage must be \"advantage\", \"disadvantage\" or null, not \"{word}\""
        ))),
    }
}

impl GameTool for RollDice {
    const NAME: &'static str = "roll_dice";
    const DESCRIPTION: &'static str = "Dice for a random event (never the player's action, \
        a foe's attack or a hazard).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if is_an_attack(self.reason.as_str()) {
            return Err(ArgumentError::TheRules(ATTACKS_ARE_THE_RULES));
        }
        let dice = DiceExpr::parse(&self.dice)?;
        let dice = match self.advantage {
            None => dice,
            Some(advantage) => with_advantage(&dice, advantage)?,
        };
        Ok(ToolCommand::RollDice {
            dice,
            reason: self.reason.as_str().to_owned(),
        })
    }
}

/// Why an attack or its damage is not rolled with `roll_dice`.
const ATTACKS_ARE_THE_RULES: &str = "attacks and their damage are the rules' to roll: call \
    start_encounter with the foes, and the rules roll every attack, its damage and the foes' turns";

/// Whether a roll's reason is an attack or its damage (`Goblin attack`, `Scimitar damage`).
fn is_an_attack(reason: &str) -> bool {
    reason
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| matches!(word, "attack" | "attacks" | "damage" | "hit" | "hits" | "strike"))
}

/// `1d20+m` rolled with advantage is `2d20kh1+m`; with disadvantage `2d20kl1+m`.
fn with_advantage(dice: &DiceExpr, advantage: Advantage) -> Result<DiceExpr, ArgumentError> {
    let single_d20 = matches!(dice.terms(), [term]
        if term.count() == 1 && term.sides() == 20 && term.keep().is_none() && !term.is_negative());
    if !single_d20 {
        return Err(ArgumentError::AdvantageNeedsD20(dice.to_string()));
    }
    let keep = match advantage {
        Advantage::Advantage => "kh1",
        Advantage::Disadvantage => "kl1",
    };
    let modifier = match dice.modifier() {
        0 => String::new(),
        m => format!("{m:+}"),
    };
    Ok(DiceExpr::parse(&format!("2d20{keep}{modifier}"))?)
}
