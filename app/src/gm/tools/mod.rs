//! The tools the narrator may call: the only way the story changes the game state.
//!
//! Each tool is one Rust type ([`GameTool`]) that gives its JSON schema (schemars), its parser
//! (serde, after [`lenient`] repairs guided by that schema) and its validator
//! ([`GameTool::into_command`]). The [`TOOLS`] registry lists them once; the definitions sent to
//! the model, the dispatch by name and the names in error messages all come from it. A call
//! becomes a typed [`ToolCommand`], which [`execute`] runs through the rules core (`run.rs`).
//! Whatever goes wrong — unknown tool, bad JSON, a rule refusing the change — is a typed error
//! ([`error`]) whose message goes back to the model as the tool result, and the sheet stays
//! untouched.

pub mod error;
pub mod lenient;
mod run;
pub mod whose;

pub use error::{ArgumentError, FoeProblem, RunError};
pub use run::{execute, fight_result, ToolTable};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::llm::{ToolCall, ToolDefinition};
use super::schema::{compact_tool_schema, strict_schema};
use crate::campaign::turn_event::ToolEffect;
use crate::game::fight::FoeSpec;
use crate::game::hazard::HazardSeverity;
use crate::game::map::PlaceRecord;
use crate::game::oracle::Likelihood;
use crate::game::outcome_table::OutcomeTable;
use crate::game::proficiency::Skill;
use crate::game::sanity_check::Severity;
use crate::game::spine::plan::StoryPlan;
use crate::game::{Attribute, DiceExpr, DifficultyClass, JournalChange, StateDelta};

/// Declares each tool's module, re-exports its arguments type and lists it in [`TOOLS`]. Adding
/// a tool is one line in the `registry!` call below plus the tool's own file.
macro_rules! registry {
    ($($module:ident::$tool:ident),+ $(,)?) => {
        $(
            mod $module;
            pub use $module::$tool;
        )+

        /// Every tool, in the fixed order the model is shown them (a stable prompt prefix).
        pub const TOOLS: &[RegisteredTool] = &[$(RegisteredTool::of::<$tool>()),+];
    };
}

registry! {
    roll_dice::RollDice,
    change_inventory::ChangeInventory,
    update_character::UpdateCharacter,
    keep_journal::KeepJournal,
    request_check::RequestCheck,
    sanity_check::SanityCheckCall,
    hazard::HazardCall,
    ask_oracle::AskOracle,
    roll_on_table::RollOnTable,
    award_experience::AwardExperience,
    rest::Rest,
    speak_to_player::SpeakToPlayer,
    record_place::RecordPlace,
    write_plan::WritePlan,
    end_chapter::EndChapter,
    start_encounter::StartEncounter,
    end_encounter::EndEncounter,
}

mod add_inventory;
mod get_character_stats;
mod update_inventory;
pub use add_inventory::AddInventory;
pub use get_character_stats::GetCharacterStats;
pub use update_inventory::UpdateInventory;

/// Tools no longer sent but still read: a model's old habit, a log or a recording may call
/// them. `change_inventory` took the place of the two inventory tools; `get_character_stats`
/// read the sheet every request already carries (the system message says it).
pub const FORMER_TOOLS: &[RegisteredTool] = &[
    RegisteredTool::of::<AddInventory>(),
    RegisteredTool::of::<UpdateInventory>(),
    RegisteredTool::of::<GetCharacterStats>(),
];

pub use keep_journal::{EntryKind, JournalAction};
pub use roll_dice::Advantage;
pub use start_encounter::foe_spec;
pub use update_inventory::InventoryUpdate;

/// One tool: its name, what it is for, its arguments' type (which gives the schema) and how
/// valid arguments become a command.
pub trait GameTool: DeserializeOwned + JsonSchema {
    /// The name the model calls it by.
    const NAME: &'static str;
    /// When to call it (the model reads this).
    const DESCRIPTION: &'static str;

    /// Checks the parsed arguments against the rules and builds the command.
    fn into_command(self) -> Result<ToolCommand, ArgumentError>;

