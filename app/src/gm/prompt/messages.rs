//! The words the game master is given: the rules every request starts with, this turn's
//! messages for each phase, and the repair request. How requests are layered: [`super::layers`].

use crate::gm::llm::{JsonSchemaFormat, Message};
use crate::gm::schema::{actions_schema, bounded_actions_schema, ACTIONS_SCHEMA_NAME};

/// The rules for the whole campaign, for every phase (the first bytes of every request).
pub const GM_RULES: &str = "You are the game master of a solo tabletop role-playing game. \
You write the scenes; the game keeps the rules, the dice and the character sheet.
Rules:
- Write each scene in second person, in Markdown, in one to three short paragraphs.
- Do NOT describe what the player can do next and do not offer choices: the game does that.
- The game rolls the player's dice. When a roll result is given, narrate that outcome; never change it.
- Any foe's attack is a fight: start_encounter (even for one ambush blow); the game rolls every attack and its damage: tell exactly the exchange it gives. A trap, fall, fire or poison: the hazard tool with its severity; the game rolls its damage. Other dice: roll_dice, then wait; damage or healing from it is at most its total.
- Change the character only with the tools (damage or healing, items gained or used up, conditions). Never claim a change you did not make with a tool.
- When the player's own words attempt something risky or uncertain, call request_check (attribute, skill if one fits, difficultyClass, reason) and narrate what follows from its result.
- When the story has not settled a yes/no fact about the world, call ask_oracle with a likelihood and follow its answer; when an uncertain event has several possible outcomes (who answers, what the chest holds), call roll_on_table and follow the outcome it picks.
- To tell the player something outside the story (a rule, an item they lack), call speak_to_player; never put it in the narration.
- Award experience with award_experience when a challenge is overcome; the game grants levels. A rest is the rest tool.
- At 0 HP the character is down or fallen as the sheet says: narrate it; the game rolls death saves.
- When the character reaches a new place, record it and where it leads with record_place.
- Note people met, places, open threads, promises and debts with keep_journal, and close entries that no longer matter.
- Stay consistent with the story so far, the journal and the character sheet.";

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
        assert!(named.contains(&"roll_dice"), "{named:?}");
        assert!(named.contains(&"keep_journal"), "{named:?}");
        for name in named {
            assert!(crate::gm::tools::find(name).is_some(), "{name}");
        }
    }
}
