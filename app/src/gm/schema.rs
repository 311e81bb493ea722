//! JSON schemas shaped for the model provider: the form OpenAI's strict structured outputs accept
//! (`response_format: {type: "json_schema", strict: true}`, and strict function parameters), and
//! the action list's schema with grammar bounds for llama.cpp. The rules (`game`) only derive
//! plain schemas with schemars; what a provider needs of them is decided here.
//!
//! [`strict_schema`] derives a type's schema with schemars, inlines every subschema, then
//! [`make_strict`] rewrites it: every object lists all its properties in `required` and sets
//! `additionalProperties: false`; an optional field (`anyOf: [T, null]`) becomes a nullable type
//! (`"type": ["string", "null"]`, `null` added to an `enum`); `oneOf` becomes `anyOf`; keywords
//! strict mode may refuse (`minLength`, `maxLength`, `minimum`, `maximum`, `format`, `pattern`,
//! `minItems`, `maxItems`, `default`, `examples`) and noise (`$schema`, `title`) are removed.
//! Descriptions stay: they are the model's instructions. The bounds removed here are still
//! enforced when the answer is parsed.
//!
//! Properties keep the Rust field order (the order the model writes them in) when serde_json's
//! `preserve_order` is on, as the `ssr` feature (which the game master needs) turns it on.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use crate::game::ActionListDraft;

/// Keywords removed from every schema object.
const REMOVED_KEYWORDS: [&str; 17] = [
    "$schema",
    "title",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "default",
    "examples",
    "deprecated",
];

/// The strict JSON schema of `T` (see the module docs).
pub fn strict_schema<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let mut value = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    make_strict(&mut value);
    value
}

/// Rewrites `schema` in place into OpenAI's strict form (see the module docs).
pub fn make_strict(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    for keyword in REMOVED_KEYWORDS {
        map.remove(keyword);
    }
    if let Some(one_of) = map.remove("oneOf") {
        map.insert("anyOf".to_owned(), one_of);
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties.values_mut().for_each(make_strict);
        let required = properties.keys().cloned().map(Value::String).collect();
        map.insert("required".to_owned(), Value::Array(required));
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
    } else if is_object_type(map) {
        map.insert("properties".to_owned(), Value::Object(Map::new()));
        map.insert("required".to_owned(), Value::Array(Vec::new()));
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for key in ["items", "not"] {
        if let Some(sub) = map.get_mut(key) {
            make_strict(sub);
        }
    }
    for key in ["anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(subs)) = map.get_mut(key) {
            subs.iter_mut().for_each(make_strict);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = map.get_mut(key) {
            defs.values_mut().for_each(make_strict);
        }
    }
    collapse_nullable(map);
}

/// Makes a tool's strict `schema` compact, for the bytes every call pays for the tool list: an
/// `anyOf` of described string constants (an enum whose variants carry doc comments) becomes one
/// `enum` whose description names each value with its meaning (`"very_unlikely 10%; ..."`,
/// unless the own description names every value already), and an array's items carry no
/// descriptions (their field names say them; the array's own description says the rest).
///
/// Tools go with `strict` off (`server::llm::openai::wire::wire_tool`), so the strict form's
/// extras go too: no `additionalProperties: false` (a grammar-sampling server such as llama.cpp
/// adds no unlisted property without it either, and the arguments' types ignore unknown fields),
/// and `required` lists only the arguments that cannot be null (a nullable one left out is
/// `None`, as a null is; an empty list is left out).
pub fn compact_tool_schema(schema: &mut Value) {
    compact(schema, true);
}

/// [`compact_tool_schema`], keeping the descriptions if `described`.
fn compact(schema: &mut Value, described: bool) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(items) = map.get_mut("items") {
        compact(items, false);
    }
    if let Some(sub) = map.get_mut("not") {
        compact(sub, described);
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties
            .values_mut()
            .for_each(|sub| compact(sub, described));
    }
    if let Some(Value::Array(subs)) = map.get_mut("anyOf") {
        subs.iter_mut().for_each(|sub| compact(sub, described));
    }
    fold_described_constants(map);
    if !described {
        map.remove("description");
    }
    collapse_nullable(map);
    require_only_the_non_nullable(map);
    optional_without_null(map);
}

