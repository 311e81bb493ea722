//! The README's Configure table lists exactly the variables the server reads.
//!
//! Each row's first cell names one or more variables in backticks. Rows of `LEPTOS_*` variables
//! are read by Leptos itself, and rows whose meaning starts with `*scripts only*` by `make` and
//! `scripts/`; every other variable must be one of `config::VARIABLES` (the list the server's
//! reader uses), and every one of those must have a row.

use std::collections::BTreeSet;

use server::config::VARIABLES;

const README: &str = include_str!("../../../README.md");

/// The marker, at the start of a row's meaning, of a variable only the scripts read.
const SCRIPTS_ONLY: &str = "*scripts only*";

/// The variables of the Configure table, by who reads them.
#[derive(Debug, Default)]
struct Documented {
    server: BTreeSet<String>,
    leptos: BTreeSet<String>,
    scripts: BTreeSet<String>,
}

/// The backticked variable names in `cell`.
fn names_in(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| {
            name.starts_with(|c: char| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

/// The variables of the first table in `markdown`'s "## Configure" section.
fn documented(markdown: &str) -> Documented {
    let section = markdown
        .split("\n## ")
        .find(|section| section.starts_with("Configure\n"))
        .expect("a Configure section");
    let rows = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2); // the header and the separator
    let mut documented = Documented::default();
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (names, meaning) = (names_in(cells[1]), cells[2]);
        assert!(!names.is_empty(), "a row without a variable: {row}");
        for name in names {
            let readers = if name.starts_with("LEPTOS_") {
                &mut documented.leptos
            } else if meaning.starts_with(SCRIPTS_ONLY) {
                &mut documented.scripts
            } else {
                &mut documented.server
            };
            assert!(readers.insert(name.clone()), "{name} has two rows");
        }
    }
    documented
}

/// What differs between the documented server variables and `VARIABLES`, if anything.
fn differences(documented: &Documented) -> Option<String> {
    let read: BTreeSet<String> = VARIABLES.iter().map(|name| (*name).to_owned()).collect();
    let undocumented: Vec<_> = read.difference(&documented.server).collect();
    let unread: Vec<_> = documented.server.difference(&read).collect();
    let misfiled: Vec<_> = read
        .iter()
        .filter(|name| documented.scripts.contains(*name) || name.starts_with("LEPTOS_"))
        .collect();
    (!undocumented.is_empty() || !unread.is_empty() || !misfiled.is_empty()).then(|| {
        format!(
            "read but not in the README: {undocumented:?}; in the README but not read: \
             {unread:?}; read by the server but marked otherwise: {misfiled:?}"
        )
    })
}

#[test]
fn the_configure_table_lists_exactly_the_variables_the_server_reads() {
    let documented = documented(README);
    assert_eq!(differences(&documented), None, "{documented:?}");
    assert!(documented.leptos.contains("LEPTOS_SITE_ADDR"));
    assert!(documented.scripts.contains("CARGO_TARGET_DIR"));
}

#[test]
fn a_missing_extra_or_misfiled_row_is_found() {
    let row = |name: &str| {
        README
            .lines()
            .find(|line| line.starts_with(&format!("| `{name}`")))
            .unwrap_or_else(|| panic!("a row for {name}"))
            .to_owned()
    };
    let missing = README.replace(&format!("{}\n", row("RUST_LOG")), "");
    assert!(differences(&documented(&missing)).is_some_and(|d| d.contains("RUST_LOG")));

    let extra = README.replace(
        &row("RUST_LOG"),
        &format!("{}\n| `DICEBOUND_NOTHING` | x | y |", row("RUST_LOG")),
    );
    assert!(differences(&documented(&extra)).is_some_and(|d| d.contains("DICEBOUND_NOTHING")));

    let misfiled = README.replace("| log filter |", &format!("| {SCRIPTS_ONLY}: log filter |"));
    assert!(differences(&documented(&misfiled)).is_some_and(|d| d.contains("RUST_LOG")));
}
