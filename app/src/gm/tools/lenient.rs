//! Lenient reading of tool arguments: where the meaning is clear, a model's sloppy JSON is
//! repaired before it is parsed strictly (`"15"` → `15`, `3.0` → `3`, `"+2"` → `2`).

use serde_json::{Map, Number, Value};

/// Keys whose values are whole numbers in some tool's arguments.
const NUMERIC_KEYS: [&str; 8] = [
    "quantity",
    "quantityChange",
    "hp",
    "hpChange",
    "maxHp",
    "level",
    "sanityChange",
    "minutesPassed",
];

/// The object key whose every value is a whole number (attribute scores).
const NUMERIC_MAP_KEY: &str = "stats";

/// Parses a tool's raw argument text into JSON, then turns numeric-looking strings and whole
/// floats into integers wherever a tool expects a number. An empty text is an empty object.
pub fn parse_arguments(raw: &str) -> Result<Value, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let mut value: Value = serde_json::from_str(raw)
        .map_err(|error| format!("the arguments are not valid JSON ({error})"))?;
    coerce(&mut value, false);
    Ok(value)
}

fn coerce(value: &mut Value, numeric: bool) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                if key == NUMERIC_MAP_KEY {
                    if let Value::Object(scores) = inner {
                        scores.values_mut().for_each(|score| coerce(score, true));
                    }
                } else {
                    coerce(inner, NUMERIC_KEYS.contains(&key.as_str()));
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| coerce(item, numeric)),
        Value::String(text) if numeric => {
            if let Some(number) = whole_number(text.trim()) {
                *value = Value::Number(number.into());
            }
        }
        Value::Number(number) if numeric => {
            if let Some(whole) = as_whole(number) {
                *value = Value::Number(whole.into());
            }
        }
        _ => {}
    }
}

fn whole_number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.len() > 10 {
        return None;
    }
    digits.parse().ok()
}

fn as_whole(number: &Number) -> Option<i64> {
    let float = number.as_f64().filter(|_| number.is_f64())?;
    (float.fract() == 0.0 && float.abs() < 1e9).then_some(float as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numeric_strings_become_numbers_at_numeric_keys_only() {
        let value = parse_arguments(
            r#"{"hp": "15", "hpChange": "-5", "level": 3.0, "reason": "12", "stats": {"wisdom": "+2"}}"#,
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"hp": 15, "hpChange": -5, "level": 3, "reason": "12", "stats": {"wisdom": 2}})
        );
    }

    #[test]
    fn numbers_inside_arrays_of_objects_are_coerced() {
        let value =
            parse_arguments(r#"{"updates": [{"slug": "torch", "quantityChange": "-1"}]}"#).unwrap();
        assert_eq!(
            value,
            json!({"updates": [{"slug": "torch", "quantityChange": -1}]})
        );
    }

    #[test]
    fn words_and_fractions_stay_as_they_are() {
        let value = parse_arguments(r#"{"hp": "lots", "quantity": 1.5}"#).unwrap();
        assert_eq!(value, json!({"hp": "lots", "quantity": 1.5}));
    }

    #[test]
    fn empty_arguments_are_an_empty_object_and_bad_json_is_explained() {
        assert_eq!(parse_arguments("  ").unwrap(), json!({}));
        let error = parse_arguments("{dice: 1d20").unwrap_err();
        assert!(
            error.starts_with("the arguments are not valid JSON"),
            "{error}"
        );
    }
}