/// Takes the null out of each optional property's type and enum (an argument left out reads as
/// null, so saying it costs bytes and tells the model nothing): `["integer", "null"]` becomes
/// `"integer"`. Run after [`require_only_the_non_nullable`] has read them.
fn optional_without_null(map: &mut Map<String, Value>) {
    let required = map.get("required").cloned().unwrap_or_default();
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        let listed = required
            .as_array()
            .is_some_and(|names| names.iter().any(|n| n == name.as_str()));
        let Value::Object(property) = property else {
            continue;
        };
        if listed {
            continue;
        }
        if let Some(Value::Array(types)) = property.get_mut("type") {
            types.retain(|ty| ty != "null");
            if types.len() == 1 {
                let only = types.remove(0);
                property.insert("type".to_owned(), only);
            }
        }
        if let Some(Value::Array(values)) = property.get_mut("enum") {
            values.retain(|value| !value.is_null());
        }
    }
}

/// Drops `additionalProperties` and keeps in `required` only the properties that cannot be null
/// (see [`compact_tool_schema`]).
fn require_only_the_non_nullable(map: &mut Map<String, Value>) {
    map.remove("additionalProperties");
    let Some(Value::Array(mut required)) = map.remove("required") else {
        return;
    };
    if let Some(Value::Object(properties)) = map.get("properties") {
        required.retain(|name| {
            let property = name.as_str().and_then(|name| properties.get(name));
            !property.is_some_and(is_nullable)
        });
    }
    if !required.is_empty() {
        map.insert("required".to_owned(), Value::Array(required));
    }
}

/// Whether `schema` admits null (a nullable type, a null in its enum or a null variant).
fn is_nullable(schema: &Value) -> bool {
    let null = Value::from("null");
    let typed = match schema.get("type") {
        Some(Value::Array(types)) => types.contains(&null),
        Some(ty) => *ty == null,
        None => false,
    };
    let listed = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.contains(&Value::Null));
    let variant = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|variants| variants.iter().any(is_nullable));
    typed || listed || variant
}

/// `{"anyOf": [{"const": "a", "description": "A."}, ...]}` (each variant a string constant, or
/// null) into `{"type": "string", "enum": ["a", ...], "description": "Own: a A; ..."}`.
fn fold_described_constants(map: &mut Map<String, Value>) {
    let Some(Value::Array(variants)) = map.get("anyOf") else {
        return;
    };
    let mut values = Vec::new();
    let mut meanings = Vec::new();
    let mut nullable = false;
    for variant in variants {
        if variant.get("type").and_then(Value::as_str) == Some("null") {
            nullable = true;
            continue;
        }
        let Some(Value::String(value)) = variant.get("const") else {
            return;
        };
        values.push(Value::String(value.clone()));
        if let Some(Value::String(meaning)) = variant.get("description") {
            meanings.push(format!("{value} {}", meaning.trim_end_matches('.')));
        }
    }
    map.remove("anyOf");
    let own = map.get("description").and_then(Value::as_str).unwrap_or("");
    let named = values
        .iter()
        .filter_map(Value::as_str)
        .all(|v| own.contains(v));
    if !meanings.is_empty() && !named {
        let meanings = meanings.join("; ");
        let description = match own {
            "" => format!("{meanings}."),
            own => format!("{}: {meanings}.", own.trim_end_matches('.')),
        };
        map.insert("description".to_owned(), Value::String(description));
    }
    let ty = if nullable {
        values.push(Value::Null);
        json!(["string", "null"])
    } else {
        json!("string")
    };
    map.insert("type".to_owned(), ty);
    map.insert("enum".to_owned(), Value::Array(values));
}

