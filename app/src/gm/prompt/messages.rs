//! The words the game master is given: the rules every request starts with, this turn's
//! messages for each phase, and the repair request. How requests are layered: [`super::layers`].

use crate::gm::llm::{JsonSchemaFormat, Message};
use crate::gm::schema::{actions_schema, bounded_actions_schema, ACTIONS_SCHEMA_NAME};

/// The rules for the whole campaign, for every phase (the first bytes of every request). Each
/// thing is said once: when to call each tool is in the tool's own description, which every
/// narration carries.
pub const GM_RULES: &str = "You are the game master of a solo tabletop role-playing game. \
You write the scenes; the game keeps the rules, the dice and the character sheet.
Rules:
- Write each scene in second person, in Markdown, in one to three short paragraphs. Never describe what the player can do next or offer choices: the game does.
- The game rolls the player's dice: narrate a roll result given to you as it is.
- The tools are the only way to roll or change anything (HP, items, conditions, experience, a rest): call the one that fits, wait for its result and narrate exactly that. Never claim a change you did not make with a tool.
- At 0 HP the character is down or fallen as the sheet says: narrate it; the game rolls death saves.
- Keep the journal (keep_journal) and the map (record_place) as the story goes, and stay consistent with the story so far, the journal and the sheet.";

/// The rules for a very small model: a few plain lines and one example scene.
pub const SMALL_GM_RULES: &str = "You narrate a fantasy adventure. The reader is the hero.
Write two to four short sentences in second person (\"You ...\"): what the hero does, sees, \
hears and feels right now. Never write as yourself, never mention a story, a game, a player or \
a character, never ask questions, never list choices.
Example: You push the door open. Cold air smells of wet stone, and somewhere below, water drips.";

/// Phase 2's request (this turn's message): the player's next actions as JSON (the schema
/// sent with it describes each field).
pub const ACTION_RULES: &str = "[Game] Now propose 2 to 4 distinct actions I can take next \
that fit the last scene, as JSON only. Give a diceRoll (\"1d20\", the bare dice: the game adds \
the attribute's modifier), a diceReason, a difficultyClass (5 easy, 10 medium, 15 hard, 20 very \
hard), an attribute and the skill if one fits only when the outcome is uncertain; else null.";

/// The message that asks for the actions.
pub fn actions_message() -> Message {
    Message::user(ACTION_RULES)
}

/// The schema an action list must follow; with `bounded`, with length and range bounds and,
/// given `candidates`, descriptions only from them ([`bounded_actions_schema`]).
pub fn actions_format(bounded: bool, candidates: &[String]) -> JsonSchemaFormat {
    JsonSchemaFormat {
        name: ACTIONS_SCHEMA_NAME.to_owned(),
        schema: if bounded {
            bounded_actions_schema(candidates)
        } else {
            actions_schema()
        },
        strict: true,
    }
}

/// The player's move as the narrator reads it, with the result of their roll if there was one.
pub fn move_message(move_text: &str, roll_line: Option<&str>) -> Message {
    match roll_line {
        Some(roll) => Message::user(format!(
            "{move_text}\n\n[Roll] {roll}\nNarrate this outcome."
        )),
        None => Message::user(move_text),
    }
}

/// The message that asks the model to repair an invalid action list.
pub fn repair_message(error: &str) -> Message {
    Message::user(format!(
        "That answer was not valid: {error}\nAnswer again with the corrected JSON only."
    ))
}

/// The request to write a scene again that claims what the rules did not (the ledger check's
/// `notes`, `the rules say: 5 damage, not 12`).
pub fn correction_message(notes: &[String]) -> Message {
    Message::user(format!(
        "[Game] Your scene disagrees with the rules: {}. Write the whole scene again so that it \
         agrees with them exactly, and keep everything else.",
        notes.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_name_only_registered_tools() {
        let named: Vec<&str> = [GM_RULES, ACTION_RULES]
            .iter()
            .flat_map(|rules| rules.split(|c: char| !c.is_alphanumeric() && c != '_'))
            .filter(|word| word.contains('_'))
            .collect();
        assert!(named.contains(&"keep_journal"), "{named:?}");
        for name in named {
            assert!(crate::gm::tools::find(name).is_some(), "{name}");
        }
    }
}
