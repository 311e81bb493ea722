//! A campaign log from outside (an imported file) checked against the rules, event by event and
//! in log order — turns that were undone later included, each against the state it was played
//! on: the character is a fresh creation, turns follow one another, every state change is exactly
//! what its tool call (or the rules themselves: a death save; an item dropped, used, equipped or
//! put away from the character panel) does to the sheet as it stood, every roll is what its dice
//! show, the player's rolls belong to the action they chose, every value is within the bounds
//! play keeps, and no counter passes its limit. The first event that fails is named; nothing the
//! rules would not have produced gets in. (Scenes' HTML is not taken from a file at all: the
//! import renders it again.)

use std::collections::HashMap;

use super::panel::{drop_delta, equip_delta, DROPPED, EQUIPPED, IMPROVED, UNEQUIPPED, USED};
use super::powers::{CAST, FEATURE, HIT_DIE, RESTED};
use super::start::parse_form;
use crate::campaign::bounds::{
    fits, MAX_ARGUMENTS_CHARS, MAX_LEDGER_NOTES, MAX_MESSAGES_PER_TURN, MAX_MESSAGE_CHARS,
    MAX_NAME_CHARS, MAX_NARRATION_CHARS, MAX_RECALLED, MAX_RESULT_CHARS,
};
use crate::campaign::conversation::{Message, RecalledPassage, TokenUsage, ToolCall};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::passage::{MAX_QUERY_WORDS, MAX_WORD_CHARS};
use crate::campaign::proposal::Proposed;
use crate::campaign::state::{CampaignState, ProjectionError};
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::complication::Complication;
use crate::game::creation::{created_before_powers, created_before_typed_items, CharacterDraft};
use crate::game::fight::{FightStep, USED_IN_FIGHT};
use crate::game::oracle;
use crate::game::stakes::DEATH_SAVE;
use crate::game::{
    Action, ActionList, AppliedChanges, CharacterSheet, DiceExpr, JournalChange, Resolution,
    RestKind, Slug, StateDelta, Vitality,
};
use crate::gm::prompt::layers::MAX_SUMMARY_CHARS;
use crate::gm::tools::{self, ToolCommand};
use crate::gm::turn::complication;
use crate::gm::turn::spell_turn::CAST_BY_THE_RULES;
use crate::gm::MoveText;
use crate::wire::view::NewCampaign;

/// Why a log was refused: which event, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {index} (turn {turn}) is refused: {reason}")]
pub struct Refusal {
    /// Its position in the file's list of events (0 is the first).
    pub index: usize,
    /// The turn it claims.
    pub turn: u32,
    /// What is wrong.
    pub reason: Wrong,
}

