//! The largest values a campaign's log may hold. Play never writes more (the model's replies are
//! cut to them), and an imported file is held to the same bounds event by event.

/// The most characters of a scene's narrative.
pub const MAX_NARRATION_CHARS: usize = 16_000;

/// The most characters of one message the model's history keeps.
pub const MAX_MESSAGE_CHARS: usize = 16_000;

/// The most messages one narration adds to the model's history.
pub const MAX_MESSAGES_PER_TURN: usize = 64;

/// The most characters of a tool call's arguments.
pub const MAX_ARGUMENTS_CHARS: usize = 8_000;

/// The most characters of a tool call's id or a tool's name.
pub const MAX_NAME_CHARS: usize = 128;

/// The most characters of a tool's result as the model reads it.
pub const MAX_RESULT_CHARS: usize = 16_000;

/// The most notes one ledger check holds (one per contradiction), and the most characters a note.
pub const MAX_LEDGER_NOTES: (usize, usize) = (32, 500);

/// The most passages one narration recalls, and the most characters of each (its sentences
/// cut to 320, and the `…` that says so).
pub const MAX_RECALLED: (usize, usize) = (3, 321);

/// Cuts `text` to at most `max` characters (on a character boundary); whether it was longer.
pub fn cut(text: &mut String, max: usize) -> bool {
    match text.char_indices().nth(max) {
        Some((end, _)) => {
            text.truncate(end);
            true
        }
        None => false,
    }
}

/// Whether `text` has at most `max` characters (without counting past `max`).
pub fn fits(text: &str, max: usize) -> bool {
    text.len() <= max || text.chars().nth(max).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutting_keeps_whole_characters() {
        let (mut long, mut short) = ("héllo".to_owned(), "hé".to_owned());
        assert!(cut(&mut long, 2) && long == "hé");
        assert!(!cut(&mut short, 5) && short == "hé");
        assert!(fits("ééé", 3) && !fits("éééé", 3));
    }
}
