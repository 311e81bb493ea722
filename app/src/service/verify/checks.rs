//! The checks that need no walk: bounds on texts, calls, notes, recalled passages and
//! messages, and whether an effect is what its tool call does to the state.

use crate::campaign::bounds::{
    fits, MAX_ARGUMENTS_CHARS, MAX_LEDGER_NOTES, MAX_MESSAGES_PER_TURN, MAX_MESSAGE_CHARS,
    MAX_NAME_CHARS, MAX_RECALLED,
};
use crate::campaign::conversation::{Message, RecalledPassage, ToolCall};
use crate::campaign::passage::{MAX_QUERY_WORDS, MAX_WORD_CHARS};
use crate::campaign::proposal::Proposed;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::ToolEffect;
use crate::game::fight::FightStep;
use crate::game::oracle;
use crate::game::spine::attitude::MAX_FACT_CHARS;
use crate::game::spine::shapes::Shape;
use crate::game::spine::{SpineEvent, MAX_TRAVEL_HOURS};
use crate::game::{AppliedChanges, CharacterSheet, DiceExpr, RestKind, StateDelta, Vitality};
use crate::gm::tools::ToolCommand;

use super::Wrong;

/// `Err` when `text` is longer than `max` characters.
pub(super) fn bounded(what: &'static str, text: &str, max: usize) -> Result<(), Wrong> {
    if fits(text, max) {
        Ok(())
    } else {
        Err(Wrong::TooLong { what, max })
    }
}

/// `Err` when a tool call's id, name or arguments pass their bounds.
pub(super) fn call_bounded(call: &ToolCall) -> Result<(), Wrong> {
    bounded("tool call id", &call.id, MAX_NAME_CHARS)?;
    bounded("tool name", &call.name, MAX_NAME_CHARS)?;
    bounded("tool arguments", &call.arguments, MAX_ARGUMENTS_CHARS)
}

/// A ledger check's notes for the player (those of the saved scene, and those of the first draft
/// the model was asked to correct): bounded in number and length.
pub(super) fn check_ledger_notes(lists: [&[String]; 2]) -> Result<(), Wrong> {
    let (count, chars) = MAX_LEDGER_NOTES;
    for notes in lists {
        if notes.len() > count {
            return Err(Wrong::TooMany {
                what: "ledger notes",
                max: count,
            });
        }
        notes
            .iter()
            .try_for_each(|note| bounded("ledger note", note, chars))?;
    }
    Ok(())
}

/// The passages a narration recalled: at most [`MAX_RECALLED`] of them, each bounded, with at
/// most [`MAX_QUERY_WORDS`] words.
pub(super) fn check_recalled(passages: &[RecalledPassage]) -> Result<(), Wrong> {
    let (count, chars) = MAX_RECALLED;
    if passages.len() > count {
        return Err(Wrong::TooMany {
            what: "recalled passages",
            max: count,
        });
    }
    for passage in passages {
        bounded("recalled passage", &passage.text, chars)?;
        if passage.words.len() > MAX_QUERY_WORDS {
            return Err(Wrong::TooMany {
                what: "recalled words",
                max: MAX_QUERY_WORDS,
            });
        }
        passage
            .words
            .iter()
            .try_for_each(|word| bounded("recalled word", word, MAX_WORD_CHARS))?;
    }
    Ok(())
}

/// The messages one narration adds, within their bounds.
pub(super) fn check_messages(messages: &[Message]) -> Result<(), Wrong> {
    if messages.len() > MAX_MESSAGES_PER_TURN {
        return Err(Wrong::TooMany {
            what: "messages",
            max: MAX_MESSAGES_PER_TURN,
        });
    }
    for message in messages {
        match message {
            Message::System { content } | Message::User { content } => {
                bounded("message", content, MAX_MESSAGE_CHARS)?
            }
            Message::Assistant {
                content,
                tool_calls,
            } => {
                bounded(
                    "message",
                    content.as_deref().unwrap_or(""),
                    MAX_MESSAGE_CHARS,
                )?;
                for call in tool_calls {
                    call_bounded(call)?;
                }
            }
            Message::Tool {
                tool_call_id,
                content,
            } => {
                bounded("tool call id", tool_call_id, MAX_NAME_CHARS)?;
                bounded("message", content, MAX_MESSAGE_CHARS)?;
            }
        }
    }
    Ok(())
}