/// What is wrong with an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Wrong {
    /// No events at all.
    #[error("the file holds no events")]
    Empty,
    /// The first event is not the start, at turn 0.
    #[error("a campaign starts with its premise and character, at turn 0")]
    NotStarted,
    /// The start is not what the new-adventure form makes.
    #[error("the character is not as a new adventure creates it")]
    Character,
    /// A second start.
    #[error("the campaign starts twice")]
    StartedTwice,
    /// A turn out of sequence.
    #[error("the campaign is at turn {at}: the next event belongs to turn {at} or {}", at.saturating_add(1))]
    TurnOrder {
        /// The turn the campaign is at.
        at: u32,
    },
    /// An undo of the opening scene, or of nothing.
    #[error("there is no turn to undo here")]
    NothingToUndo,
    /// A redo with nothing undone.
    #[error("there is no undone turn to redo here")]
    NothingToRedo,
    /// An event that is only ever streamed.
    #[error("it is only ever streamed, never stored")]
    Streamed,
    /// A value past its bound.
    #[error("the {what} is longer than {max} characters")]
    TooLong {
        /// What.
        what: &'static str,
        /// Its bound.
        max: usize,
    },
    /// A journal change in the player's name that is not one the player makes.
    #[error("the player only pins, rewrites and deletes journal entries")]
    NotThePlayers,
    /// A journal change in the rules' name that is not one the rules make.
    #[error("the rules only note new journal entries")]
    NotNoticed,
    /// Too many of something.
    #[error("it holds more than {max} {what}")]
    TooMany {
        /// What.
        what: &'static str,
        /// The bound.
        max: usize,
    },
    /// The move's text is not a move.
    #[error("the move is not one a player can make")]
    Move,
    /// A second move in one turn.
    #[error("a turn has one move")]
    SecondMove,
    /// A move after the character fell for good.
    #[error("the story had ended")]
    Ended,
    /// A chosen action that was not offered.
    #[error("the chosen action was not on offer")]
    NotOffered,
    /// A player's roll that no chosen action (or death save) makes.
    #[error("the player's roll is not what the chosen action (or a death save) rolls")]
    PlayerRoll,
    /// A change the rules did not make.
    #[error("the rules did not make this change")]
    Ruled,
    /// A rest, a hit die or a spell from the panel while a fight was under way (in a fight,
    /// spells are the fight's own steps).
    #[error("a rest or a spell from the panel inside a fight")]
    InAFight,
    /// A complication that was not due, or not what the rules' table gives.
    #[error("a failure's complication that the rules did not make")]
    Complication,
    /// A fight called off by the rules alone (only the game master's tool calls one off).
    #[error("a fight is called off only by the game master")]
    FightStopped,
    /// A result without a call, or of another tool.
    #[error("a tool result without its tool call")]
    NoCall,
    /// An effect without a valid call.
    #[error("a change without a valid tool call")]
    InvalidCall,
    /// An effect that is not what its call does.
    #[error("the change is not what its tool call does ({tool})")]
    Effect {
        /// The tool.
        tool: String,
    },
    /// A summary of turns still to come.
    #[error("a summary of turns not yet played")]
    Summary,
    /// Token counts past their limit.
    #[error("the token counts pass their limit")]
    Usage,
    /// An event the projector cannot apply.
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    /// No opening scene.
    #[error("the campaign has no opening scene")]
    NoOpening,
}

/// Checks a whole log; `Ok` when every event in it is what the rules would have produced.
pub fn verify(events: &[StoredEvent]) -> Result<(), Refusal> {
    let refusal = |index: usize, reason: Wrong| Refusal {
        index,
        turn: events.get(index).map_or(0, |stored| stored.turn),
        reason,
    };
    let (first, rest) = events.split_first().ok_or(refusal(0, Wrong::Empty))?;
    let mut walk = Walk::new(started(first).map_err(|reason| refusal(0, reason))?);
    for (index, stored) in (1..).zip(rest) {
        walk.step(stored).map_err(|reason| refusal(index, reason))?;
    }
    if walk.opened {
        Ok(())
    } else {
        Err(refusal(events.len() - 1, Wrong::NoOpening))
    }
}

/// The start: a premise and a character exactly as the new-adventure form makes them.
fn started(stored: &StoredEvent) -> Result<CampaignState, Wrong> {
    let CampaignEvent::Started { premise, sheet } = &stored.event else {
        return Err(Wrong::NotStarted);
    };
    if stored.turn != 0 {
        return Err(Wrong::NotStarted);
    }
    let form = NewCampaign {
        premise: premise.clone(),
        character: CharacterDraft::of(sheet),
        approval: false,
        agreement: Default::default(),
        brought: Vec::new(),
    };
    let (_, fresh) = parse_form(&form).map_err(|_| Wrong::Character)?;
    // Files exported before hit dice were a pool start without one; before items were typed,
    // with plain gear, nothing equipped; before character creation, from a plain sheet (every
    // score 10).
    let plain = CharacterSheet::new(
        sheet.name().clone(),
        sheet.class().clone(),
        fresh.location().clone(),
    );
    let made = [
        fresh.clone().before_hit_dice_pool(),
        created_before_typed_items(&fresh),
        plain.before_hit_dice_pool(),
        fresh,
    ];
    // And before powers counted, without them; before proficiencies counted, without any.
    let made = made.map(|m| {
        if sheet.powers().is_none() {
            created_before_powers(&m)
        } else {
            m
        }
    });
    let before_proficiencies = made.iter().map(|m| m.clone().before_proficiencies());
    if !made.contains(sheet) && !before_proficiencies.into_iter().any(|m| &m == sheet) {
        return Err(Wrong::Character);
    }
    Ok(CampaignState::start(premise, sheet.clone()))
}

