//! The playtest bench's players and scores against two scripted models: an honest one, whose
//! every claimed change is a tool call, and a cheating one, which narrates damage, loot,
//! poison and experience with no tool at all. The cheating shows in the counts and in the
//! table; the honest model's claims all stand.

use crate::support::table;

use ::playtest::persona::Persona;
use ::playtest::report::{table, PersonaTally, Prices, Report};
use ::playtest::tally::Tally;
use app::gm::scripted::Scenario;
use table::Table;

const TURNS: usize = 3;

/// Every persona's game against the scenario in `fixture`, as the bench reports it.
async fn playtest(fixture: &str, model: &str) -> Report {
    let path = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let table = Table::playing(scenario).await;
    let game = table.game();
    let mut personas = Vec::new();
    for (n, persona) in (0u64..).zip(Persona::ALL) {
        personas.push(PersonaTally {
            persona: persona.name().to_owned(),
            tally: ::playtest::play(&game, persona, TURNS, 40 + n).await,
        });
    }
    Report::new(
        model.to_owned(),
        "a scripted scenario".to_owned(),
        TURNS,
        Prices::default(),
        personas,
    )
}

#[tokio::test]
async fn a_model_that_narrates_changes_without_tools_shows_in_the_table() {
    let cheat = playtest("playtest-cheating.json", "scripted cheat").await;
    let honest = playtest("playtest-honest.json", "scripted honest").await;
    let (c, h) = (cheat.total.clone(), honest.total.clone());
    let played = u32::try_from(Persona::ALL.len() * TURNS).unwrap();
    assert_eq!((c.turns, c.failed_turns), (played, 0), "{c:#?}");
    assert_eq!((h.turns, h.failed_turns), (played, 0), "{h:#?}");

    // The cheat claims a change every turn and the rules make none of them.
    assert_eq!(c.tool_calls, 0, "{c:#?}");
    assert!(c.changes_claimed >= played, "{c:#?}");
    assert_eq!(c.changes_made, 0, "{cheat:#?}");
    assert!(
        c.contradictions >= played,
        "every first draft contradicts the ledger: {c:#?}"
    );
    assert_eq!(
        c.corrections_asked, played,
        "each scene is asked about once"
    );
    assert!(
        c.contradictions_left >= played,
        "and the next draft cheats again"
    );
    assert!(c.unresolved_turns > 0);

    // The honest model's claims are its tools' changes.
    assert!(h.tool_calls > 0 && h.tool_calls_refused == 0, "{h:#?}");
    assert!(h.changes_claimed > 0, "{h:#?}");
    assert_eq!(h.changes_made, h.changes_claimed, "{h:#?}");
    assert_eq!((h.contradictions, h.corrections_asked), (0, 0), "{h:#?}");

    // Both played the same moves: the same lists, the same scenes' count.
    assert_eq!(c.action_lists, h.action_lists);
    assert_eq!(c.scenes, h.scenes);

    let shown = table(&[cheat, honest]);
    let row = |label: &str| {
        shown
            .lines()
            .find(|line| line.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} row in\n{shown}"))
            .to_owned()
    };
    assert!(shown.lines().next().unwrap().contains("scripted cheat"));
    let claimed = row("claimed changes the rules made");
    assert!(
        claimed.contains(&format!("0/{} 0%", c.changes_claimed)),
        "{claimed}"
    );
    assert!(claimed.ends_with("100%"), "{claimed}");
    println!("{shown}");
}

#[tokio::test]
async fn a_report_is_saved_and_read_back_beside_another_models() {
    let folder = tempfile::tempdir().unwrap();
    let mut tally = Tally {
        turns: 4,
        contradictions: 2,
        ..Tally::default()
    };
    tally.turn_ms = vec![1_000, 3_000, 2_000];
    let report = |model: &str| {
        Report::new(
            model.to_owned(),
            "here".to_owned(),
            4,
            Prices::default(),
            vec![PersonaTally {
                persona: "talker".to_owned(),
                tally: tally.clone(),
            }],
        )
    };
    let first = report("model/a");
    let path = first.save(folder.path()).unwrap();
    assert!(path.ends_with("model_a.json"), "{path:?}");
    report("b").save(folder.path()).unwrap();
    std::fs::write(folder.path().join("junk.json"), "{ not a report").unwrap();
    let others = Report::others(folder.path(), "b");
    assert_eq!(
        others,
        vec![first.clone()],
        "the other model's report, junk passed over"
    );
    let shown = table(&[report("b"), first]);
    assert!(shown.contains("contradictions per 10 turns"), "{shown}");
    assert!(
        shown
            .lines()
            .any(|line| line.starts_with("turn, median") && line.matches("2.00s").count() == 2),
        "{shown}"
    );
}
