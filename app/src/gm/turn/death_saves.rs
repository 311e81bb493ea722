//! The roll a move makes on its own, a dying character's death save among them, and the death
//! save applied to the sheet.

use rand::Rng;

use super::log::EventLog;
use super::moves::PlayerMove;
use crate::campaign::turn_event::TurnEvent;
use crate::game::stakes::{roll_death_save, DEATH_SAVE};
use crate::game::{CharacterSheet, Resolution, StateDelta};

/// The roll a move makes on its own (not retold): a death save while the character is dying,
/// else the chosen action's roll if it has one.
pub fn player_roll<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    sheet: &CharacterSheet,
    rng: &mut R,
) -> Option<(String, Resolution)> {
    if sheet.vitality().is_dying() {
        let check = roll_death_save(rng);
        return Some((DEATH_SAVE.to_owned(), Resolution::Check(check)));
    }
    match player_move {
        PlayerMove::Action(action) => action
            .resolve(sheet, sheet.conditions().roll_effects().checks, rng)
            .map(|resolution| (action.roll_reason().to_owned(), resolution)),
        _ => None,
    }
}

/// The d20 of a dying character's roll (which is their death save).
pub(super) fn death_save_die(sheet: &CharacterSheet, resolution: &Resolution) -> Option<u8> {
    let Resolution::Check(check) = resolution else {
        return None;
    };
    let die = check.roll().natural_d20()?;
    sheet
        .vitality()
        .is_dying()
        .then(|| u8::try_from(die).ok())
        .flatten()
}

/// Applies a death save to the sheet and logs it; what it did, for the narrator.
pub(super) fn death_save(sheet: &mut CharacterSheet, die: u8, log: &mut EventLog<'_>) -> String {
    let deltas = vec![StateDelta::DeathSave { die }];
    match StateDelta::apply_all(&deltas, sheet) {
        Ok(changes) => {
            let labels = changes.labels().join(", ");
            log.push(TurnEvent::Ruled {
                cause: DEATH_SAVE.to_owned(),
                deltas,
                changes,
            });
            format!(". {}: {labels}", sheet.name())
        }
        Err(_) => String::new(),
    }
}