/// The log walked as play made it: the state now, what the current turn has seen, the turns in
/// effect (each with the state before it) and the turns undone (each with the state after it).
struct Walk {
    state: CampaignState,
    turn: TurnSeen,
    played: Vec<(CampaignState, TurnSeen)>,
    undone: Vec<(CampaignState, TurnSeen)>,
    usage: TokenUsage,
    opened: bool,
}

/// What the checks of one turn remember: the actions offered before it, its move, the action
/// chosen, a death save's die, and its tool calls.
#[derive(Clone, Default)]
struct TurnSeen {
    offered: Option<ActionList>,
    moved: bool,
    chosen: Option<String>,
    death_save: Option<u8>,
    /// What a failure costs, while the chosen action's failed check has cost nothing yet.
    cost_due: Option<String>,
    calls: HashMap<String, (String, Option<ToolCommand>)>,
}

impl Walk {
    fn new(state: CampaignState) -> Self {
        Self {
            state,
            turn: TurnSeen::default(),
            played: Vec::new(),
            undone: Vec::new(),
            usage: TokenUsage::default(),
            opened: false,
        }
    }

    fn step(&mut self, stored: &StoredEvent) -> Result<(), Wrong> {
        let at = self.state.turn;
        match &stored.event {
            CampaignEvent::Undone => return self.undo(stored.turn),
            CampaignEvent::Redone => return self.redo(stored.turn),
            _ if stored.turn == at => {}
            _ if Some(stored.turn) == at.checked_add(1) => self.next_turn(),
            _ => return Err(Wrong::TurnOrder { at }),
        }
        self.check(stored)?;
        self.state.apply(stored)?;
        // The model's history is not checked beyond its bounds: keep the turn starts small.
        self.state.context.clear();
        Ok(())
    }

    fn next_turn(&mut self) {
        let seen = TurnSeen {
            offered: self.state.actions.clone(),
            ..TurnSeen::default()
        };
        let previous = std::mem::replace(&mut self.turn, seen);
        self.played.push((self.state.clone(), previous));
        self.undone.clear();
    }

    /// An undo, stored with the turn it goes back to (or, before a retelling, the turn retold).
    fn undo(&mut self, turn: u32) -> Result<(), Wrong> {
        let at = self.state.turn;
        if at <= 1 || (turn != at - 1 && turn != at) {
            return Err(Wrong::NothingToUndo);
        }
        let (before, seen) = self.played.pop().ok_or(Wrong::NothingToUndo)?;
        let after = std::mem::replace(&mut self.state, before);
        let undone = std::mem::replace(&mut self.turn, seen);
        self.undone.push((after, undone));
        Ok(())
    }

    fn redo(&mut self, turn: u32) -> Result<(), Wrong> {
        if Some(turn) != self.state.turn.checked_add(1) {
            return Err(Wrong::NothingToRedo);
        }
        let (after, seen) = self.undone.pop().ok_or(Wrong::NothingToRedo)?;
        let before = std::mem::replace(&mut self.state, after);
        let previous = std::mem::replace(&mut self.turn, seen);
        self.played.push((before, previous));
        Ok(())
    }

    fn check(&mut self, stored: &StoredEvent) -> Result<(), Wrong> {
        match &stored.event {
            CampaignEvent::Started { .. } => Err(Wrong::StartedTwice),
            CampaignEvent::Turn(event) => self.check_turn(event, stored.turn),
            CampaignEvent::ModelMessages { messages } => check_messages(messages),
            CampaignEvent::Summarized { through_turn, text } => {
                if !fits(text, MAX_SUMMARY_CHARS) {
                    Err(Wrong::TooLong {
                        what: "summary",
                        max: MAX_SUMMARY_CHARS,
                    })
                } else if *through_turn > self.state.turn {
                    Err(Wrong::Summary)
                } else {
                    Ok(())
                }
            }
            // The projector applies it through the journal's own rules; the player only pins,
            // rewrites and deletes.
            CampaignEvent::JournalEdited { change } => match change {
                JournalChange::Pin { .. }
                | JournalChange::Edit { .. }
                | JournalChange::Delete { .. } => Ok(()),
                _ => Err(Wrong::NotThePlayers),
            },
            // The player's setting; the proposals it brings are checked as they are made.
            // Its bounds were checked when the file was read.
            CampaignEvent::ApprovalSet { .. } | CampaignEvent::TableAgreed { .. } => Ok(()),
            // Brought at the start: notes only, within the journal's room.
            CampaignEvent::Brought { changes } => {
                let notes = changes
                    .iter()
                    .all(|change| matches!(change, JournalChange::Note { .. }));
                if stored.turn == 0 && notes && changes.len() <= crate::game::journal::MAX_ENTRIES {
                    Ok(())
                } else {
                    Err(Wrong::NotThePlayers)
                }
            }
            CampaignEvent::Undone | CampaignEvent::Redone => Ok(()),
        }
    }