/// What `deltas` change on a copy of `sheet`, if the rules allow them.
pub(super) fn applied(deltas: &[StateDelta], sheet: &CharacterSheet) -> Option<AppliedChanges> {
    StateDelta::apply_all(deltas, &mut sheet.clone()).ok()
}

/// Whether `effect` is exactly what `command` does to `state`. The match is over every kind of
/// effect, with no catch-all: a new kind does not compile until it is verified here.
/// Whether `proposed` is what `command` proposes in approval mode: the same change, and for
/// the sheet what it would change there now.
pub(super) fn proposes(command: &ToolCommand, proposed: &Proposed, state: &CampaignState) -> bool {
    match (command, proposed) {
        (ToolCommand::Change(called), Proposed::Sheet { deltas, changes }) => {
            called == deltas && applied(deltas, &state.sheet).as_ref() == Some(changes)
        }
        (ToolCommand::Journal(called), Proposed::Journal { change }) => called == change,
        (ToolCommand::Map(called), Proposed::Map { record }) => called == record,
        _ => false,
    }
}

/// Whether `deltas` are the `called` ones, followed after a short rest only by the hit dice the
/// rules spent (each roll is checked when they are applied).
pub(super) fn called_with_hit_dice(called: &[StateDelta], deltas: &[StateDelta]) -> bool {
    let short = StateDelta::Rest {
        kind: RestKind::Short,
    };
    deltas.len() >= called.len()
        && deltas[..called.len()] == *called
        && (deltas.len() == called.len()
            || (called.contains(&short)
                && deltas[called.len()..]
                    .iter()
                    .all(|d| matches!(d, StateDelta::SpendHitDie { .. }))))
}

