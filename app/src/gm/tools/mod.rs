//! The tools the narrator may call: the only way the story changes the game state.
//!
//! Each tool is one Rust type ([`GameTool`]) that gives its JSON schema (schemars), its parser
//! (serde, after [`lenient`] repairs guided by that schema) and its validator
//! ([`GameTool::into_command`]). The [`TOOLS`] registry lists them once; the definitions sent to
//! the model, the dispatch by name and the names in error messages all come from it. A call
//! becomes a typed [`ToolCommand`], which [`execute`] runs through the rules core. Whatever goes
//! wrong — unknown tool, bad JSON, a rule refusing the change — is a typed error ([`error`]) whose
//! message goes back to the model as the tool result, and the sheet stays untouched.

pub mod error;
pub mod lenient;

pub use error::{ArgumentError, FoeProblem, RunError};

use rand::Rng;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::llm::{ToolCall, ToolDefinition};
use super::prompt::sheet_text::describe_sheet;
use super::schema::strict_schema;
use crate::campaign::proposal::Proposed;
use crate::campaign::turn_event::ToolEffect;
use crate::game::combat::Combat;
use crate::game::fight::{FightRecord, FightStep, FoeSpec};
use crate::game::hazard::{HazardRoll, HazardSeverity};
use crate::game::map::{PlaceRecord, WorldMap};
use crate::game::oracle::{Likelihood, OracleReading};
use crate::game::outcome_table::{OutcomeTable, TableRoll};
use crate::game::proficiency::Skill;
use crate::game::sanity_check::{SanityCheck, Severity};
use crate::game::{
    Attribute, CharacterSheet, Check, DeltaError, DiceExpr, DifficultyClass, Journal,
    JournalChange, RestKind, StateDelta,
};

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
    add_inventory::AddInventory,
    update_inventory::UpdateInventory,
    update_character::UpdateCharacter,
    get_character_stats::GetCharacterStats,
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
    start_encounter::StartEncounter,
    end_encounter::EndEncounter,
}

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

    /// The definition sent to the model (the arguments type's own doc comment is left out of
    /// the schema: the description says it, and every request carries these bytes).
    fn definition() -> ToolDefinition {
        let mut parameters = strict_schema::<Self>();
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
            | ToolCommand::Map(_) => "no dice".to_owned(),
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
            | ToolCommand::Map(_) => false,
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

/// The registered tool called `name`.
pub fn find(name: &str) -> Option<&'static RegisteredTool> {
    TOOLS.iter().find(|tool| tool.name == name)
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

/// What the tools act on: the sheet, the journal, the map and the fight under way.
#[derive(Clone, Debug)]
pub struct ToolTable {
    /// The character sheet.
    pub sheet: CharacterSheet,
    /// The journal.
    pub journal: Journal,
    /// The map.
    pub map: WorldMap,
    /// The fight, if one is under way.
    pub combat: Combat,
    /// Whether changes wait for the player (approval mode) instead of being applied.
    pub approval: bool,
    /// How many proposals the campaign has made so far.
    pub proposals_made: u32,
    /// The totals of the narrator's rolls this turn not yet spent on hit points: a change of
    /// hit points must be backed by one of them (and is at most its total).
    pub unspent_rolls: Vec<u32>,
}

/// `deltas` with, after a short rest of a hero whose powers count, the hit dice the rules spend
/// for the game master (rolled with `rng`), one at a time while the hero is hurt and has any.
fn with_hit_dice<R: Rng + ?Sized>(
    mut deltas: Vec<StateDelta>,
    sheet: &CharacterSheet,
    rng: &mut R,
) -> Vec<StateDelta> {
    let short = StateDelta::Rest {
        kind: RestKind::Short,
    };
    if sheet.powers().is_none() || !deltas.contains(&short) {
        return deltas;
    }
    let mut after = sheet.clone();
    if StateDelta::apply_all(&deltas, &mut after).is_err() {
        return deltas;
    }
    let (die, bonus) = after.hit_die_roll();
    while after.hit_points().current() < after.hit_points().max() {
        let spend = StateDelta::SpendHitDie {
            roll: die.roll_with_bonus(bonus, rng),
        };
        if StateDelta::apply_all(std::slice::from_ref(&spend), &mut after).is_err() {
            break;
        }
        deltas.push(spend);
    }
    deltas
}

/// Runs a command against the table with the server's dice. A refused change leaves it as it
/// was.
pub fn execute<R: Rng + ?Sized>(
    command: ToolCommand,
    table: &mut ToolTable,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    if table.combat.is_running() && command.changes_hit_points() {
        return Err(RunError::InAFight);
    }
    if let ToolCommand::Change(deltas) = &command {
        spend_backing_rolls(deltas, table)?;
    }
    if table.approval {
        if let Some(proposed) = proposal(&command, table)? {
            table.proposals_made += 1;
            let labels = proposed.labels(&table.journal).join(", ");
            return Ok(ToolOutcome {
                result: format!(
                    "Proposed to the player: {labels}. It takes effect only if they accept; \
                     narrate it as what happens."
                ),
                effect: ToolEffect::Proposed {
                    id: table.proposals_made,
                    proposed,
                },
            });
        }
    }
    let ToolTable {
        sheet,
        journal,
        map,
        combat,
        ..
    } = table;
    match command {
        ToolCommand::StartEncounter(foes) => fight(FightStep::Start { foes }, combat, sheet, rng),
        ToolCommand::EndEncounter => fight(FightStep::Stop, combat, sheet, rng),
        ToolCommand::RollDice { dice, reason } => {
            let roll = dice.roll(rng);
            table
                .unspent_rolls
                .push(u32::try_from(roll.total()).unwrap_or(0));
            Ok(ToolOutcome {
                result: roll.describe(&reason),
                effect: ToolEffect::Rolled { reason, roll },
            })
        }
        ToolCommand::Change(deltas) => {
            let deltas = with_hit_dice(deltas, sheet, rng);
            let changes = StateDelta::apply_all(&deltas, sheet)?;
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
        ToolCommand::Journal(change) => {
            let label = journal.apply(&change)?;
            Ok(ToolOutcome {
                result: format!("Noted in the journal: {}.", label.unwrap_or_default()),
                effect: ToolEffect::Noted { change },
            })
        }
        ToolCommand::Check {
            attribute,
            skill,
            dc,
            reason,
        } => check(sheet, (attribute, skill), dc, reason, rng),
        ToolCommand::Sanity { severity, reason } => sanity(sheet, severity, reason, rng),
        ToolCommand::Hazard {
            what,
            severity,
            save,
        } => hazard(sheet, (what, severity, save), rng),
        ToolCommand::Oracle {
            question,
            likelihood,
        } => {
            let reading = OracleReading::ask(question, likelihood, rng);
            Ok(ToolOutcome {
                result: format!("{}. Follow this answer.", reading.describe()),
                effect: ToolEffect::Asked { reading },
            })
        }
        ToolCommand::Table(table) => {
            let roll = TableRoll::roll(table, rng);
            Ok(ToolOutcome {
                result: format!(
                    "{}. Follow this outcome; any change it brings goes through the tools.",
                    roll.describe()
                ),
                effect: ToolEffect::TableRolled { roll },
            })
        }
        ToolCommand::Map(record) => {
            map.record(&record)?;
            Ok(ToolOutcome {
                result: format!("Recorded on the map: {}.", record.place.as_str()),
                effect: ToolEffect::Mapped { record },
            })
        }
        ToolCommand::Aside(message) => Ok(ToolOutcome {
            result: "Shown to the player outside the story; do not repeat it in the narration."
                .to_owned(),
            effect: ToolEffect::Aside { message },
        }),
    }
}

/// In approval mode, the proposal a change would be instead of being applied, checked by the
/// rules against copies of what it would change (a change they refuse is refused as ever);
/// `None` for a command that is not a change to propose (rolls, reads, fights, asides).
fn proposal(command: &ToolCommand, table: &ToolTable) -> Result<Option<Proposed>, RunError> {
    Ok(Some(match command {
        ToolCommand::Change(deltas) => {
            let changes = StateDelta::apply_all(deltas, &mut table.sheet.clone())?;
            if changes.is_empty() {
                // Nothing to decide: it runs as ever and changes nothing.
                return Ok(None);
            }
            Proposed::Sheet {
                deltas: deltas.clone(),
                changes,
            }
        }
        ToolCommand::Journal(change) => {
            table.journal.clone().apply(change)?;
            Proposed::Journal {
                change: change.clone(),
            }
        }
        ToolCommand::Map(record) => {
            table.map.clone().record(record)?;
            Proposed::Map {
                record: record.clone(),
            }
        }
        _ => return Ok(None),
    }))
}

/// A sanity save, rolled by the rules with the loss a failure costs, applied to the sheet.
fn sanity<R: Rng + ?Sized>(
    sheet: &mut CharacterSheet,
    severity: Severity,
    reason: String,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    if sheet.sanity().is_none() {
        return Err(DeltaError::NoSanity.into());
    }
    if sheet.vitality() != crate::game::Vitality::Up {
        return Err(RunError::CannotAct {
            name: sheet.name().to_string(),
        });
    }
    let check = SanityCheck::roll(sheet, severity, rng);
    let changes = StateDelta::apply_all(&check.deltas(sheet), sheet)?;
    let mut result = format!("The player's {}", check.describe(&reason));
    let labels = changes.labels();
    if !labels.is_empty() {
        result.push_str(&format!(" ({})", labels.join(", ")));
    }
    result.push_str(". Narrate what follows from this result.");
    Ok(ToolOutcome {
        result,
        effect: ToolEffect::SanityChecked {
            reason,
            check,
            changes,
        },
    })
}

/// Checks that every change of hit points in `deltas` is backed by an unspent roll of this turn
/// whose total is at least its size, and spends those rolls; refused (nothing spent) otherwise.
fn spend_backing_rolls(deltas: &[StateDelta], table: &mut ToolTable) -> Result<(), RunError> {
    let mut unspent = table.unspent_rolls.clone();
    let mut hp = i32::from(table.sheet.hit_points().current());
    for delta in deltas {
        let amount = match delta {
            StateDelta::ChangeHp { amount } => *amount,
            StateDelta::SetHp { hp: set } => set - hp,
            _ => continue,
        };
        hp += amount;
        if amount == 0 {
            continue;
        }
        let backing = unspent
            .iter()
            .position(|total| *total >= amount.unsigned_abs())
            .ok_or(RunError::Unbacked { amount })?;
        unspent.remove(backing);
    }
    table.unspent_rolls = unspent;
    Ok(())
}

/// A hazard rolled by the rules for the sheet's level, its damage applied.
fn hazard<R: Rng + ?Sized>(
    sheet: &mut CharacterSheet,
    (what, severity, save): (String, HazardSeverity, Option<Attribute>),
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    let rolled = HazardRoll::roll(sheet, severity, save, rng);
    let changes = StateDelta::apply_all(&rolled.deltas(), sheet)?;
    let mut result = rolled.describe(&what);
    let labels = changes.labels();
    if !labels.is_empty() {
        result.push_str(&format!(" ({})", labels.join(", ")));
    }
    result.push_str(". Narrate exactly this harm.");
    Ok(ToolOutcome {
        result,
        effect: ToolEffect::Hazard {
            what,
            hazard: rolled,
            changes,
        },
    })
}

/// A fight's step played by the rules: the exchange for the model to narrate.
fn fight<R: Rng + ?Sized>(
    step: FightStep,
    combat: &mut Combat,
    sheet: &mut CharacterSheet,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    let (record, changes) =
        step.play_on(combat, sheet, &mut |sides| rng.random_range(1..=sides))?;
    Ok(ToolOutcome {
        result: fight_result(&record, combat),
        effect: ToolEffect::Fought { record, changes },
    })
}

/// What the model reads after a fight's step: the exchange, then the fight as it stands.
pub fn fight_result(record: &FightRecord, combat: &Combat) -> String {
    let mut out = format!("The rules resolved:\n{}", record.exchange.describe());
    match combat.current() {
        Some(encounter) => {
            out.push('\n');
            out.push_str(&encounter.describe());
            out.push_str(" Narrate exactly these results; the player acts next.");
        }
        None => out.push_str("\nThe fight is over. Narrate how it ends."),
    }
    out
}

/// The player's check, rolled by the server with the sheet's modifier, the proficiency bonus
/// in a skill of theirs, and the edge their conditions give.
fn check<R: Rng + ?Sized>(
    sheet: &CharacterSheet,
    (attribute, skill): (Attribute, Option<Skill>),
    dc: DifficultyClass,
    reason: String,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    if sheet.vitality() != crate::game::Vitality::Up {
        return Err(RunError::CannotAct {
            name: sheet.name().to_string(),
        });
    }
    let bonus = sheet.check_bonus(attribute, skill);
    let d20 = sheet
        .conditions()
        .roll_effects()
        .checks
        .apply(&DiceExpr::d20());
    let check = Check::new(d20.roll_with_bonus(bonus, rng), dc);
    Ok(ToolOutcome {
        result: format!(
            "The player's {}. Narrate what follows from this result.",
            check.describe(&reason)
        ),
        effect: ToolEffect::Checked { reason, check },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gm::schema::tests::assert_strict;
    use serde_json::json;

    /// The tools' table for the rogue of the creation rules, no fight under way.
    fn rogue_table() -> ToolTable {
        ToolTable {
            sheet: crate::game::creation::tests_support::rogue(),
            journal: Journal::default(),
            map: WorldMap::default(),
            combat: Combat::default(),
            approval: false,
            proposals_made: 0,
            unspent_rolls: Vec::new(),
        }
    }

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
            json!({"hpChange": "-5", "minutesPassed": "10"}),
        ))
        .unwrap();
        assert_eq!(
            command,
            ToolCommand::Change(vec![
                StateDelta::AdvanceTime { minutes: 10 },
                StateDelta::ChangeHp { amount: -5 },
            ])
        );
    }

    #[test]
    fn level_max_hp_and_scores_are_the_rules_to_set() {
        // Measured before: one call could set level 20 and 999 maximum HP at once.
        for arguments in [
            json!({"level": 20, "maxHp": 999}),
            json!({"stats": {"wisdom": 18}}),
            json!({"hpChange": 5, "level": 2}),
        ] {
            let refused = parse_call(&call("update_character", arguments)).unwrap_err();
            assert!(
                refused.reason.contains("award_experience"),
                "{}",
                refused.reason
            );
        }
        let award = parse_call(&call(
            "award_experience",
            json!({"amount": "300", "reason": "Drove off the wolves"}),
        ))
        .unwrap();
        assert_eq!(
            award,
            ToolCommand::Change(vec![StateDelta::GainExperience { amount: 300 }])
        );
        let too_much = parse_call(&call(
            "award_experience",
            json!({"amount": 1_000_000, "reason": "Everything"}),
        ))
        .unwrap_err();
        assert_eq!(too_much.reason, "amount must be 1 to 10000, not 1000000");
    }

    #[test]
    fn a_poisoned_heros_check_is_two_d20s_the_lower_kept() {
        use crate::campaign::turn_event::ToolEffect;
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut table = rogue_table();
        let mut run = |name: &str, arguments: serde_json::Value, table: &mut ToolTable| {
            let command = parse_call(&call(name, arguments)).unwrap();
            execute(command, table, &mut rng)
        };
        // Poisoned by the rules' update.
        run(
            "update_character",
            json!({"addConditions": [{"name": "poisoned", "duration": "1 hour"}]}),
            &mut table,
        )
        .unwrap();
        let poisoned = run(
            "request_check",
            json!({"attribute": "DEX", "dc": 12, "reason": "Climb the wall"}),
            &mut table,
        )
        .unwrap();
        let ToolEffect::Checked { check, .. } = poisoned.effect else {
            panic!("a check: {poisoned:?}")
        };
        assert_eq!(check.roll().notation(), "2d20kl1+2");
        let faces: Vec<u16> = check.roll().terms()[0]
            .dice()
            .iter()
            .map(|die| die.value())
            .collect();
        assert_eq!(check.roll().total(), i32::from(faces[0].min(faces[1])) + 2);
    }

    #[test]
    fn checks_oracle_and_asides_run_through_the_rules() {
        use crate::campaign::turn_event::ToolEffect;
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut table = rogue_table();
        let mut run = |name: &str, arguments: serde_json::Value, table: &mut ToolTable| {
            let command = parse_call(&call(name, arguments)).unwrap();
            execute(command, table, &mut rng)
        };
        let checked = run(
            "request_check",
            json!({"attribute": "dex", "dc": 12, "reason": "Climb the wall"}),
            &mut table,
        )
        .unwrap();
        let ToolEffect::Checked { check, .. } = checked.effect else {
            panic!("a check: {checked:?}")
        };
        let die = check.roll().natural_d20().expect("one d20");
        // The rogue's DEX 15 gives +2.
        assert_eq!(check.roll().total(), i32::from(die) + 2);
        assert_eq!(check.is_success(), i32::from(die) + 2 >= 12);
        assert!(checked
            .result
            .starts_with("The player's Rolled 1d20+2 for Climb the wall (DEX +2)"));

        let asked = run(
            "ask_oracle",
            json!({"question": "Is the door locked?", "likelihood": "likely"}),
            &mut table,
        )
        .unwrap();
        let ToolEffect::Asked { reading } = asked.effect else {
            panic!("a reading")
        };
        assert_eq!(reading.answer.is_yes(), reading.roll.value() <= 75);
        let aside = run(
            "speak_to_player",
            json!({"message": "You have no rope."}),
            &mut table,
        )
        .unwrap();
        assert_eq!(
            aside.effect,
            ToolEffect::Aside {
                message: "You have no rope.".into()
            }
        );
        let bad = parse_call(&call(
            "ask_oracle",
            json!({"question": "Is it?", "likelihood": "certain"}),
        ))
        .unwrap_err();
        assert!(
            bad.reason.contains("likelihood") || bad.reason.contains("unknown variant"),
            "{}",
            bad.reason
        );

        StateDelta::SetHp { hp: 0 }.apply(&mut table.sheet).unwrap();
        let down = run(
            "request_check",
            json!({"attribute": "STR", "difficultyClass": 10, "reason": "Stand"}),
            &mut table,
        )
        .unwrap_err();
        assert!(matches!(down, RunError::CannotAct { .. }), "{down}");
        assert!(down.to_string().contains("cannot act"), "{down}");
    }

    #[test]
    fn places_are_recorded_on_the_map_by_the_rules() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut table = rogue_table();
        let mut run = |arguments: serde_json::Value, table: &mut ToolTable| {
            let command = parse_call(&call("record_place", arguments)).map_err(|r| r.reason)?;
            execute(command, table, &mut rng).map_err(|error| error.to_string())
        };
        let done = run(
            json!({"place": "The square", "connectsTo": ["The bell tower"]}),
            &mut table,
        )
        .unwrap();
        assert_eq!(done.result, "Recorded on the map: The square.");
        assert_eq!(table.map.places().len(), 2);
        let refused = run(
            json!({"place": "The square", "connectsTo": ["the square"]}),
            &mut table,
        )
        .unwrap_err();
        assert!(refused.contains("cannot lead to itself"), "{refused}");
        let too_many = run(
            json!({"place": "Hub", "connectsTo": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}),
            &mut table,
        )
        .unwrap_err();
        assert_eq!(too_many, "give 0 to 8 places it leads to per call, not 9");
        assert_eq!(table.map.places().len(), 2, "refusals change nothing");
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
        let minutes =
            parse_call(&call("update_character", json!({"minutesPassed": 100_000}))).unwrap_err();
        assert!(
            minutes.reason.contains("minutesPassed"),
            "{}",
            minutes.reason
        );
    }

    #[test]
    fn the_registry_names_definitions_and_dispatch_agree() {
        let definitions = definitions();
        let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
        let registered: Vec<&str> = TOOLS.iter().map(|tool| tool.name).collect();
        assert_eq!(names, registered, "definitions follow the registry's order");
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "names are unique: {names:?}");

        let unknown = parse_call(&call("summon_dragon", json!({}))).unwrap_err();
        assert!(unknown
            .reason
            .starts_with("there is no tool named \"summon_dragon\"; the tools are "));
        let last = names.last().expect("at least one tool");
        assert!(
            unknown.reason.ends_with(&format!(" and {last}")),
            "{}",
            unknown.reason
        );
        for definition in &definitions {
            assert_strict(&definition.parameters, &definition.name);
            assert_eq!(definition.parameters["type"], json!("object"));
            assert_eq!(
                find(&definition.name).map(|tool| tool.name),
                Some(definition.name.as_str())
            );
            assert!(
                unknown.reason.contains(&format!(" {}", definition.name)),
                "{}",
                unknown.reason
            );
            // Dispatch reaches the tool's own parser: at worst its arguments are refused.
            if let Err(refused) = parse_call(&call(&definition.name, json!({}))) {
                assert!(
                    !refused.reason.contains("no tool named"),
                    "{}",
                    refused.reason
                );
            }
        }
    }

    #[test]
    fn rolls_and_hit_point_changes_decide_an_outcome() {
        let decides = |name: &str, arguments: serde_json::Value| {
            parse_call(&call(name, arguments))
                .unwrap()
                .decides_an_outcome()
        };
        assert!(decides(
            "roll_dice",
            json!({"dice": "1d6", "reason": "Trap"})
        ));
        assert!(decides(
            "update_character",
            json!({"hpChange": "-3", "location": "Cellar"})
        ));
        assert!(decides("update_character", json!({"hp_change": -3})));
        assert!(decides("update_character", json!({"hp": 4})));
        assert!(!decides("update_character", json!({"location": "Cellar"})));
        assert!(decides(
            "request_check",
            json!({"attribute": "WIS", "difficultyClass": 12, "reason": "Spot"})
        ));
        assert!(!decides("speak_to_player", json!({"message": "No rope."})));
        assert!(!decides(
            "update_inventory",
            json!({"updates": [{"slug": "torch", "quantityChange": -1}]})
        ));
        assert!(!decides("get_character_stats", json!({})));
    }

    #[test]
    fn an_outcome_table_is_checked_shown_and_rolled_by_the_rules() {
        let door = |outcomes: serde_json::Value| {
            call(
                "roll_on_table",
                json!({"name": "Who answers the door?", "die": "d6", "outcomes": outcomes}),
            )
        };
        let gap = parse_call(&door(json!([
            {"from": 1, "to": 2, "outcome": "nobody"},
            {"from": 5, "to": 6, "outcome": "a ghoul"}
        ])))
        .unwrap_err();
        assert_eq!(
            gap.to_string(),
            "roll_on_table refused: no outcome covers 3–4 of the d6; the ranges must cover every \
             face"
        );
        let d12 = call(
            "roll_on_table",
            json!({"name": "Door", "die": "d12", "outcomes": []}),
        );
        assert!(parse_call(&d12).unwrap_err().reason.contains("d20"));
        let command = parse_call(&door(json!([
            {"from": "4", "to": 6, "outcome": "a ghoul"},
            {"from": 1, "to": 3, "outcome": "nobody"}
        ])))
        .unwrap();
        assert!(command.decides_an_outcome());
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let outcome = execute(command, &mut rogue_table(), &mut rng).unwrap();
        let ToolEffect::TableRolled { roll } = &outcome.effect else {
            panic!("{:?}", outcome.effect);
        };
        let expected = if roll.face() <= 3 {
            "nobody"
        } else {
            "a ghoul"
        };
        assert_eq!(roll.outcome().outcome.as_ref(), expected);
        assert!(
            outcome.result.starts_with(&roll.describe()),
            "{}",
            outcome.result
        );
    }

    #[test]
    fn hit_points_change_only_by_a_roll_of_the_turn_and_at_most_its_total() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut table = rogue_table();
        let full = table.sheet.hit_points().current();
        let mut run = |arguments: serde_json::Value, table: &mut ToolTable| {
            let command = parse_call(&call("update_character", arguments)).unwrap();
            execute(command, table, &mut rng)
        };
        // No roll this turn: neither damage nor healing nor an exact value lands.
        for arguments in [
            json!({"hpChange": -20}),
            json!({"hpChange": 2}),
            json!({"hp": 1}),
        ] {
            let refused = run(arguments, &mut table).unwrap_err();
            assert!(matches!(refused, RunError::Unbacked { .. }), "{refused}");
            assert!(refused.to_string().contains("start_encounter"), "{refused}");
        }
        assert_eq!(table.sheet.hit_points().current(), full);
        // A roll of 5 backs 5 or less, once; the other roll backs the next change.
        table.unspent_rolls = vec![5, 2];
        assert!(run(json!({"hpChange": -6}), &mut table).is_err());
        assert_eq!(
            table.unspent_rolls,
            [5, 2],
            "a refused change spends nothing"
        );
        run(json!({"hpChange": -4}), &mut table).unwrap();
        assert_eq!(table.unspent_rolls, [2]);
        assert!(run(json!({"hpChange": -4}), &mut table).is_err());
        run(json!({"hp": full - 6}), &mut table).unwrap();
        assert!(table.unspent_rolls.is_empty());
        assert_eq!(table.sheet.hit_points().current(), full - 6);
        // Rest and conditions are not hit points: nothing to back.
        run(json!({"minutesPassed": 10}), &mut table).unwrap();
    }

    #[test]
    fn a_hazard_is_rolled_by_the_rules_and_refused_in_a_fight() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let mut table = rogue_table();
        let full = table.sheet.hit_points().current();
        let trap = json!({"what": "Falling rocks", "severity": "setback", "save": null});
        let command = parse_call(&call("hazard", trap.clone())).unwrap();
        let outcome = execute(command, &mut table, &mut rng).unwrap();
        let ToolEffect::Hazard { hazard, .. } = &outcome.effect else {
            panic!("{:?}", outcome.effect);
        };
        assert_eq!(hazard.damage.notation(), "1d10");
        assert!(outcome
            .result
            .starts_with("Hazard (setback: Falling rocks): 1d10 ["));
        let dealt = u16::try_from(hazard.dealt).unwrap();
        assert_eq!(
            table.sheet.hit_points().current(),
            full.saturating_sub(dealt)
        );
        let mut table = rogue_table();
        let foes = json!({"foes": ["Goblin"]});
        let start = parse_call(&call("start_encounter", foes)).unwrap();
        execute(start, &mut table, &mut rng).unwrap();
        let command = parse_call(&call("hazard", trap)).unwrap();
        let refused = execute(command, &mut table, &mut rng).unwrap_err();
        assert!(matches!(refused, RunError::InAFight));
    }

    #[test]
    fn in_approval_mode_a_change_is_proposed_and_the_sheet_stays_as_it_was() {
        use rand::SeedableRng;
        let mut table = rogue_table();
        table.approval = true;
        // A roll of this turn backs the change (see below).
        table.unspent_rolls = vec![3];
        let before = table.clone();
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        let hurt = parse_call(&call("update_character", json!({"hpChange": -3}))).unwrap();
        let outcome = execute(hurt, &mut table, &mut rng).unwrap();
        let ToolEffect::Proposed { id: 1, proposed } = &outcome.effect else {
            panic!("{:?}", outcome.effect);
        };
        assert!(
            matches!(proposed, Proposed::Sheet { changes, .. } if changes.labels() == ["−3 HP"])
        );
        assert!(outcome.result.starts_with("Proposed to the player: −3 HP."));
        let note = json!({"action": "note", "kind": "person", "name": "Oda", "note": "A smith."});
        let noted = parse_call(&call("keep_journal", note)).unwrap();
        let outcome = execute(noted, &mut table, &mut rng).unwrap();
        assert!(matches!(outcome.effect, ToolEffect::Proposed { id: 2, .. }));
        assert_eq!(
            table.sheet, before.sheet,
            "nothing applies before acceptance"
        );
        assert_eq!(table.journal, before.journal);
        // A change the rules refuse is refused as ever, and rolls are never proposals.
        let gone = json!({"updates": [{"slug": "no-such-thing", "quantityChange": -1}]});
        let missing = parse_call(&call("update_inventory", gone)).unwrap();
        assert!(execute(missing, &mut table, &mut rng).is_err());
        let roll =
            parse_call(&call("roll_dice", json!({"dice": "1d6", "reason": "Trap"}))).unwrap();
        let outcome = execute(roll, &mut table, &mut rng).unwrap();
        assert!(matches!(outcome.effect, ToolEffect::Rolled { .. }));
        assert_eq!(table.proposals_made, 2);
    }
}
