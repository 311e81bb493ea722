//! What is at stake: what 0 HP means for the character (the end, or a way back), chosen when the
//! character is made, and the death saves of a heroic game.
//!
//! - **Heroic**: at 0 HP the character is *down*. On each of their turns while down the server
//!   rolls a death save (d20, 10 or more succeeds): three successes and they are *stable* at
//!   0 HP, three failures and they die; a natural 20 brings them back with 1 HP, a natural 1
//!   counts as two failures, and damage taken while down counts as one failure. Any healing
//!   brings them back on their feet.
//! - **Gritty**: at 0 HP the character has fallen; the scene that follows is the last.
//!
//! A dead character's story is over: the campaign has ended, and the rules refuse every change.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::dice::{Check, DiceExpr, DifficultyClass};

/// What 0 HP means, chosen at creation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stakes {
    /// Down at 0 HP, then death saves.
    #[default]
    Heroic,
    /// 0 HP is the end.
    Gritty,
}

impl Stakes {
    /// Both, in the order the creation form offers them.
    pub const ALL: [Stakes; 2] = [Stakes::Heroic, Stakes::Gritty];

    /// The form's value (`heroic`, `gritty`).
    pub fn key(self) -> &'static str {
        match self {
            Stakes::Heroic => "heroic",
            Stakes::Gritty => "gritty",
        }
    }

    /// Its name: `Heroic`, `Gritty`.
    pub fn name(self) -> &'static str {
        match self {
            Stakes::Heroic => "Heroic",
            Stakes::Gritty => "Gritty",
        }
    }

    /// What it means, for the player choosing it.
    pub fn explain(self) -> &'static str {
        match self {
            Stakes::Heroic => "at 0 HP you are down and roll death saves",
            Stakes::Gritty => "at 0 HP you fall, and the story ends",
        }
    }

    /// The stakes whose key is `key`.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|stakes| stakes.key() == key)
    }
}

/// How the character is doing, as the rules see it; internally tagged by `state` (the wasm reads
/// it tag first, as `StoryEntry`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), serde(tag = "state"))]
#[serde(rename_all = "snake_case")]
pub enum Vitality {
    /// On their feet (HP above 0, or a sheet from before stakes were kept).
    #[default]
    Up,
    /// At 0 HP, making death saves.
    Down {
        /// Successful saves so far (0..=2).
        successes: u8,
        /// Failed saves so far (0..=2).
        failures: u8,
    },
    /// At 0 HP, no longer dying.
    Stable,
    /// Dead: the story is over.
    Dead,
}

/// The number of successes or failures that settles a run of death saves.
pub const SAVES_TO_SETTLE: u8 = 3;

/// The lowest d20 that succeeds at a death save.
pub const DEATH_SAVE_DC: u8 = 10;

impl Vitality {
    /// Freshly down.
    pub const DOWN: Vitality = Vitality::Down {
        successes: 0,
        failures: 0,
    };

    /// Whether the character is at 0 HP, alive (down or stable).
    pub fn is_down(self) -> bool {
        matches!(self, Vitality::Down { .. } | Vitality::Stable)
    }

    /// Whether the character must roll a death save on their turn.
    pub fn is_dying(self) -> bool {
        matches!(self, Vitality::Down { .. })
    }

    /// Whether the story is over.
    pub fn is_dead(self) -> bool {
        self == Vitality::Dead
    }

    /// What the player reads on the character panel and in the story's chips.
    pub fn label(self) -> String {
        match self {
            Vitality::Up => "On your feet".to_owned(),
            Vitality::Down {
                successes,
                failures,
            } => format!("Down ({successes} ✓, {failures} ✗)"),
            Vitality::Stable => "Stable at 0 HP".to_owned(),
            Vitality::Dead => "Fallen".to_owned(),
        }
    }

    /// The state after the HP went from `from` to `to`, under `stakes`.
    pub fn after_hp(self, stakes: Stakes, from: u16, to: u16) -> Vitality {
        match (self, to) {
            (Vitality::Dead, _) => Vitality::Dead,
            (_, 1..) => Vitality::Up,
            (Vitality::Up, 0) if from > 0 => match stakes {
                Stakes::Heroic => Vitality::DOWN,
                Stakes::Gritty => Vitality::Dead,
            },
            (state, _) => state,
        }
    }