    fn check_turn(&mut self, event: &TurnEvent, turn: u32) -> Result<(), Wrong> {
        if complication::costs_something(event) && !matches!(event, TurnEvent::Complicated { .. }) {
            self.turn.cost_due = None;
        }
        match event {
            TurnEvent::Move { text, action_id } => self.check_move(text, action_id.as_deref()),
            TurnEvent::PlayerRoll {
                reason,
                resolution,
                description,
            } => self.check_player_roll(reason, resolution, description),
            TurnEvent::NarrativeDelta { .. }
            | TurnEvent::Retrying { .. }
            | TurnEvent::NarrativeReplaced { .. }
            | TurnEvent::TableShown { .. } => Err(Wrong::Streamed),
            TurnEvent::Ruled {
                cause,
                deltas,
                changes,
            } => self.check_ruled(cause, deltas, changes),
            TurnEvent::Complicated {
                stakes,
                complication,
                changes,
            } => self.check_complicated(stakes, complication, changes),
            // Notes for the player only: the prose they judge never changes the ledger.
            TurnEvent::LedgerChecked { notes, asked, .. } => {
                check_ledger_notes([notes.as_slice(), asked.as_slice()])
            }
            // What the model was shown from earlier in the story: bounded, changes nothing.
            TurnEvent::Recalled { passages } => check_recalled(passages),
            // The projector applies it through the journal's rules (never over another entry).
            TurnEvent::Noticed { change } => match change {
                JournalChange::Noticed { .. } => Ok(()),
                _ => Err(Wrong::NotNoticed),
            },
            // Its numbers are checked when it is applied: the rules play it again from its dice.
            TurnEvent::Fought { record, .. } => match record.step {
                FightStep::Stop => Err(Wrong::FightStopped),
                _ => Ok(()),
            },
            // The projector applies it: only to a proposal waiting, with what accepting it
            // changes (nothing when refused).
            TurnEvent::Decided { .. } => Ok(()),
            TurnEvent::ToolCalled { call } => self.check_call(call),
            TurnEvent::ToolResult {
                call_id,
                tool,
                result,
                effect,
            } => self.check_tool_result(call_id, tool, result, effect.as_ref()),
            TurnEvent::Narration { text, .. } => {
                bounded("narration", text, MAX_NARRATION_CHARS)?;
                self.opened |= turn == 1;
                Ok(())
            }
            // The list is checked as it is read (ids, texts, dice, at most six).
            TurnEvent::ActionsOffered { .. } => Ok(()),
            // Any numbers: what the rules drew, given back to a retelling's rolls of each kind,
            // whose results are then checked as any roll's are.
            TurnEvent::DiceDrawn { .. } => Ok(()),
            TurnEvent::Usage { usage, .. } => {
                self.usage = self.usage.checked_add(*usage).ok_or(Wrong::Usage)?;
                Ok(())
            }
        }
    }

    /// A tool's result: bounded, for a call of that tool made earlier in the turn, and with the
    /// effect that call has on the state, if it has one.
    fn check_tool_result(
        &self,
        call_id: &str,
        tool: &str,
        result: &str,
        effect: Option<&ToolEffect>,
    ) -> Result<(), Wrong> {
        bounded("tool result", result, MAX_RESULT_CHARS)?;
        let (called, command) = self.turn.calls.get(call_id).ok_or(Wrong::NoCall)?;
        if called != tool {
            return Err(Wrong::NoCall);
        }
        match (effect, command) {
            (None, _) => Ok(()),
            (Some(_), None) => Err(Wrong::InvalidCall),
            (Some(effect), Some(command)) if effect_of(command, effect, &self.state) => Ok(()),
            (Some(_), Some(_)) => Err(Wrong::Effect {
                tool: tool.to_owned(),
            }),
        }
    }

