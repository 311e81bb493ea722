//! A command run through the rules against what the tools act on ([`ToolTable`]): in approval
//! mode a change is proposed to the player instead; a refused change leaves the table as it was.

use rand::Rng;

use crate::game::party::Party;

use super::{RunError, ToolCommand, ToolOutcome};
use crate::campaign::proposal::Proposed;
use crate::campaign::turn_event::ToolEffect;
use crate::game::combat::Combat;
use crate::game::fight::{FightRecord, FightStep};
use crate::game::hazard::{HazardRoll, HazardSeverity};
use crate::game::map::WorldMap;
use crate::game::oracle::{Likelihood, OracleReading};
use crate::game::outcome_table::{OutcomeTable, TableRoll};
use crate::game::proficiency::Skill;
use crate::game::sanity_check::{SanityCheck, Severity};
use crate::game::spine::{Spine, SpineError, SpineEvent, World};
use crate::game::{
    Attribute, CharacterSheet, Check, DeltaError, DiceExpr, DifficultyClass, Journal, RestKind,
    StateDelta,
};
use crate::gm::prompt::sheet_text::describe_sheet;

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
    /// The story's spine as this turn has left it so far.
    pub spine: Spine,
    /// The turn being played.
    pub turn: u32,
    /// The other characters at the table, whose sheets a call may name.
    pub party: Party,
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
        if let Some(outcome) = proposed(&command, table)? {
            return Ok(outcome);
        }
    }
    run_command(command, table, rng)
}

/// In approval mode, the outcome of a change proposed to the player instead of being applied
/// (see [`proposal`]); `None` for a command that runs as ever.
fn proposed(command: &ToolCommand, table: &mut ToolTable) -> Result<Option<ToolOutcome>, RunError> {
    let Some(proposed) = proposal(command, table)? else {
        return Ok(None);
    };
    table.proposals_made += 1;
    let labels = proposed.labels(&table.journal).join(", ");
    Ok(Some(ToolOutcome {
        result: format!(
            "Proposed to the player: {labels}. It takes effect only if they accept; \
             narrate it as what happens."
        ),
        effect: ToolEffect::Proposed {
            id: table.proposals_made,
            proposed,
        },
    }))
}

/// Runs a command through the rules (not proposed): each kind of command against what it acts
/// on.
fn run_command<R: Rng + ?Sized>(
    command: ToolCommand,
    table: &mut ToolTable,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    let ToolTable {
        sheet,
        journal,
        map,
        combat,
        unspent_rolls,
        spine,
        turn,
        party,
        ..
    } = table;
    match command {
        ToolCommand::StartEncounter(foes) => {
            fight(FightStep::Start { foes }, combat, (sheet, party), rng)
        }
        ToolCommand::EndEncounter => fight(FightStep::Stop, combat, (sheet, party), rng),
        ToolCommand::RollDice { dice, reason } => Ok(rolled(&dice, reason, unspent_rolls, rng)),
        ToolCommand::Change(deltas) => changed(deltas, sheet, rng),
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
        } => Ok(asked(question, likelihood, rng)),
        ToolCommand::Table(table) => Ok(table_rolled(table, rng)),
        ToolCommand::Map(record) => {
            map.record(&record)?;
            Ok(ToolOutcome {
                result: format!("Recorded on the map: {}.", record.place.as_str()),
                effect: ToolEffect::Mapped { record },
            })
        }
        ToolCommand::Plan(plan) => {
            let event = SpineEvent::Planned {
                plan,
                by_rules: false,
                on_the_map: false,
            };
            spine_changed(event, table_world(spine, map, sheet, *turn))
        }
        ToolCommand::EndChapter => {
            let chapter = u8::try_from(spine.chapter).unwrap_or(u8::MAX);
            let event = SpineEvent::ChapterEnded { chapter };
            spine_changed(event, table_world(spine, map, sheet, *turn))
        }
        ToolCommand::Aside(message) => Ok(ToolOutcome {
            result: "Shown to the player outside the story; do not repeat it in the narration."
                .to_owned(),
            effect: ToolEffect::Aside { message },
        }),
    }
}

/// The narrator's roll of `dice`, its total kept among the turn's `unspent` rolls (a change of
/// hit points must be backed by one).
fn rolled<R: Rng + ?Sized>(
    dice: &DiceExpr,
    reason: String,
    unspent: &mut Vec<u32>,
    rng: &mut R,
) -> ToolOutcome {
    let roll = dice.roll(rng);
    unspent.push(u32::try_from(roll.total()).unwrap_or(0));
    ToolOutcome {
        result: roll.describe(&reason),
        effect: ToolEffect::Rolled { reason, roll },
    }
}

/// `deltas` applied to the sheet, with the hit dice a short rest spends ([`with_hit_dice`]).
fn changed<R: Rng + ?Sized>(
    deltas: Vec<StateDelta>,
    sheet: &mut CharacterSheet,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
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

/// The oracle's answer to a yes/no `question`.
fn asked<R: Rng + ?Sized>(question: String, likelihood: Likelihood, rng: &mut R) -> ToolOutcome {
    let reading = OracleReading::ask(question, likelihood, rng);
    ToolOutcome {
        result: format!("{}. Follow this answer.", reading.describe()),
        effect: ToolEffect::Asked { reading },
    }
}

/// The outcome `table` picks.
fn table_rolled<R: Rng + ?Sized>(table: OutcomeTable, rng: &mut R) -> ToolOutcome {
    let roll = TableRoll::roll(table, rng);
    ToolOutcome {
        result: format!(
            "{}. Follow this outcome; any change it brings goes through the tools.",
            roll.describe()
        ),
        effect: ToolEffect::TableRolled { roll },
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

/// The spine with what its events are checked against, in the turn being played.
struct SpineTable<'t> {
    spine: &'t mut Spine,
    map: &'t WorldMap,
    sheet: &'t CharacterSheet,
    turn: u32,
}

fn table_world<'t>(
    spine: &'t mut Spine,
    map: &'t WorldMap,
    sheet: &'t CharacterSheet,
    turn: u32,
) -> SpineTable<'t> {
    SpineTable {
        spine,
        map,
        sheet,
        turn,
    }
}

/// A change of the spine by a tool (the plan written, a chapter ended), checked by the rules.
fn spine_changed(event: SpineEvent, table: SpineTable<'_>) -> Result<ToolOutcome, RunError> {
    let world = World {
        map: table.map,
        sheet: table.sheet,
    };
    table.spine.apply(&event, table.turn, world)?;
    let plan = table.spine.plan.as_ref().ok_or(SpineError::NoPlan)?;
    let result = match plan.chapters().get(table.spine.chapter) {
        Some(chapter) => format!(
            "Kept. The chapter under way is {}: {} (it ends when the hero can {}).",
            chapter.title,
            chapter.goal,
            chapter.mark.describe()
        ),
        None => format!("Kept. Every chapter has ended: {}.", plan.goal()),
    };
    Ok(ToolOutcome {
        result,
        effect: ToolEffect::Spine { change: event },
    })
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
    (sheet, party): (&mut CharacterSheet, &mut Party),
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    let (record, changes) = step.play_on_table(combat, sheet, party, &mut |sides| {
        rng.random_range(1..=sides)
    })?;
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
