//! The other seats' moves of a round at a table of friends: each friend's move made from their
//! seat, its roll made by the rules against their own sheet with the turn's dice (a retelling
//! gives the same faces back), logged, and told to the narrator beside the host's move. In a
//! fight, each friend's move waits for their turn in the initiative order and is played by the
//! rules then (an attack with their weapon in hand; anything else holds).

use super::log::EventLog;
use super::moves::PlayerMove;
use super::turn_dice::TurnDice;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::{MemberRoll, TurnEvent};
use crate::game::combat::Combatant;
use crate::game::fight::{FightMove, FightStep};
use crate::game::party::Seat;
use crate::gm::tools::ToolTable;
use rand::Rng;

/// A friend's move of the round, parsed.
#[derive(Clone, Debug)]
pub struct SeatMove {
    /// The seat it came from.
    pub seat: Seat,
    /// The move: an offered action or their own words.
    pub player_move: PlayerMove,
}

/// The friends' moves in a fight, waiting for their turn: each seat, and the foe it attacks
/// (none: it holds).
pub(super) type FightSteps = Vec<(Seat, Option<String>)>;

/// Plays the friends' `moves` of the round against `state`'s party: each logged with its roll
/// (in a fight, kept for its turn instead); the lines that tell the narrator, if any, and the
/// fight's moves waiting for their turns.
pub(super) fn seat_moves(
    moves: &[SeatMove],
    state: &CampaignState,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) -> (Option<String>, FightSteps) {
    let mut steps = FightSteps::new();
    let lines: Vec<String> = moves
        .iter()
        .filter_map(|seat_move| seat_move_line(seat_move, state, dice, log, &mut steps))
        .collect();
    ((!lines.is_empty()).then(|| lines.join("\n")), steps)
}

fn seat_move_line(
    seat_move: &SeatMove,
    state: &CampaignState,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
    steps: &mut FightSteps,
) -> Option<String> {
    let member = state.party.at(seat_move.seat)?;
    if member.has_fallen() {
        return None;
    }
    let text = seat_move.player_move.words()?.to_owned();
    let fighting = state.combat.is_running();
    if fighting {
        let target = match &seat_move.player_move {
            PlayerMove::Action(action) => match action.fight() {
                Some(FightMove::Attack { target, .. }) => Some(target.clone()),
                _ => None,
            },
            _ => None,
        };
        steps.push((seat_move.seat, target));
    }
    let (action_id, roll) = match &seat_move.player_move {
        PlayerMove::Action(action) if fighting => (Some(action.id().to_string()), None),
        PlayerMove::Action(action) => {
            let rng = &mut dice.for_roll(&format!("seat {}", seat_move.seat.number()));
            let edge = member.sheet.conditions().roll_effects().checks;
            let roll = action
                .resolve(&member.sheet, edge, rng)
                .map(|resolution| MemberRoll {
                    description: resolution.describe(action.roll_reason()),
                    reason: action.roll_reason().to_owned(),
                    resolution,
                });
            (Some(action.id().to_string()), roll)
        }
        _ => (None, None),
    };
    let name = member.name().to_owned();
    let mut line = format!("[Table] {name} (another player's hero) does: {text}");
    if let Some(roll) = &roll {
        line.push_str(&format!(" — {}", roll.description));
    }
    log.push(TurnEvent::SeatMoved {
        seat: seat_move.seat,
        name,
        text,
        action_id,
        roll,
    });
    Some(line)
}

/// Plays the friends' turns the fight has come to, in the initiative order: each seat's waiting
/// move, or (with `hold_missing`) a hold for a seat that sent none; stops at the hero's turn, or
/// at a seat that must still move. The lines for the narrator.
pub(super) fn seat_fight_turns<R: Rng + ?Sized>(
    steps: &mut FightSteps,
    hold_missing: bool,
    table: &mut ToolTable,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> Vec<String> {
    let mut lines = Vec::new();
    // Each friend acts at most once per call: a bound, whatever the fight does.
    for _ in 0..crate::game::party::MAX_SEATS {
        let Some(seat) = seat_waited_on(table) else {
            break;
        };
        let target = match steps.iter().position(|(at, _)| *at == seat) {
            Some(index) => steps.remove(index).1,
            None if hold_missing => None,
            None => break,
        };
        let step = FightStep::Seat { seat, target };
        match super::fight_turn::play_step(step, table, rng) {
            Some(turn) => {
                turn.events.into_iter().for_each(|event| log.push(event));
                lines.push(turn.line);
            }
            None => break,
        }
    }
    lines
}

/// The seat whose friend the running fight waits on, if it waits on one.
fn seat_waited_on(table: &ToolTable) -> Option<Seat> {
    let encounter = table.combat.current()?;
    let Combatant::Ally(index) = encounter.waiting_on() else {
        return None;
    };
    let name = encounter.allies().get(index)?.name();
    table
        .party
        .members()
        .iter()
        .find(|member| member.name().eq_ignore_ascii_case(name.as_str()))
        .and_then(|member| member.seat())
}
