//! Fuzz targets, run as property tests over random and hostile input (cargo-fuzz needs a nightly
//! compiler this toolchain does not have): dice notation, lenient tool-argument
//! coercion, the action-list JSON parser and the Markdown renderer (the text-tool tag scanner's
//! is beside it, in the server's `llm::text_tools`).
//!
//! The test command runs a short pass of each (`FUZZ_CASES`, default 2,000 inputs per target); a
//! longer run: `FUZZ_CASES=1000000 cargo test -p app --features ssr --test integration --release fuzz`.

use app::campaign::markdown::render;
use app::game::{ActionList, DiceExpr};
use app::gm::tools::{definitions, lenient::parse_arguments};
use proptest::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

fn config() -> ProptestConfig {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(2_000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Text made mostly of the characters a target's syntax is built from, with anything mixed in.
fn hostile(alphabet: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::string::string_regex(alphabet).unwrap(),
        1 => any::<String>(),
    ]
}

/// An action list as a model might write it: plausible fields with hostile values.
fn action_list() -> impl Strategy<Value = String> {
    let action = (
        "[a-z_ ]{0,12}",
        prop_oneof![
            Just(String::new()),
            "[A-Za-z <>*\\[\\]()]{0,40}".boxed(),
            "x{200,300}".boxed()
        ],
        proptest::option::of("(1d20|2d6\\+3|0d0|1d1|999d999|[a-z0-9+]{0,8})"),
        proptest::option::of(prop_oneof![any::<i64>(), 0i64..30]),
        proptest::option::of("(STR|DEX|CON|INT|WIS|CHA|[A-Z]{0,4})"),
    )
        .prop_map(|(id, description, dice, dc, attribute)| {
            serde_json::json!({"id": id, "description": description, "diceRoll": dice,
                "diceReason": dice.as_ref().map(|_| "Because"), "difficultyClass": dc,
                "attribute": attribute})
        });
    proptest::collection::vec(action, 0..9)
        .prop_map(|actions| serde_json::json!({ "actions": actions }).to_string())
}

/// The tag names allowed in rendered Markdown.
const SAFE_TAGS: &[&str] = &[
    "p",
    "em",
    "strong",
    "a",
    "ul",
    "ol",
    "li",
    "code",
    "pre",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "br",
    "del",
];

/// The tags in `html` (what lies between each `<` and the next `>`: text never holds a raw `<`).
fn tags(html: &str) -> Vec<&str> {
    html.split('<')
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or_default())
        .collect()
}

/// A tag's name.
fn name(tag: &str) -> String {
    tag.trim_start_matches('/')
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn dice_notation_parses_or_refuses_and_every_roll_is_in_range(
        notation in hostile("[0-9dDkKhHlL%+\\- ]{0,30}"),
        seed in any::<u64>(),
    ) {
        if let Ok(dice) = DiceExpr::parse(&notation) {
            let roll = dice.roll(&mut StdRng::seed_from_u64(seed));
            prop_assert!((dice.min_total()..=dice.max_total()).contains(&roll.total()));
        }
    }

    #[test]
    fn lenient_arguments_parse_or_refuse_and_coercion_is_stable(
        raw in hostile("[{}\\[\\]\":, 0-9.+\\-a-z]{0,60}"),
        tool in any::<prop::sample::Index>(),
    ) {
        let tools = definitions();
        let schema = &tools[tool.index(tools.len())].parameters;
        if let Ok(value) = parse_arguments(&raw, schema) {
            let again = parse_arguments(&value.to_string(), schema).expect("its own output is JSON");
            prop_assert_eq!(again, value, "coercing twice changes nothing");
        }
    }

    #[test]
    fn action_lists_parse_within_their_bounds_or_are_refused(
        json in prop_oneof![
            hostile("(\\{\"actions\": \\[|\\{\"id\": \"[a-z_]{0,8}\"|, \"description\": \"[A-Za-z <>]{0,20}\"|\\}|\\]|,){0,12}"),
            action_list(),
        ],
    ) {
        if let Ok(valid) = ActionList::parse_json(&json) {
            let actions = valid.actions.actions();
            prop_assert!((ActionList::MIN_ACTIONS..=ActionList::MAX_ACTIONS).contains(&actions.len()));
            let mut ids: Vec<&str> = actions.iter().map(|action| action.id().as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            prop_assert_eq!(ids.len(), actions.len(), "ids are unique");
            for action in actions {
                prop_assert!(!action.description().as_str().trim().is_empty());
            }
        }
    }

    #[test]
    fn rendered_markdown_never_carries_raw_html_or_script_urls(
        markdown in hostile(
            "(<script>|</script>|<img src=x onerror=alert(1)>|<a href=\"javascript:x\">|\\[a\\]\\((javascript|data|https?):[a-z/()]{0,8}\\)|!\\[c\\]\\(x\\)|<[a-z]{1,6}|\\*|_|`|\\n|#|>|-|[a-z ]){0,30}"
        ),
    ) {
        let html = render(&markdown);
        for tag in tags(&html) {
            prop_assert!(SAFE_TAGS.contains(&name(tag).as_str()), "<{}> in {}", tag, html);
            for href in tag.split("href=\"").skip(1) {
                let target = href.split('"').next().unwrap_or_default().to_ascii_lowercase();
                prop_assert!(
                    target == "#" || ["http://", "https://", "mailto:"].iter().any(|s| target.starts_with(s)),
                    "href {} in {}", target, html
                );
            }
            prop_assert!(!tag.contains(" on"), "an event handler in <{}>", tag);
        }
    }
}
