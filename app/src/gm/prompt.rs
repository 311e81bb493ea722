//! The words the game master is given: rules for each phase and how requests are assembled.
//!
//! Every request starts with the same bytes (the rules), then the character sheet, then the
//! conversation, so a provider's prompt cache can reuse the prefix.

use super::llm::{JsonSchemaFormat, LlmRequest, Message, ToolDefinition};
use super::schema::{actions_schema, bounded_actions_schema, ACTIONS_SCHEMA_NAME};
use super::sheet_text::describe_sheet;
use crate::game::CharacterSheet;

/// Phase 1's rules (seed 001): write the scene, roll only when the story needs it.
pub const NARRATOR_RULES: &str = "You are the game master of a solo tabletop role-playing game. \
Write the next scene in second person, in Markdown, in one to three short paragraphs.
Rules:
- Do NOT describe what the player can do next and do not offer choices: the game does that.
- The game rolls the player's dice. When a roll result is given, narrate that outcome; never change it.
- Only roll dice if the story requires it (e.g. an opponent attacks): call roll_dice and wait for the result before you narrate the outcome.
- Change the character only with the tools (damage or healing, items gained or used up, conditions). Never claim a change you did not make with a tool.
- Stay consistent with the character sheet.";

/// Phase 2's rules: propose the player's next actions as JSON.
pub const ACTION_RULES: &str = "You propose the actions a player can take next in a solo \
tabletop role-playing game. Answer with JSON only: {\"actions\": [...]} with 2 to 4 distinct \
actions that fit the last scene.
Each action: id (short kebab-case), description (what the player does, one sentence), \
diceRoll (\"1d20\" when the outcome is uncertain, else null), diceReason (e.g. \"Stealth\", else null), \
difficultyClass (5 easy, 10 medium, 15 hard, 20 very hard; null without dice), attribute \
(STR, DEX, CON, INT, WIS or CHA whose modifier applies, else null). The game adds the attribute \
modifier itself, so diceRoll is the bare dice.";

/// The request that asks the player's next actions (after the narrative is in `history`).
/// With `bounded`, the schema carries length and range bounds ([`bounded_actions_schema`]).
pub fn actions_request(
    sheet: &CharacterSheet,
    history: &[Message],
    max_tokens: u32,
    bounded: bool,
) -> LlmRequest {
    let mut messages = Vec::with_capacity(history.len() + 2);
    messages.push(Message::system(format!(
        "{ACTION_RULES}\n\nCharacter sheet:\n{}",
        describe_sheet(sheet)
    )));
    messages.extend(history.iter().cloned());
    messages.push(Message::user("List the actions I can take next, as JSON."));
    LlmRequest {
        messages,
        tools: Vec::new(),
        response_format: Some(JsonSchemaFormat {
            name: ACTIONS_SCHEMA_NAME.to_owned(),
            schema: if bounded {
                bounded_actions_schema()
            } else {
                actions_schema()
            },
            strict: true,
        }),
        temperature: Some(0.7),
        max_tokens: Some(max_tokens),
    }
}

/// A narration request: rules and sheet, the conversation so far, and this turn's messages.
pub fn narration_request(
    sheet: &CharacterSheet,
    history: &[Message],
    turn: &[Message],
    tools: Vec<ToolDefinition>,
    max_tokens: u32,
) -> LlmRequest {
    let mut messages = Vec::with_capacity(history.len() + turn.len() + 1);
    messages.push(Message::system(format!(
        "{NARRATOR_RULES}\n\nCharacter sheet:\n{}",
        describe_sheet(sheet)
    )));
    messages.extend(history.iter().cloned());
    messages.extend(turn.iter().cloned());
    LlmRequest {
        messages,
        tools,
        response_format: None,
        temperature: Some(0.8),
        max_tokens: Some(max_tokens),
    }
}

/// The end of `history` that fits in `max_chars` characters: whole turns (each starts with the
/// player's message), newest first, and always the latest turn even if it alone is longer.
pub fn recent_history(history: &[Message], max_chars: usize) -> &[Message] {
    let mut start = history.len();
    let mut used = 0;
    for (index, message) in history.iter().enumerate().rev() {
        used += message_chars(message);
        if matches!(message, Message::User { .. }) || index == 0 {
            if used > max_chars && start < history.len() {
                break;
            }
            start = index;
        }
    }
    &history[start..]
}

/// The characters of a message the model reads (text, tool names and arguments).
fn message_chars(message: &Message) -> usize {
    match message {
        Message::System { content } | Message::User { content } | Message::Tool { content, .. } => {
            content.len()
        }
        Message::Assistant {
            content,
            tool_calls,
        } => {
            content.as_ref().map_or(0, String::len)
                + tool_calls
                    .iter()
                    .map(|call| call.name.len() + call.arguments.len())
                    .sum::<usize>()
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(n: usize, chars: usize) -> Vec<Message> {
        vec![
            Message::user(format!("move {n}")),
            Message::assistant("x".repeat(chars)),
        ]
    }

    #[test]
    fn the_rules_name_only_registered_tools() {
        let named: Vec<&str> = [NARRATOR_RULES, ACTION_RULES]
            .iter()
            .flat_map(|rules| rules.split(|c: char| !c.is_alphanumeric() && c != '_'))
            .filter(|word| word.contains('_'))
            .collect();
        assert!(named.contains(&"roll_dice"), "{named:?}");
        for name in named {
            assert!(crate::gm::tools::find(name).is_some(), "{name}");
        }
    }

    #[test]
    fn recent_history_keeps_whole_turns_that_fit_newest_first() {
        let history: Vec<Message> = (1..=5).flat_map(|n| turn(n, 100)).collect();
        // Each turn is 106 characters: three fit in 350.
        let recent = recent_history(&history, 350);
        assert_eq!(recent, &history[4..]);
        assert_eq!(recent.first(), Some(&Message::user("move 3")));
        assert_eq!(recent_history(&history, 10_000), &history[..]);
    }

    #[test]
    fn recent_history_always_keeps_the_latest_turn() {
        let history: Vec<Message> = (1..=3).flat_map(|n| turn(n, 1_000)).collect();
        assert_eq!(recent_history(&history, 10), &history[4..]);
        assert!(recent_history(&[], 10).is_empty());
    }

    #[test]
    fn recent_history_keeps_an_opening_scene_without_a_move_when_it_fits() {
        let mut history = vec![Message::assistant("The opening scene.")];
        history.extend(turn(1, 10));
        assert_eq!(recent_history(&history, 1_000), &history[..]);
        assert_eq!(recent_history(&history, 20), &history[1..]);
    }
}
