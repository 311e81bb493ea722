//! Campaign files that are cheap to send and were dear to serve, made from an exported campaign
//! whose opening scene (played by [`SCENARIO`]) lowers the hit points by one and raises them again.
//! Shared by `tests/integration/bounded_work.rs` and `benches/cheap_requests.rs`.

use serde_json::Value;

/// A scripted model whose every scene first calls `update_character` twice (−1 HP, then +1 HP),
/// each after a roll that backs it.
pub const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d4", "reason": "Slate"}},
      {"name": "update_character", "arguments": {"hpChange": -1}}]},
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d4", "reason": "Salve"}},
      {"name": "update_character", "arguments": {"hpChange": 1}}]},
    {"text": "A gate in the rain."}
  ],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

/// `file` (an export of a campaign opened by [`SCENARIO`]) with both calls' arguments padded
/// with white space to `padding` bytes, and their results (−1 HP, +1 HP) repeated `times` times
/// in all: `2 × times` changes, each caused by a call of `padding` bytes, as the rules allow.
pub fn repeated_changes(mut file: Value, padding: usize, times: usize) -> Value {
    let events = file["events"].as_array_mut().expect("a campaign file");
    let mut results = Vec::new();
    let mut last = 0;
    for (index, stored) in events.iter_mut().enumerate() {
        let event = &mut stored["event"];
        if event["type"] == "tool_called" && event["call"]["name"] == "update_character" {
            let arguments = &mut event["call"]["arguments"];
            let text = arguments.as_str().expect("arguments as text");
            let open = &text[..text.len() - 1];
            *arguments = Value::from(format!(
                "{open}{:1$}}}",
                "",
                padding.saturating_sub(text.len())
            ));
        } else if event["type"] == "tool_result" && event["tool"] == "update_character" {
            results.push(stored.clone());
            last = index;
        }
    }
    assert_eq!(results.len(), 2, "the opening's two calls");
    let repeated = (1..times).flat_map(|_| results.iter().cloned());
    events.splice(last + 1..last + 1, repeated);
    file
}

/// `file` (an export of a campaign opened by [`SCENARIO`]) with the opening scene, as the model
/// remembers it, replaced by one word of `bytes` bytes.
pub fn long_word(mut file: Value, bytes: usize) -> Value {
    let events = file["events"].as_array_mut().expect("a campaign file");
    let remembered = events
        .iter_mut()
        .filter(|stored| stored["event"]["event"] == "model_messages")
        .flat_map(|stored| {
            stored["event"]["messages"]
                .as_array_mut()
                .expect("messages")
        })
        .find(|message| message["role"] == "assistant" && message["content"].is_string())
        .expect("the opening scene as the model remembers it");
    remembered["content"] = Value::from(word(bytes));
    file
}

/// One word of `bytes` letters, without a space.
pub fn word(bytes: usize) -> String {
    "thequickbrownfoxjumpsoverthelazydog"
        .chars()
        .cycle()
        .take(bytes)
        .collect()
}