    fn check_move(&mut self, text: &str, action_id: Option<&str>) -> Result<(), Wrong> {
        if std::mem::replace(&mut self.turn.moved, true) {
            return Err(Wrong::SecondMove);
        }
        if self.state.sheet.vitality().is_dead() {
            return Err(Wrong::Ended);
        }
        MoveText::parse(text).map_err(|_| Wrong::Move)?;
        if let Some(id) = action_id {
            self.offered(id)?;
        }
        self.turn.chosen = action_id.map(str::to_owned);
        Ok(())
    }

    fn check_player_roll(
        &mut self,
        reason: &str,
        resolution: &Resolution,
        description: &str,
    ) -> Result<(), Wrong> {
        if description != resolution.describe(reason) {
            return Err(Wrong::PlayerRoll);
        }
        if self.state.sheet.vitality().is_dying() {
            // A dying character's roll is their death save: a plain d20 against DC 10.
            let Resolution::Check(check) = resolution else {
                return Err(Wrong::PlayerRoll);
            };
            let die = check
                .roll()
                .natural_d20()
                .and_then(|d| u8::try_from(d).ok());
            let plain = DiceExpr::d20().explains(check.roll()) && check.dc().value() == 10;
            return match die {
                Some(die) if reason == DEATH_SAVE && plain => {
                    self.turn.death_save = Some(die);
                    Ok(())
                }
                _ => Err(Wrong::PlayerRoll),
            };
        }
        let chosen = self.turn.chosen.clone().ok_or(Wrong::PlayerRoll)?;
        let action = self.offered(&chosen)?;
        if !(action.explains(
            &self.state.sheet,
            self.state.sheet.conditions().roll_effects().checks,
            resolution,
        ) && action.roll_reason() == reason)
        {
            return Err(Wrong::PlayerRoll);
        }
        if let (Some(stakes), Resolution::Check(check)) = (action.stakes(), resolution) {
            if !check.is_success() {
                self.turn.cost_due = Some(stakes.failure.as_str().to_owned());
            }
        }
        Ok(())
    }

    /// The rules' complication: due (the chosen action's check failed on stakes and nothing
    /// has cost anything since), of those stakes, from the table with the dice it shows, and
    /// changing exactly what it says.
    fn check_complicated(
        &mut self,
        stakes: &str,
        complication: &Complication,
        changes: &AppliedChanges,
    ) -> Result<(), Wrong> {
        let due = self.turn.cost_due.take();
        let sheet = &self.state.sheet;
        if due.as_deref() == Some(stakes)
            && complication.is_the_rules(sheet)
            && applied(&complication.deltas(), sheet).as_ref() == Some(changes)
        {
            Ok(())
        } else {
            Err(Wrong::Complication)
        }
    }