pub(super) fn effect_of(command: &ToolCommand, effect: &ToolEffect, state: &CampaignState) -> bool {
    let sheet = &state.sheet;
    match effect {
        ToolEffect::Rolled { reason, roll } => matches!(command,
            ToolCommand::RollDice { dice, reason: called } if called == reason && dice.explains(roll)),
        ToolEffect::Changed { deltas, changes } => matches!(command,
            ToolCommand::Change(called) if called_with_hit_dice(called, deltas)
                && (!state.approval || changes.is_empty())
                && applied(deltas, sheet).as_ref() == Some(changes)),
        ToolEffect::Proposed { proposed, .. } => {
            state.approval && proposes(command, proposed, state)
        }
        ToolEffect::Read => matches!(command, ToolCommand::ReadSheet),
        ToolEffect::Noted { change } => {
            matches!(command, ToolCommand::Journal(called) if called == change && !state.approval)
        }
        ToolEffect::Checked { reason, check } => matches!(command,
            ToolCommand::Check { attribute, skill, dc, reason: called } if called == reason
                && *dc == check.dc()
                && sheet.vitality() == Vitality::Up
                && check.roll().attribute() == Some(sheet.check_bonus(*attribute, *skill))
                && sheet.conditions().roll_effects().checks.apply(&DiceExpr::d20())
                    .explains(check.roll())),
        ToolEffect::SanityChecked {
            reason,
            check,
            changes,
        } => matches!(command,
            ToolCommand::Sanity { severity, reason: called } if called == reason
                && *severity == check.severity
                && sheet.sanity().is_some()
                && sheet.vitality() == Vitality::Up
                && check.is_the_rules(sheet)
                && applied(&check.deltas(sheet), sheet).as_ref() == Some(changes)),
        ToolEffect::Hazard {
            what,
            hazard,
            changes,
        } => matches!(command,
            ToolCommand::Hazard { what: called, severity, save } if called == what
                && *severity == hazard.severity
                && *save == hazard.save.as_ref().map(|(attribute, _)| *attribute)
                && !state.combat.is_running()
                && hazard.is_the_rules(sheet)
                && applied(&hazard.deltas(), sheet).as_ref() == Some(changes)),
        ToolEffect::Asked { reading } => matches!(command,
            ToolCommand::Oracle { question, likelihood } if *question == reading.question
                && *likelihood == reading.likelihood
                && reading.answer == oracle::answer(*likelihood, reading.roll)),
        ToolEffect::TableRolled { roll } => {
            matches!(command, ToolCommand::Table(called) if called == roll.table())
        }
        ToolEffect::Aside { message } => {
            matches!(command, ToolCommand::Aside(called) if called == message)
        }
        ToolEffect::Mapped { record } => {
            matches!(command, ToolCommand::Map(called) if called == record && !state.approval)
        }
        ToolEffect::Spine { change } => match (command, change) {
            (
                ToolCommand::Plan(called),
                SpineEvent::Planned {
                    plan,
                    by_rules,
                    on_the_map,
                },
            ) => called == plan && !by_rules && !on_the_map,
            (ToolCommand::EndChapter, SpineEvent::ChapterEnded { chapter }) => {
                usize::from(*chapter) == state.spine.chapter
            }
            _ => false,
        },
        // The same call's effect, on the sheet of the member it names.
        ToolEffect::ForMember { name, effect } => for_member(command, name, effect, state),
        // The fight's numbers are checked when it is applied; here, that the step is the call's.
        ToolEffect::Fought { record, .. } => match (command, &record.step) {
            (ToolCommand::StartEncounter(called), FightStep::Start { foes }) => called == foes,
            (ToolCommand::EndEncounter, FightStep::Stop) => true,
            _ => false,
        },
    }
}

/// Whether `effect` is what `command` does to the sheet of the member called `name`.
fn for_member(
    command: &ToolCommand,
    name: &str,
    effect: &ToolEffect,
    state: &CampaignState,
) -> bool {
    let Some(index) = state.party.named(name) else {
        return false;
    };
    let mut theirs = state.clone();
    theirs.sheet = state.party.members()[index].sheet.clone();
    effect_of(command, effect, &theirs)
}

/// A change of the spine the rules made on their own in `turn`: a plan they built is the
/// premise's shape's, a steer is the one due, a change of heart is one a check can make, a
/// journey goes to a place the map knows. The spine's own rules check the rest as it applies.
pub(super) fn check_spine(
    event: &SpineEvent,
    state: &CampaignState,
    turn: u32,
) -> Result<(), Wrong> {
    let fits = match event {
        SpineEvent::Planned { plan, by_rules, .. } => {
            *by_rules && *plan == Shape::of(&state.premise).plan()
        }
        SpineEvent::Steered { steer, idle } => {
            let before = turn.saturating_sub(1);
            state.spine.due_steer(before).as_ref() == Some(steer)
                && *idle == state.spine.idle_turns(before)
        }
        SpineEvent::Swayed { from, to, fact, .. } => {
            [-1, 1, 2]
                .iter()
                .any(|steps| from.stepped(*steps) == Some(*to))
                && fits(fact, MAX_FACT_CHARS)
        }
        SpineEvent::Travelled { to, hours } => {
            *hours <= MAX_TRAVEL_HOURS
                && state.map.places().iter().any(|p| p.name.eq_ignore_case(to))
        }
        SpineEvent::Revealed { .. }
        | SpineEvent::Ticked { .. }
        | SpineEvent::ChapterEnded { .. }
        | SpineEvent::Met { .. } => true,
    };
    if fits {
        Ok(())
    } else {
        Err(Wrong::Spine("a change the rules would not have made"))
    }
}