    /// The state after damage taken at 0 HP: one failed save.
    pub fn after_damage_while_down(self) -> Vitality {
        match self {
            Vitality::Down {
                successes,
                failures,
            } => settle(successes, failures + 1),
            Vitality::Stable => settle(0, 1),
            other => other,
        }
    }

    /// The state after a death save whose d20 showed `die`, and whether it brought the
    /// character back with 1 HP (a natural 20). Only a dying character saves; any other state
    /// comes back unchanged.
    pub fn after_death_save(self, die: u8) -> (Vitality, bool) {
        let Vitality::Down {
            successes,
            failures,
        } = self
        else {
            return (self, false);
        };
        match die {
            20 => (Vitality::Up, true),
            1 => (settle(successes, failures + 2), false),
            d if d >= DEATH_SAVE_DC => (settle(successes + 1, failures), false),
            _ => (settle(successes, failures + 1), false),
        }
    }
}

/// What a death save is called in the story.
pub const DEATH_SAVE: &str = "Death save";

/// Rolls a death save: a plain d20 against [`DEATH_SAVE_DC`].
pub fn roll_death_save<R: Rng + ?Sized>(rng: &mut R) -> Check {
    let dc = DifficultyClass::new(i64::from(DEATH_SAVE_DC)).expect("10 is a valid DC");
    Check::new(DiceExpr::d20().roll(rng), dc)
}

/// Down with these counts, or stable or dead once either reaches three.
fn settle(successes: u8, failures: u8) -> Vitality {
    if failures >= SAVES_TO_SETTLE {
        Vitality::Dead
    } else if successes >= SAVES_TO_SETTLE {
        Vitality::Stable
    } else {
        Vitality::Down {
            successes,
            failures,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_hp_is_down_when_heroic_and_the_end_when_gritty() {
        assert_eq!(Vitality::Up.after_hp(Stakes::Heroic, 5, 0), Vitality::DOWN);
        assert_eq!(Vitality::Up.after_hp(Stakes::Gritty, 5, 0), Vitality::Dead);
        assert_eq!(Vitality::Up.after_hp(Stakes::Heroic, 5, 3), Vitality::Up);
        assert_eq!(
            Vitality::Stable.after_hp(Stakes::Heroic, 0, 2),
            Vitality::Up
        );
        assert_eq!(Vitality::DOWN.after_hp(Stakes::Heroic, 0, 1), Vitality::Up);
        assert_eq!(
            Vitality::Dead.after_hp(Stakes::Heroic, 0, 5),
            Vitality::Dead
        );
    }

    #[test]
    fn death_saves_settle_at_three() {
        let mut state = Vitality::DOWN;
        for die in [12, 3, 10] {
            state = state.after_death_save(die).0;
        }
        assert_eq!(
            state,
            Vitality::Down {
                successes: 2,
                failures: 1
            }
        );
        assert_eq!(state.after_death_save(15), (Vitality::Stable, false));
        assert_eq!(state.after_death_save(1), (Vitality::Dead, false));
        assert_eq!(state.after_death_save(20), (Vitality::Up, true));
        assert_eq!(Vitality::Up.after_death_save(1), (Vitality::Up, false));
    }

    #[test]
    fn damage_while_down_is_a_failed_save() {
        let state = Vitality::Down {
            successes: 1,
            failures: 2,
        };
        assert_eq!(state.after_damage_while_down(), Vitality::Dead);
        assert_eq!(
            Vitality::Stable.after_damage_while_down(),
            Vitality::Down {
                successes: 0,
                failures: 1
            }
        );
        assert_eq!(Vitality::Up.after_damage_while_down(), Vitality::Up);
    }

    #[test]
    fn stakes_round_trip_their_keys() {
        for stakes in Stakes::ALL {
            assert_eq!(Stakes::from_key(stakes.key()), Some(stakes));
        }
        assert_eq!(Stakes::from_key("easy"), None);
    }
}
