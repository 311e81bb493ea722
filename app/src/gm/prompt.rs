//! The words the game master is given: rules for each phase and how requests are assembled.
//!
//! Every request starts with the same bytes (the rules), then the character sheet, then the
//! conversation, so a provider's prompt cache can reuse the prefix.

use super::llm::{JsonSchemaFormat, LlmRequest, Message, ToolDefinition};
use super::sheet_text::describe_sheet;
use crate::game::{ActionList, CharacterSheet};

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
pub fn actions_request(sheet: &CharacterSheet, history: &[Message], max_tokens: u32) -> LlmRequest {
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
            name: ActionList::SCHEMA_NAME.to_owned(),
            schema: ActionList::json_schema(),
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
