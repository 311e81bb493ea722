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

use super::start::parse_form;
use crate::campaign::bounds::fits;
use crate::campaign::conversation::TokenUsage;
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::{CampaignState, ProjectionError};
use crate::game::creation::{created_before_powers, created_before_typed_items, CharacterDraft};
use crate::game::{ActionList, CharacterSheet, JournalChange};
use crate::gm::prompt::layers::MAX_SUMMARY_CHARS;
use crate::gm::tools::ToolCommand;

mod checks;
mod turn;

use crate::wire::view::NewCampaign;
use checks::*;

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
    /// A change of the story's plan the rules would not have made.
    #[error("the story's plan: {0}")]
    Spine(&'static str),
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
    /// A friend's move from a seat nobody holds, or a roll their action does not make.
    #[error("a friend's move is not from a seat at the table, or its roll is not the action's")]
    SeatMove,
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
        companions: Vec::new(),
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

/// A friend's hero or a companion exactly as the creation form makes them where they join.
fn fresh_member(sheet: &CharacterSheet) -> Result<(), Wrong> {
    let fresh = CharacterDraft::of(sheet)
        .create(sheet.location().clone())
        .map_err(|_| Wrong::Character)?;
    if fresh == *sheet {
        Ok(())
    } else {
        Err(Wrong::Character)
    }
}

/// A tool call as the log recorded it: the tool's name, the command it parsed into (none when
/// it did not) and the character it named, if any.
type Call = (String, Option<ToolCommand>, Option<String>);

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
    calls: HashMap<String, Call>,
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
            // Its bounds are the projector's; its bytes are checked with the file's pictures.
            CampaignEvent::NotesShown { .. } | CampaignEvent::Pictured { .. } => Ok(()),
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
            // The projector seats them by the table's rules; here, that each is a fresh
            // character as the creation form makes them.
            CampaignEvent::Seated { sheet, .. } | CampaignEvent::CompanionJoined { sheet } => {
                fresh_member(sheet)
            }
            CampaignEvent::Unseated { .. } => Ok(()),
            CampaignEvent::RoundWaitSet { secs } => {
                let (least, _, most) = crate::game::party::ROUND_WAIT;
                if (least..=most).contains(secs) {
                    Ok(())
                } else {
                    Err(Wrong::NotThePlayers)
                }
            }
        }
    }
}
