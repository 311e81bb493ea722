//! Lenient reading of tool arguments: where the tool's schema makes the meaning clear, a model's
//! sloppy JSON is repaired before it is parsed strictly. A value where the schema wants a whole
//! number becomes one (`"15"` → `15`, `3.0` → `3`, `"+2"` → `2`); objects and arrays are followed
//! into their properties' and items' schemas. Nothing is repaired where the schema says nothing.

use serde_json::{Map, Number, Value};

/// The arguments were not JSON at all.
#[derive(Debug, thiserror::Error)]
#[error("the arguments are not valid JSON ({0})")]
pub struct NotJson(#[from] serde_json::Error);

/// Parses a tool's raw argument text into JSON, then turns numeric-looking strings and whole
/// floats into integers wherever `schema` (the tool's parameters) expects an integer. An empty
/// text is an empty object.
pub fn parse_arguments(raw: &str, schema: &Value) -> Result<Value, NotJson> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let mut value: Value = serde_json::from_str(raw)?;
    coerce(&mut value, schema);
    Ok(value)
}

/// The whole number `value` clearly means: an integer, a whole float, or a string such as
/// `"15"`, `" -5 "` or `"+2"`.
pub fn as_integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number.as_i64().or_else(|| as_whole(number)),
        Value::String(text) => whole_number(text.trim()),
        _ => None,
    }
}

fn coerce(value: &mut Value, schema: &Value) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                if let Some(property) = find(schema, |s| s.get("properties")?.get(key.as_str())) {
                    coerce(inner, property);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = find(schema, |s| s.get("items")) {
                items.iter_mut().for_each(|inner| coerce(inner, item));
            }
        }
        Value::String(_) if admits(schema, "string") => {}
        _ if admits(schema, "integer") => {
            if let Some(number) = as_integer(value) {
                *value = Value::Number(number.into());
            }
        }
        _ => {}
    }
}

/// What `get` finds in `schema` itself or else in the first of its `anyOf` variants that has it.
fn find<'s>(schema: &'s Value, get: impl Fn(&'s Value) -> Option<&'s Value>) -> Option<&'s Value> {
    get(schema).or_else(|| variants(schema).find_map(&get))
}

/// Whether `schema`'s type (or one of its `anyOf` variants' types) is or includes `kind`.
fn admits(schema: &Value, kind: &str) -> bool {
    let own = match schema.get("type") {
        Some(Value::String(ty)) => ty == kind,
        Some(Value::Array(types)) => types.iter().any(|ty| ty == kind),
        _ => false,
    };
    own || variants(schema).any(|variant| admits(variant, kind))
}

fn variants(schema: &Value) -> impl Iterator<Item = &Value> {
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
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
    use crate::gm::tools::{AddInventory, GameTool, UpdateCharacter, UpdateInventory};
    use serde_json::json;

    fn parse<T: GameTool>(raw: &str) -> Value {
        parse_arguments(raw, &T::definition().parameters).unwrap()
    }

    #[test]
    fn numeric_strings_become_numbers_where_the_schema_wants_integers_only() {
        let value = parse::<UpdateCharacter>(
            r#"{"hp": "15", "hpChange": "-5", "sanityChange": -3.0, "location": "12", "unknown": "7"}"#,
        );
        assert_eq!(
            value,
            json!({"hp": 15, "hpChange": -5, "sanityChange": -3, "location": "12", "unknown": "7"})
        );
    }

    #[test]
    fn numbers_inside_arrays_of_objects_are_coerced() {
        let value =
            parse::<UpdateInventory>(r#"{"updates": [{"slug": "torch", "quantityChange": "-1"}]}"#);
        assert_eq!(
            value,
            json!({"updates": [{"slug": "torch", "quantityChange": -1}]})
        );
        let value = parse::<AddInventory>(r#"{"items": [{"name": "Rope", "quantity": "+2"}]}"#);
        assert_eq!(value, json!({"items": [{"name": "Rope", "quantity": 2}]}));
    }

    #[test]
    fn words_and_fractions_stay_as_they_are() {
        let value = parse::<AddInventory>(
            r#"{"items": [{"name": "12", "quantity": 1.5}, {"name": "Rope", "quantity": "lots"}]}"#,
        );
        assert_eq!(
            value,
            json!({"items": [{"name": "12", "quantity": 1.5}, {"name": "Rope", "quantity": "lots"}]})
        );
    }

    #[test]
    fn a_string_stays_a_string_where_the_schema_allows_strings() {
        let schema = json!({"type": "object", "properties": {
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "number": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}
        }});
        let value = parse_arguments(r#"{"either": "5", "number": "5"}"#, &schema).unwrap();
        assert_eq!(value, json!({"either": "5", "number": 5}));
    }

    #[test]
    fn empty_arguments_are_an_empty_object_and_bad_json_is_explained() {
        assert_eq!(parse_arguments("  ", &json!({})).unwrap(), json!({}));
        let error = parse_arguments("{dice: 1d20", &json!({})).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the arguments are not valid JSON"),
            "{error}"
        );
    }
}