    /// The definition sent to the model, compact ([`compact_tool_schema`]; the arguments type's
    /// own doc comment is left out of the schema: the description says it, and every narration
    /// call carries these bytes).
    fn definition() -> ToolDefinition {
        let mut parameters = strict_schema::<Self>();
        compact_tool_schema(&mut parameters);
        if let Some(schema) = parameters.as_object_mut() {
            schema.remove("description");
        }
        ToolDefinition {
            name: Self::NAME.to_owned(),
            description: Self::DESCRIPTION.to_owned(),
            parameters,
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
    /// Note or close a journal entry.
    Journal(JournalChange),
    /// The player's check: their d20 with the attribute's modifier against the DC.
    Check {
        /// The attribute.
        attribute: Attribute,
        /// The skill, whose proficiency counts, if one is named.
        skill: Option<Skill>,
        /// The difficulty class.
        dc: DifficultyClass,
        /// What for.
        reason: String,
    },
    /// A sanity save against horror of this severity.
    Sanity {
        /// How dreadful.
        severity: Severity,
        /// What the character faces.
        reason: String,
    },
    /// A trap, a fall, fire or poison: its damage and save rolled by the rules.
    Hazard {
        /// What it is.
        what: String,
        /// How bad it is for a hero of the character's level.
        severity: HazardSeverity,
        /// The attribute of the save the scene gives, if any.
        save: Option<Attribute>,
    },
    /// A yes/no question about the world.
    Oracle {
        /// The question.
        question: String,
        /// How likely a yes is.
        likelihood: Likelihood,
    },
    /// An uncertain event's outcomes on one die, checked to cover it once.
    Table(OutcomeTable),
    /// Words for the player outside the story.
    Aside(String),
    /// A place reached and where it leads, for the map.
    Map(PlaceRecord),
    /// The story's hidden plan, written once at the opening.
    Plan(StoryPlan),
    /// The chapter under way ends, its goal met.
    EndChapter,
    /// A fight begins against these foes.
    StartEncounter(Vec<FoeSpec>),
    /// The fight under way stops.
    EndEncounter,
}

impl ToolCommand {
    /// Whether it changes hit points (damage or healing) directly.
    fn changes_hit_points(&self) -> bool {
        match self {
            ToolCommand::Change(deltas) => deltas.iter().any(|delta| {
                matches!(
                    delta,
                    StateDelta::SetHp { .. }
                        | StateDelta::ChangeHp { .. }
                        | StateDelta::Rest { .. }
                )
            }),
            ToolCommand::Hazard { .. } => true,
            _ => false,
        }
    }

    /// What its dice are, for the turn's dice ([`TurnDice`](super::turn::turn_dice::TurnDice)): a
    /// retelling's call of the same kind rolls the same faces. Every command names its kind
    /// (those that roll nothing too), so a new one cannot forget to.
    pub fn dice_kind(&self) -> String {
        match self {
            ToolCommand::RollDice { dice, .. } => format!("roll {dice}"),
            ToolCommand::Check {
                attribute, skill, ..
            } => match skill {
                Some(skill) => format!("check {attribute} {}", skill.name()),
                None => format!("check {attribute}"),
            },
            ToolCommand::Sanity { .. } => "sanity".to_owned(),
            ToolCommand::Hazard { .. } => "hazard".to_owned(),
            ToolCommand::Oracle { .. } => "oracle".to_owned(),
            ToolCommand::Table(table) => format!("table {}", table.die()),
            ToolCommand::StartEncounter(_) | ToolCommand::EndEncounter => "fight".to_owned(),
            ToolCommand::Change(deltas)
                if deltas.iter().any(|d| matches!(d, StateDelta::Rest { .. })) =>
            {
                "rest".to_owned()
            }
            ToolCommand::Change(_)
            | ToolCommand::ReadSheet
            | ToolCommand::Journal(_)
            | ToolCommand::Aside(_)
            | ToolCommand::Map(_)
            | ToolCommand::Plan(_)
            | ToolCommand::EndChapter => "no dice".to_owned(),
        }
    }

    /// Whether running it decides how something turns out (dice, damage or healing): prose the
    /// model wrote before its result would pre-empt that result.
    pub fn decides_an_outcome(&self) -> bool {
        match self {
            ToolCommand::RollDice { .. }
            | ToolCommand::Check { .. }
            | ToolCommand::Sanity { .. }
            | ToolCommand::Hazard { .. }
            | ToolCommand::Oracle { .. }
            | ToolCommand::Table(_)
            | ToolCommand::StartEncounter(_)
            | ToolCommand::EndEncounter => true,
            ToolCommand::Change(_) => self.changes_hit_points(),
            ToolCommand::ReadSheet
            | ToolCommand::Journal(_)
            | ToolCommand::Aside(_)
            | ToolCommand::Map(_)
            | ToolCommand::Plan(_)
            | ToolCommand::EndChapter => false,
        }
    }
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

/// A tool in the registry, usable without knowing its type.
#[derive(Clone, Copy, Debug)]
pub struct RegisteredTool {
    /// The name the model calls it by.
    pub name: &'static str,
    definition: fn() -> ToolDefinition,
    command: fn(serde_json::Value) -> Result<ToolCommand, ArgumentError>,
}

impl RegisteredTool {
    /// The registry entry of `T`.
    const fn of<T: GameTool>() -> Self {
        Self {
            name: T::NAME,
            definition: T::definition,
            command: command::<T>,
        }
    }

    /// The definition sent to the model.
    pub fn definition(&self) -> ToolDefinition {
        (self.definition)()
    }

    /// Reads raw arguments (leniently, as the tool's cached schema allows), then parses and
    /// validates them into a command.
    pub fn parse(&self, raw_arguments: &str) -> Result<ToolCommand, ArgumentError> {
        let schema = cached_definitions()
            .iter()
            .find(|definition| definition.name == self.name)
            .map(|definition| &definition.parameters);
        let arguments = match schema {
            Some(schema) => lenient::parse_arguments(raw_arguments, schema),
            None => lenient::parse_arguments(raw_arguments, &self.definition().parameters),
        }
        .map_err(|error| ArgumentError::NotJson(error.to_string()))?;
        (self.command)(arguments)
    }
}

fn command<T: GameTool>(arguments: serde_json::Value) -> Result<ToolCommand, ArgumentError> {
    let parsed: T = serde_json::from_value(arguments)
        .map_err(|error| ArgumentError::Invalid(error.to_string()))?;
    parsed.into_command()
}

/// The definitions of every tool, in the registry's order, generated once per process (every
/// request of every turn sends the same ones, and every call's arguments are read by them).
fn cached_definitions() -> &'static [ToolDefinition] {
    static DEFINITIONS: std::sync::LazyLock<Vec<ToolDefinition>> =
        std::sync::LazyLock::new(|| TOOLS.iter().map(RegisteredTool::definition).collect());
    &DEFINITIONS
}

/// The definitions of every tool, in the registry's order.
pub fn definitions() -> Vec<ToolDefinition> {
    cached_definitions().to_vec()
}

/// The registered tool called `name` (a former one too: [`FORMER_TOOLS`]).
pub fn find(name: &str) -> Option<&'static RegisteredTool> {
    TOOLS
        .iter()
        .chain(FORMER_TOOLS)
        .find(|tool| tool.name == name)
}

/// Parses and validates a call into a command.
pub fn parse_call(call: &ToolCall) -> Result<ToolCommand, ToolRejection> {
    let parsed = match find(&call.name) {
        Some(tool) => tool.parse(&call.arguments),
        None => Err(ArgumentError::UnknownTool {
            name: call.name.clone(),
            known: tool_names(),
        }),
    };
    parsed.map_err(|error| ToolRejection {
        tool: call.name.clone(),
        reason: error.to_string(),
    })
}

/// The registered names as a sentence: "a, b and c".
fn tool_names() -> String {
    let names: Vec<&str> = TOOLS.iter().map(|tool| tool.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

#[cfg(test)]
mod tests;
