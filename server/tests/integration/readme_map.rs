//! The README's map stays a map: its section is short enough to read in a few minutes, and
//! every path it names is in the checkout.

use std::path::Path;

const README: &str = include_str!("../../../README.md");

/// The most words the "Where things are" section may hold.
const MAX_MAP_WORDS: usize = 700;

/// The "## Where things are" section, up to the next heading of its level.
fn map_section(markdown: &str) -> &str {
    let start = markdown
        .find("## Where things are")
        .expect("the README has a map");
    let rest = &markdown[start + 2..];
    let end = rest.find("\n## ").map_or(rest.len(), |at| at + 1);
    &rest[..end]
}

/// The backticked paths of the first cell of each row of the section's table.
fn table_paths(section: &str) -> Vec<&str> {
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| line.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .collect()
}

#[test]
fn the_map_is_short_and_names_only_paths_that_exist() {
    let section = map_section(README);
    let words = section.split_whitespace().count();
    assert!(
        words <= MAX_MAP_WORDS,
        "the map has {words} words, at most {MAX_MAP_WORDS}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let paths = table_paths(section);
    assert!(paths.len() >= 10, "one row per folder: {paths:?}");
    let missing: Vec<&&str> = paths
        .iter()
        .filter(|path| !root.join(path).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "the map names paths that are gone: {missing:?}"
    );
}

#[test]
fn the_map_shows_a_turns_path() {
    let section = map_section(README);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src");
    for step in [
        "api/play/play_turn.rs",
        "service/play.rs",
        "gm/turn/",
        "campaign/state.rs",
    ] {
        assert!(section.contains(step), "the turn's path passes {step}");
        assert!(root.join(step).exists(), "{step} is where the map says");
    }
}
