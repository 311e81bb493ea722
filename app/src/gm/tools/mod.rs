//! The tools the narrator may call: the only way the story changes the game state.
//!
//! Each tool is one Rust type ([`GameTool`]) that gives its JSON schema (schemars), its parser
//! (serde, after [`lenient`] repairs) and its validator ([`GameTool::into_command`]). A call
//! becomes a typed [`ToolCommand`], which [`execute`] runs through the rules core. Whatever goes
//! wrong — unknown tool, bad JSON, a rule refusing the change — becomes a [`ToolRejection`]
//! whose message goes back to the model as the tool result, and the sheet stays untouched.

mod add_inventory;
mod get_character_stats;
pub mod lenient;
mod roll_dice;
mod update_character;
mod update_inventory;

use rand::Rng;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

pub use add_inventory::AddInventory;
pub use get_character_stats::GetCharacterStats;
pub use roll_dice::{Advantage, RollDice};
pub use update_character::UpdateCharacter;
pub use update_inventory::{InventoryUpdate, UpdateInventory};

use super::llm::{ToolCall, ToolDefinition};
use super::schema::strict_schema;
use super::sheet_text::describe_sheet;
use crate::campaign::turn_event::ToolEffect;
use crate::game::{CharacterSheet, DiceExpr, StateDelta};

/// One tool: its name, what it is for, its arguments' type (which gives the schema) and how
/// valid arguments become a command.
pub trait GameTool: DeserializeOwned + JsonSchema {
    /// The name the model calls it by.
    const NAME: &'static str;
    /// When to call it (the model reads this).
    const DESCRIPTION: &'static str;

    /// Checks the parsed arguments against the rules and builds the command.
    fn into_command(self) -> Result<ToolCommand, String>;

    /// The definition sent to the model.
    fn definition() -> ToolDefinition {
        ToolDefinition {
            name: Self::NAME.to_owned(),
            description: Self::DESCRIPTION.to_owned(),
            parameters: strict_schema::<Self>(),
        }
    }
}

/// A validated tool call, ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolCommand {
    /// Roll dice for the story (an NPC's attack, damage, a random event).
    RollDice {
        /// The dice.
        dice: DiceExpr,
        /// What for.
        reason: String,
    },
    /// Change the character sheet (all or nothing).
    Change(Vec<StateDelta>),
    /// Read the character sheet.
    ReadSheet,
}

/// Why a tool call was refused; the message is the tool result the model reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{tool} refused: {reason}")]
pub struct ToolRejection {
    /// The tool's name as the model called it.
    pub tool: String,
    /// What was wrong, in words the model can act on.
    pub reason: String,
}

/// A tool call carried out: its result text for the model and its effect for the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutcome {
    /// The tool result the model reads.
    pub result: String,
    /// What happened.
    pub effect: ToolEffect,
}

/// The definitions of every tool, in a fixed order (a stable prompt prefix).
pub fn definitions() -> Vec<ToolDefinition> {
    vec![
        RollDice::definition(),
        AddInventory::definition(),
        UpdateInventory::definition(),
        UpdateCharacter::definition(),
        GetCharacterStats::definition(),
    ]
}

/// Parses and validates a call into a command.
pub fn parse_call(call: &ToolCall) -> Result<ToolCommand, ToolRejection> {
    let reject = |reason: String| ToolRejection {
        tool: call.name.clone(),
        reason,
    };
    let arguments = lenient::parse_arguments(&call.arguments).map_err(reject)?;
    match call.name.as_str() {
        RollDice::NAME => command::<RollDice>(arguments),
        AddInventory::NAME => command::<AddInventory>(arguments),
        UpdateInventory::NAME => command::<UpdateInventory>(arguments),
        UpdateCharacter::NAME => command::<UpdateCharacter>(arguments),
        GetCharacterStats::NAME => command::<GetCharacterStats>(arguments),
        other => Err(format!(
            "there is no tool named \"{other}\"; the tools are roll_dice, add_inventory, \
             update_inventory, update_character and get_character_stats"
        )),
    }
    .map_err(reject)
}