    /// A change the rules make themselves: a dying character's death save (with the die their
    /// roll showed), or what the player did from the character panel: every one of an item
    /// dropped, a consumable used (its roll what its dice show), an item equipped or put away,
    /// an ability score improvement spent.
    /// Each is exactly the one delta the rules make for its cause, and changes something.
    fn check_ruled(
        &mut self,
        cause: &str,
        deltas: &[StateDelta],
        changes: &AppliedChanges,
    ) -> Result<(), Wrong> {
        let sheet = &self.state.sheet;
        let panel_power = matches!(cause, CAST | CAST_BY_THE_RULES | FEATURE | RESTED | HIT_DIE);
        if panel_power && self.state.combat.is_running() {
            return Err(Wrong::InAFight);
        }
        let expected = match (cause, deltas) {
            (DEATH_SAVE, _) => {
                let die = self.turn.death_save.take().ok_or(Wrong::Ruled)?;
                StateDelta::DeathSave { die }
            }
            (DROPPED, [StateDelta::ChangeItemQuantity { slug, .. }]) => {
                sheet.inventory().get(slug).ok_or(Wrong::Ruled)?;
                drop_delta(sheet, slug)
            }
            // Applying it checks the item is a carried consumable and the roll its dice.
            (USED | USED_IN_FIGHT, [used @ StateDelta::UseItem { .. }]) => used.clone(),
            (EQUIPPED, [StateDelta::Equip { slug }]) => equip_delta(slug, true),
            (UNEQUIPPED, [StateDelta::Unequip { slug }]) => equip_delta(slug, false),
            // Applying it checks that one is due and no score passes 20.
            (IMPROVED, [improved @ StateDelta::ImproveAbilities { .. }]) => improved.clone(),
            // Applying each checks the spell is known with a slot left and its healing dice
            // are its own, the feature has a use, the long rest is the first of the day, a hit
            // die is spent right after a short rest and its roll is the die plus CON.
            (CAST | CAST_BY_THE_RULES, [cast @ StateDelta::CastSpell { .. }]) => cast.clone(),
            (FEATURE, [used @ StateDelta::UseFeature { .. }]) => used.clone(),
            (RESTED, [rest @ StateDelta::Rest { .. }]) => rest.clone(),
            (HIT_DIE, [spent @ StateDelta::SpendHitDie { .. }]) => spent.clone(),
            _ => return Err(Wrong::Ruled),
        };
        let panel = cause != DEATH_SAVE;
        if deltas == [expected]
            && !(panel && changes.is_empty())
            && applied(deltas, sheet).as_ref() == Some(changes)
        {
            Ok(())
        } else {
            Err(Wrong::Ruled)
        }
    }

    fn check_call(&mut self, call: &ToolCall) -> Result<(), Wrong> {
        call_bounded(call)?;
        let command = tools::parse_call(call).ok();
        self.turn
            .calls
            .insert(call.id.clone(), (call.name.clone(), command));
        Ok(())
    }

    fn offered(&self, id: &str) -> Result<&Action, Wrong> {
        Slug::new(id)
            .ok()
            .and_then(|slug| self.turn.offered.as_ref()?.get(&slug))
            .ok_or(Wrong::NotOffered)
    }
}

/// `Err` when `text` is longer than `max` characters.
fn bounded(what: &'static str, text: &str, max: usize) -> Result<(), Wrong> {
    if fits(text, max) {
        Ok(())
    } else {
        Err(Wrong::TooLong { what, max })
    }
}

/// `Err` when a tool call's id, name or arguments pass their bounds.
fn call_bounded(call: &ToolCall) -> Result<(), Wrong> {
    bounded("tool call id", &call.id, MAX_NAME_CHARS)?;
    bounded("tool name", &call.name, MAX_NAME_CHARS)?;
    bounded("tool arguments", &call.arguments, MAX_ARGUMENTS_CHARS)
}

/// A ledger check's notes for the player (those of the saved scene, and those of the first draft
/// the model was asked to correct): bounded in number and length.
fn check_ledger_notes(lists: [&[String]; 2]) -> Result<(), Wrong> {
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
fn check_recalled(passages: &[RecalledPassage]) -> Result<(), Wrong> {
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
fn check_messages(messages: &[Message]) -> Result<(), Wrong> {
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
fn applied(deltas: &[StateDelta], sheet: &CharacterSheet) -> Option<AppliedChanges> {
    StateDelta::apply_all(deltas, &mut sheet.clone()).ok()
}

/// Whether `effect` is exactly what `command` does to `state`. The match is over every kind of
/// effect, with no catch-all: a new kind does not compile until it is verified here.
/// Whether `proposed` is what `command` proposes in approval mode: the same change, and for
/// the sheet what it would change there now.
fn proposes(command: &ToolCommand, proposed: &Proposed, state: &CampaignState) -> bool {
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
fn called_with_hit_dice(called: &[StateDelta], deltas: &[StateDelta]) -> bool {
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

fn effect_of(command: &ToolCommand, effect: &ToolEffect, state: &CampaignState) -> bool {
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
        // The fight's numbers are checked when it is applied; here, that the step is the call's.
        ToolEffect::Fought { record, .. } => match (command, &record.step) {
            (ToolCommand::StartEncounter(called), FightStep::Start { foes }) => called == foes,
            (ToolCommand::EndEncounter, FightStep::Stop) => true,
            _ => false,
        },
    }
}
