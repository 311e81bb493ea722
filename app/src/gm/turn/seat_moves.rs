//! The other seats' moves of a round at a table of friends: each friend's move made from their
//! seat, its roll made by the rules against their own sheet with the turn's dice (a retelling
//! gives the same faces back), logged, and told to the narrator beside the host's move.

use super::log::EventLog;
use super::moves::PlayerMove;
use super::turn_dice::TurnDice;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::{MemberRoll, TurnEvent};
use crate::game::party::Seat;

/// A friend's move of the round, parsed.
#[derive(Clone, Debug)]
pub struct SeatMove {
    /// The seat it came from.
    pub seat: Seat,
    /// The move: an offered action or their own words.
    pub player_move: PlayerMove,
}

/// Plays the friends' `moves` of the round against `state`'s party: each logged with its roll;
/// the lines that tell the narrator, if any.
pub(super) fn seat_moves(
    moves: &[SeatMove],
    state: &CampaignState,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let lines: Vec<String> = moves
        .iter()
        .filter_map(|seat_move| seat_move_line(seat_move, state, dice, log))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn seat_move_line(
    seat_move: &SeatMove,
    state: &CampaignState,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let member = state.party.at(seat_move.seat)?;
    if member.has_fallen() {
        return None;
    }
    let text = seat_move.player_move.words()?.to_owned();
    let (action_id, roll) = match &seat_move.player_move {
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
