//! The player's move: what they typed ([`MoveText`]), a chosen action or the opening premise
//! ([`PlayerMove`]), and the dice a move told again keeps ([`Retelling`]).

use super::turn_dice::Draws;
use crate::game::complication::Complication;
use crate::game::{Action, Resolution};

/// The most characters a typed move may have.
pub const MAX_MOVE_CHARS: usize = 2000;

/// What the player typed, trimmed: 1 to [`MAX_MOVE_CHARS`] characters, no control characters
/// other than line breaks and tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText(String);

/// Why typed text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing but whitespace.
    #[error("write what you do first")]
    Empty,
    /// Longer than [`MAX_MOVE_CHARS`].
    #[error("that is {0} characters; a move may have at most {MAX_MOVE_CHARS}")]
    TooLong(usize),
    /// A control character.
    #[error("the text contains a control character")]
    ControlCharacter,
}

impl MoveText {
    /// Parses what the player typed.
    pub fn parse(raw: &str) -> Result<Self, MoveTextError> {
        let text = raw.trim();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(MoveTextError::Empty);
        }
        if chars > MAX_MOVE_CHARS {
            return Err(MoveTextError::TooLong(chars));
        }
        if text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            return Err(MoveTextError::ControlCharacter);
        }
        Ok(Self(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The player's move: an offered action (as the server stored it) or their own words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerMove {
    /// They clicked an action button.
    Action(Action),
    /// They typed what they do.
    Text(MoveText),
    /// The campaign begins from this premise (the opening scene; not shown as a move).
    Opening(MoveText),
    /// A move told again with the dice it had: its player roll is not rolled again and every
    /// other roll gets back the draws of its kind.
    Retold(Box<PlayerMove>, Retelling),
}

impl PlayerMove {
    /// The player's words, if the move is one they made (not the opening).
    pub fn words(&self) -> Option<&str> {
        match self {
            Self::Action(action) => Some(action.description().as_str()),
            Self::Text(text) => Some(text.as_str()),
            Self::Opening(_) => None,
            Self::Retold(inner, _) => inner.words(),
        }
    }
}

/// The dice of a turn being told again, read from the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retelling {
    /// The player's roll (with its verdict), if the move had one.
    pub player_roll: Option<(String, Resolution)>,
    /// The dice the turn was told with, by kind of roll (none in logs written before they were
    /// kept): each kind of roll of the new telling gets them back first (see [`TurnDice`]).
    pub draws: Draws,
    /// The faces of the player's step in a fight, in the order rolled (the step, played again
    /// from the same state, shows the same dice).
    pub fight_faces: Vec<u16>,
    /// The complication a failed roll cost, if it cost one.
    pub complication: Option<Complication>,
}

/// What the narrator is asked for the opening scene; for a very small model (no `full`
/// prompt), in the words it should answer in.
pub(super) fn opening_move(premise: &str, full: bool) -> String {
    if full {
        format!(
            "Begin the adventure with this premise: {premise}\nFirst write the story's hidden \
             plan with write_plan. Then set the opening scene and give the character's location \
             with update_character if it matters."
        )
    } else {
        format!("{premise}\nDescribe where you are and what you see, hear and feel.")
    }
}

#[cfg(test)]
mod tests {
    use super::opening_move;
    use crate::gm::tools;

    #[test]
    fn the_opening_request_names_registered_tools() {
        let text = opening_move("A storm", true);
        let named: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|word| word.contains('_'))
            .collect();
        assert_eq!(named, ["write_plan", "update_character"]);
        assert!(named.iter().all(|name| tools::find(name).is_some()));
    }
}
