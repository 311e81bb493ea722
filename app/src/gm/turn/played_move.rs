//! The player's move played before it is narrated: logged, its roll made (or taken back from a
//! retelling), its step in a fight or its cast played by the rules, and told to the model in
//! one message with what the dice said.

use rand::Rng;

use super::death_saves::{death_save, death_save_die, player_roll};
use super::fight_turn::{fight_from_the_scene, fight_turn, picks_a_fight};
use super::log::EventLog;
use super::moves::{opening_move, PlayerMove};
use super::seat_moves::{seat_fight_turns, seat_moves, SeatMove};
use super::spell_turn::{spell_turn, typed_fight_cast};
use super::spine_turn;
use super::turn_dice::TurnDice;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::TurnEvent;
use crate::game::{CharacterSheet, Resolution};
use crate::gm::llm::Message;
use crate::gm::prompt::messages::move_message;
use crate::gm::prose::scene;
use crate::gm::settings::GmSettings;
use crate::gm::tools::ToolTable;

/// The player's move as the model reads it (its words, with the player's roll and the fight's
/// exchange when there are), each recorded in the log as it is made.
pub(super) fn move_of(
    player_move: &PlayerMove,
    table_moves: &[SeatMove],
    state: &CampaignState,
    settings: &GmSettings,
    table: &mut ToolTable,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) -> Message {
    let (move_text, roll_line) = record_move(
        player_move,
        &mut table.sheet,
        settings.full_prompt,
        &mut dice.for_roll("player"),
        log,
    );
    let (table_line, mut steps) = seat_moves(table_moves, state, dice, log);
    let seat_rng = &mut dice.for_roll("seat fight");
    let mut seats_first = seat_fight_turns(&mut steps, true, table, seat_rng, log);
    let rng = &mut dice.for_roll("fight turn");
    let fight_line = fight_part(player_move, state, settings, &move_text, table, rng, log);
    let seat_rng = &mut dice.for_roll("seat fight");
    seats_first.extend(fight_line);
    seats_first.extend(seat_fight_turns(&mut steps, false, table, seat_rng, log));
    let fight_line = (!seats_first.is_empty()).then(|| seats_first.join("\n"));
    let spell_line = match (&fight_line, player_move.words()) {
        (None, Some(words)) => {
            spell_turn(words, table, &mut dice.for_roll("spell")).map(|(event, line)| {
                log.push(event);
                line
            })
        }
        _ => None,
    };
    let fight_line = fight_line.or(spell_line);
    let spine_lines = spine_turn::before_the_scene(
        player_move,
        &state.premise,
        settings.full_prompt,
        table,
        log,
    );
    let spine_line = (!spine_lines.is_empty()).then(|| spine_lines.join("\n"));
    let roll_line = [roll_line, table_line, fight_line, spine_line]
        .into_iter()
        .flatten()
        .reduce(|told, line| format!("{told}\n{line}"));
    if state.refused.is_empty() {
        return move_message(&move_text, roll_line.as_deref());
    }
    let told = format!(
        "{move_text}\n\n[Game] The player refused these changes you proposed: {}. They did not \
         happen; do not rely on them.",
        state.refused.join("; ")
    );
    move_message(&told, roll_line.as_deref())
}

/// The fight's part of the player's move: their turn in the fight under way, played by the
/// rules, or — for a model without tools — a fight the rules start from a failed roll or a
/// move that picks one. The
/// exchange's lines for the narrator, if there was one.
fn fight_part<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    state: &CampaignState,
    settings: &GmSettings,
    move_text: &str,
    table: &mut ToolTable,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let (inner, faces) = match player_move {
        PlayerMove::Retold(inner, retelling) => (inner.as_ref(), retelling.fight_faces.as_slice()),
        other => (other, &[][..]),
    };
    let typed = match inner {
        PlayerMove::Text(text) => typed_fight_cast(text.as_str(), table),
        _ => None,
    };
    let chosen = match inner {
        PlayerMove::Opening(_) => return None,
        PlayerMove::Action(action) => action.fight(),
        _ => typed.as_ref(),
    };
    let failed = log.events.iter().any(|event| {
        matches!(event, TurnEvent::PlayerRoll { resolution: Resolution::Check(check), .. }
            if !check.is_success())
    });
    let texts = [move_text, scene::last_scene(state).unwrap_or_default()];
    let played = fight_turn(chosen, faces, table, rng).or_else(|| {
        let no_tools = !settings.full_prompt;
        let trigger = failed || picks_a_fight(move_text);
        fight_from_the_scene(no_tools && trigger, texts, table, rng)
    })?;
    for event in played.events {
        log.push(event);
    }
    Some(played.line)
}

/// Logs the player's move (not an opening) and resolves the roll of a chosen action (or takes
/// back the roll a retold move had): the move as the narrator reads it, and the roll's line if
/// there was one (`full`: an opening in the full prompt's words, see [`opening_move`]).
fn record_move<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    sheet: &mut CharacterSheet,
    full: bool,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> (String, Option<String>) {
    let (inner, retelling) = match player_move {
        PlayerMove::Retold(inner, retelling) => (inner.as_ref(), Some(retelling)),
        other => (other, None),
    };
    let (move_text, action_id) = match inner {
        PlayerMove::Action(action) => (
            action.description().as_str().to_owned(),
            Some(action.id().to_string()),
        ),
        PlayerMove::Text(text) => (text.as_str().to_owned(), None),
        PlayerMove::Opening(premise) => (opening_move(premise.as_str(), full), None),
        PlayerMove::Retold(..) => (String::new(), None),
    };
    let opening = matches!(inner, PlayerMove::Opening(_));
    if !opening {
        log.push(TurnEvent::Move {
            text: move_text.clone(),
            action_id,
        });
    }
    let rolled = match (inner, retelling) {
        (_, Some(retelling)) => retelling.player_roll.clone(),
        _ if opening => None,
        _ => player_roll(inner, sheet, rng),
    };
    let roll_line = rolled.map(|(reason, resolution)| {
        let mut description = resolution.describe(&reason);
        let save = death_save_die(sheet, &resolution);
        log.push(TurnEvent::PlayerRoll {
            reason,
            resolution,
            description: description.clone(),
        });
        if let Some(die) = save {
            description.push_str(&death_save(sheet, die, log));
        }
        description
    });
    (move_text, roll_line)
}