fn command<T: GameTool>(arguments: serde_json::Value) -> Result<ToolCommand, String> {
    let parsed: T =
        serde_json::from_value(arguments).map_err(|error| format!("invalid arguments: {error}"))?;
    parsed.into_command()
}

/// Runs a command against the sheet with the server's dice. A refused change leaves the sheet
/// as it was.
pub fn execute<R: Rng + ?Sized>(
    command: ToolCommand,
    sheet: &mut CharacterSheet,
    rng: &mut R,
) -> Result<ToolOutcome, String> {
    match command {
        ToolCommand::RollDice { dice, reason } => {
            let roll = dice.roll(rng);
            Ok(ToolOutcome {
                result: roll.describe(&reason),
                effect: ToolEffect::Rolled { reason, roll },
            })
        }
        ToolCommand::Change(deltas) => {
            let changes =
                StateDelta::apply_all(&deltas, sheet).map_err(|error| error.to_string())?;
            let labels = changes.labels();
            let result = if labels.is_empty() {
                "Done; nothing changed.".to_owned()
            } else {
                format!("Done: {}.", labels.join(", "))
            };
            Ok(ToolOutcome {
                result,
                effect: ToolEffect::Changed { deltas, changes },
            })
        }
        ToolCommand::ReadSheet => Ok(ToolOutcome {
            result: describe_sheet(sheet),
            effect: ToolEffect::Read,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Attribute;
    use serde_json::json;

    fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
        ToolCall {
            id: "c1".into(),
            name: name.into(),
            arguments: arguments.to_string(),
        }
    }

    #[test]
    fn arguments_are_coerced_where_the_meaning_is_clear() {
        let command = parse_call(&call(
            "update_character",
            json!({"hpChange": "-5", "stats": {"wisdom": "15"}}),
        ))
        .unwrap();
        assert_eq!(
            command,
            ToolCommand::Change(vec![
                StateDelta::ChangeHp { amount: -5 },
                StateDelta::SetAttribute {
                    attribute: Attribute::Wisdom,
                    score: 15
                },
            ])
        );
    }

    #[test]
    fn advantage_is_read_leniently_and_becomes_keep_highest() {
        let command = parse_call(&call(
            "roll_dice",
            json!({"dice": "1d20+2", "reason": "Ogre smash", "advantage": "adv"}),
        ))
        .unwrap();
        let ToolCommand::RollDice { dice, .. } = command else {
            panic!("a roll")
        };
        assert_eq!(dice.to_string(), "2d20kh1+2");
        let refused = parse_call(&call(
            "roll_dice",
            json!({"dice": "2d6", "reason": "Fire", "advantage": "dis"}),
        ))
        .unwrap_err();
        assert!(refused.reason.contains("single d20"), "{refused}");
    }

    #[test]
    fn still_invalid_arguments_are_refused_with_a_reason() {
        let both =
            parse_call(&call("update_character", json!({"hp": 3, "hpChange": -1}))).unwrap_err();
        assert_eq!(both.reason, "give either hp or hpChange, not both");
        let nothing = parse_call(&call("update_character", json!({}))).unwrap_err();
        assert!(nothing.reason.starts_with("nothing to update"));
        let stats =
            parse_call(&call("update_character", json!({"stats": {"luck": 3}}))).unwrap_err();
        assert!(stats.reason.contains("luck"), "{}", stats.reason);
    }

    #[test]
    fn every_tool_has_an_object_schema_and_a_unique_name() {
        let definitions = definitions();
        let mut names: Vec<_> = definitions.iter().map(|d| d.name.clone()).collect();
        names.dedup();
        assert_eq!(names.len(), 5);
        for definition in definitions {
            assert_eq!(
                definition.parameters["type"],
                json!("object"),
                "{}",
                definition.name
            );
        }
    }
}