/// Whether the schema's `type` is or includes `object`.
fn is_object_type(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

/// Turns `{"anyOf": [T, {"type": "null"}], ...}` with a single-typed `T` into `T` with `null`
/// added to its type (and enum). Keys beside `anyOf` (a field's description) win over `T`'s.
fn collapse_nullable(map: &mut Map<String, Value>) {
    let Some(Value::Array(variants)) = map.get("anyOf") else {
        return;
    };
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    let inner = match variants.as_slice() {
        [a, b] if is_null(b) && !is_null(a) => a,
        [a, b] if is_null(a) && !is_null(b) => b,
        _ => return,
    };
    let Value::Object(inner) = inner else {
        return;
    };
    let Some(Value::String(ty)) = inner.get("type") else {
        return;
    };
    if inner.contains_key("anyOf") {
        return;
    }
    let mut inner = inner.clone();
    let ty = Value::Array(vec![
        Value::String(ty.clone()),
        Value::String("null".to_owned()),
    ]);
    inner.insert("type".to_owned(), ty);
    if let Some(Value::Array(values)) = inner.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    map.remove("anyOf");
    for (key, value) in inner {
        map.entry(key).or_insert(value);
    }
}

/// The name of the action list's schema in an OpenAI `json_schema` response format.
pub const ACTIONS_SCHEMA_NAME: &str = "actions";

/// The strict JSON schema of the model's phase-2 answer (an [`ActionListDraft`]), for OpenAI's
/// `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}`.
pub fn actions_schema() -> Value {
    // Generated once per process: every phase 2 sends the same schema.
    static SCHEMA: std::sync::LazyLock<Value> =
        std::sync::LazyLock::new(strict_schema::<ActionListDraft>);
    SCHEMA.clone()
}

/// [`actions_schema`] with length, pattern and range bounds, for servers that turn the schema
/// into a sampling grammar (llama.cpp): a very small model then cannot ramble inside a string or
/// pick an id the rules refuse. With `candidates`, a description must be one of them (the
/// moves the rules propose from the scene). (OpenAI's strict mode refuses these keywords.)
pub fn bounded_actions_schema(candidates: &[String]) -> Value {
    let mut schema = actions_schema();
    let list = &mut schema["properties"]["actions"];
    list["minItems"] = 2.into();
    list["maxItems"] = 4.into();
    // A very small model leaves out the stakes (the player's view of them is a courtesy).
    if let Some(properties) = list["items"]["properties"].as_object_mut() {
        properties.remove("onSuccess");
        properties.remove("onFailure");
    }
    if let Some(required) = list["items"]["required"].as_array_mut() {
        required.retain(|name| name != "onSuccess" && name != "onFailure");
    }
    let action = &mut list["items"]["properties"];
    action["id"]["pattern"] = "^[a-z]+(-[a-z]+){0,3}$".into();
    action["id"]["maxLength"] = 40.into();
    if candidates.is_empty() {
        action["description"]["minLength"] = 8.into();
        action["description"]["maxLength"] = 90.into();
    } else {
        action["description"]["enum"] = json!(candidates);
    }
    let dice = &mut action["diceRoll"];
    if let Some(fields) = dice.as_object_mut() {
        fields.remove("type");
    }
    dice["enum"] = json!(["1d20", "2d20kh1", "2d20kl1", null]);
    action["diceReason"]["maxLength"] = 30.into();
    action["difficultyClass"]["minimum"] = 5.into();
    action["difficultyClass"]["maximum"] = 25.into();
    schema
}

#[cfg(test)]
pub(in crate::gm) mod tests {
    use super::*;
    use crate::game::DiceExpr;

    /// Asserts the strictness rules on `schema` and every schema inside it.
    fn assert_strict(schema: &Value, path: &str) {
        assert_shaped(schema, path, true);
    }

    /// A tool's schema as sent ([`compact_tool_schema`]): [`assert_strict`]'s form, except that
    /// no object has `additionalProperties`, `required` lists the properties that must be given
    /// and no property says null (an optional one left out is null; tools go with `strict` off).
    pub(in crate::gm) fn assert_tool_schema(schema: &Value, path: &str) {
        assert_shaped(schema, path, false);
    }

    /// The checks of [`assert_strict`] (`strict`) or [`assert_tool_schema`].
    fn assert_shaped(schema: &Value, path: &str, strict: bool) {
        let map = schema
            .as_object()
            .unwrap_or_else(|| panic!("{path}: not a schema object"));
        for keyword in REMOVED_KEYWORDS {
            assert!(!map.contains_key(keyword), "{path}: has {keyword}");
        }
        assert!(!map.contains_key("oneOf"), "{path}: has oneOf");
        assert!(!map.contains_key("$ref"), "{path}: has $ref");
        assert!(
            map.contains_key("type") || map.contains_key("anyOf"),
            "{path}: neither type nor anyOf"
        );
        if is_object_type(map) {
            let properties = map["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{path}: object without properties"));
            let mut required: Vec<&str> = match map.get("required") {
                Some(required) => required.as_array().expect("a list").iter(),
                None if strict => panic!("{path}: object without required"),
                None => [].iter(),
            }
            .map(|r| r.as_str().unwrap())
            .collect();
            let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
            required.sort_unstable();
            keys.sort_unstable();
            if strict {
                assert_eq!(required, keys, "{path}: required (strict)");
            } else {
                // The others are optional, left out as null; none of them says null.
                assert!(
                    required.iter().all(|name| keys.contains(name)),
                    "{path}: required {required:?} of {keys:?}"
                );
                assert!(
                    properties.values().all(|sub| !is_nullable(sub)),
                    "{path}: a property says null"
                );
            }
            if strict {
                assert_eq!(map["additionalProperties"], false, "{path}");
            } else {
                assert!(!map.contains_key("additionalProperties"), "{path}");
            }
            for (name, sub) in properties {
                assert_shaped(sub, &format!("{path}.{name}"), strict);
            }
        }
        if let Some(items) = map.get("items") {
            assert_shaped(items, &format!("{path}[]"), strict);
        }
        if let Some(Value::Array(variants)) = map.get("anyOf") {
            for (i, sub) in variants.iter().enumerate() {
                assert_shaped(sub, &format!("{path}|{i}"), strict);
            }
        }
    }

    #[test]
    fn nullable_any_of_collapses_into_a_type_list() {
        let mut schema = json!({
            "description": "Which attribute",
            "anyOf": [
                { "type": "string", "enum": ["STR", "DEX"] },
                { "type": "null" }
            ]
        });
        make_strict(&mut schema);
        assert_eq!(
            schema,
            json!({
                "description": "Which attribute",
                "type": ["string", "null"],
                "enum": ["STR", "DEX", null]
            })
        );
    }

    #[test]
    fn unsupported_keywords_go_and_objects_close() {
        let mut schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Wrapper",
            "type": "object",
            "properties": {
                "format": { "type": "string", "format": "date", "maxLength": 3 },
                "n": { "type": ["integer", "null"], "minimum": 0, "format": "uint8" },
                "inner": { "type": "object" }
            },
            "required": ["format"]
        });
        make_strict(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "format": { "type": "string" },
                    "n": { "type": ["integer", "null"] },
                    "inner": {
                        "type": "object",
                        "properties": {},
                        "required": [],
                        "additionalProperties": false
                    }
                },
                "required": ["format", "n", "inner"],
                "additionalProperties": false
            })
        );
        assert_strict(&schema, "$");
    }

    #[test]
    fn one_of_becomes_any_of_and_nullable_objects_close() {
        let mut schema = json!({
            "oneOf": [
                { "type": "object", "properties": { "a": { "type": "string" } } },
                { "type": "null" }
            ]
        });
        make_strict(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": ["object", "null"],
                "properties": { "a": { "type": "string" } },
                "required": ["a"],
                "additionalProperties": false
            })
        );
        assert_strict(&schema, "$");
    }

    #[test]
    fn a_tool_schema_folds_described_constants_and_drops_the_items_descriptions() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "likelihood": {
                    "description": "How likely a yes is.",
                    "anyOf": [
                        { "type": "string", "const": "unlikely", "description": "25%." },
                        { "type": "string", "const": "likely", "description": "75%." }
                    ]
                },
                "kind": {
                    "description": "short or long.",
                    "anyOf": [
                        { "type": "string", "const": "short", "description": "An hour." },
                        { "type": "string", "const": "long", "description": "A night." },
                        { "type": "null" }
                    ]
                },
                "items": {
                    "type": "array",
                    "description": "1 to 10 items.",
                    "items": {
                        "description": "An item.",
                        "type": "object",
                        "properties": { "description": { "description": "What.", "type": "string" } }
                    }
                }
            }
        });
        compact_tool_schema(&mut schema);
        assert_eq!(
            schema["properties"]["likelihood"],
            json!({
                "description": "How likely a yes is: unlikely 25%; likely 75%.",
                "type": "string",
                "enum": ["unlikely", "likely"]
            })
        );
        assert_eq!(
            schema["properties"]["kind"],
            json!({
                "description": "short or long.",
                "type": "string",
                "enum": ["short", "long"]
            }),
            "a description naming every value keeps its own words"
        );
        assert_eq!(
            schema["properties"]["items"],
            json!({
                "type": "array",
                "description": "1 to 10 items.",
                "items": {
                    "type": "object",
                    "properties": { "description": { "type": "string" } }
                }
            }),
            "a property named description stays"
        );
    }

    #[test]
    fn a_tool_schema_requires_only_what_cannot_be_null() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "dice": { "type": "string" },
                "reason": { "type": ["string", "null"] },
                "kind": { "type": ["string", "null"], "enum": ["short", "long", null] }
            },
            "required": ["dice", "reason", "kind"],
            "additionalProperties": false
        });
        compact_tool_schema(&mut schema);
        assert_eq!(schema["required"], json!(["dice"]));
        assert!(schema.get("additionalProperties").is_none());
        // Left out, an optional argument reads as null: its schema does not say null.
        assert_eq!(schema["properties"]["reason"], json!({ "type": "string" }));
        assert_eq!(
            schema["properties"]["kind"],
            json!({ "type": "string", "enum": ["short", "long"] })
        );
        assert_tool_schema(&schema, "$");
        let mut none = json!({
            "type": "object", "properties": {}, "required": [], "additionalProperties": false
        });
        compact_tool_schema(&mut none);
        assert_eq!(none, json!({ "type": "object", "properties": {} }));
    }

    #[test]
    fn unions_of_several_types_stay_any_of() {
        let mut schema = json!({
            "anyOf": [{ "type": "string", "maxLength": 2 }, { "type": "integer" }]
        });
        make_strict(&mut schema);
        assert_eq!(
            schema,
            json!({ "anyOf": [{ "type": "string" }, { "type": "integer" }] })
        );
        assert_strict(&schema, "$");
    }

    #[test]
    fn the_bounded_schema_limits_what_a_grammar_lets_a_small_model_write() {
        // The bounds go on fields the strict schema already has, with the types they bound.
        let strict = actions_schema();
        assert_eq!(strict["properties"]["actions"]["type"], "array");
        let fields = &strict["properties"]["actions"]["items"]["properties"];
        for (field, kind) in [
            ("id", "string"),
            ("description", "string"),
            ("diceRoll", "string"),
            ("diceReason", "string"),
            ("difficultyClass", "integer"),
        ] {
            let types = &fields[field]["type"];
            assert!(
                types == kind || types.as_array().is_some_and(|t| t.contains(&json!(kind))),
                "{field}: {types}"
            );
        }
        let schema = bounded_actions_schema(&[]);
        let list = &schema["properties"]["actions"];
        assert_eq!(
            (list["minItems"].as_u64(), list["maxItems"].as_u64()),
            (Some(2), Some(4))
        );
        let action = &list["items"]["properties"];
        assert_eq!(action["description"]["maxLength"], 90);
        assert_eq!(action["difficultyClass"]["maximum"], 25);
        let dice = action["diceRoll"]["enum"].as_array().unwrap();
        assert!(dice.contains(&Value::Null));
        for notation in dice.iter().filter_map(Value::as_str) {
            assert!(DiceExpr::parse(notation).is_ok(), "{notation}");
        }
        assert_eq!(action["id"]["pattern"], "^[a-z]+(-[a-z]+){0,3}$");
        // Everything else is the strict schema, less the stakes a very small model leaves out.
        let mut required = actions_schema()["properties"]["actions"]["items"]["required"].clone();
        if let Some(names) = required.as_array_mut() {
            names.retain(|name| name != "onSuccess" && name != "onFailure");
        }
        assert_eq!(
            schema["properties"]["actions"]["items"]["required"],
            required
        );
        assert!(action.get("onSuccess").is_none() && action.get("onFailure").is_none());
    }

    #[test]
    fn the_action_list_schema_is_strict() {
        let schema = actions_schema();
        assert_strict(&schema, "$");
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["actions"]));
        let action = &schema["properties"]["actions"]["items"];
        assert_eq!(action["type"], "object");
        assert_eq!(
            action["required"],
            json!([
                "id",
                "description",
                "diceRoll",
                "diceReason",
                "difficultyClass",
                "attribute",
                "skill",
                "onSuccess",
                "onFailure"
            ])
        );
        assert_eq!(action["properties"]["id"]["type"], "string");
        assert_eq!(
            action["properties"]["diceRoll"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(
            action["properties"]["difficultyClass"]["type"],
            json!(["integer", "null"])
        );
        assert_eq!(
            action["properties"]["attribute"]["enum"],
            json!(["STR", "DEX", "CON", "INT", "WIS", "CHA", null])
        );
        assert!(action["properties"]["diceRoll"]["description"]
            .as_str()
            .unwrap()
            .contains("1d20"));
        // Stable and small: it is sent with every phase-2 request.
        assert_eq!(schema, actions_schema());
        assert!(
            schema.to_string().len() < 2000,
            "{}",
            schema.to_string().len()
        );
    }
}
