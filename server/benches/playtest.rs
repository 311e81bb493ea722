//! The playtest bench: five scripted personas (a cautious explorer, a reckless fighter, a
//! talker, an item user and a rules lawyer) each play a seeded campaign through the game
//! service against the model the usual settings choose (`DICEBOUND_LLM`, or an endpoint's
//! `DICEBOUND_LLM_BASE_URL`/`DICEBOUND_LLM_MODEL`/`OPENAI_API_KEY`; `make playtest` picks the
//! bundled model when none is set). It prints a table per persona and one with a column per
//! model (this one and every earlier report in the folder), and saves this model's report as
//! JSON there. Numbers, never pass or fail.
//!
//! - `PLAYTEST_TURNS`: turns each persona plays after the opening scene (default 4);
//! - `PLAYTEST_SEED`: the players' and dice's seed (default 27);
//! - `PLAYTEST_PRICE_PROMPT`, `PLAYTEST_PRICE_CACHED`, `PLAYTEST_PRICE_COMPLETION`: dollars per
//!   million tokens, for the cost of a turn (cached defaults to the prompt price);
//! - `PLAYTEST_REPORTS`: the reports' folder (default `target/playtest` in the checkout).
//!
//! Run with `make playtest` (or `cargo bench -p server --bench playtest`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use app::service::{Game, TurnsInFlight};
use playtest::persona::Persona;
use playtest::report::{table, PersonaTally, Prices, Report};
use server::config::ModelSettings;
use server::llm::provider::Provider;
use server::store::SqlStore;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let model = ModelSettings::from_env().expect("the model settings are valid");
    let mut provider = Provider::start(&model.llm, model.tools)
        .await
        .expect("the model starts (for the bundled one, run scripts/setup-llm.sh)");
    model.prompt.apply(&mut provider.gm);
    let dir = tempfile::tempdir().expect("a folder for the playtest's database");
    let store = SqlStore::open(&format!("sqlite://{}", dir.path().join("p.db").display()))
        .await
        .expect("the playtest's database opens");
    let in_flight = TurnsInFlight::new(Arc::new(store.clone()));
    let game = Game {
        store: &store,
        llm: provider.llm.as_ref(),
        gm: &provider.gm,
        in_flight: &in_flight,
        span: tracing::Span::none(),
    };
    let turns = usize::try_from(number("PLAYTEST_TURNS", 4)).unwrap_or(4);
    let seed = number("PLAYTEST_SEED", 27);
    println!(
        "playtest: {} personas x {turns} turns, {} ({})",
        Persona::ALL.len(),
        provider.master.model,
        provider.master.source
    );
    let started = Instant::now();
    let mut personas = Vec::new();
    for (n, persona) in (0u64..).zip(Persona::ALL) {
        let tally = playtest::play(&game, persona, turns, seed + n).await;
        println!("  {} played {} turns", persona.name(), tally.turns);
        personas.push(PersonaTally {
            persona: persona.name().to_owned(),
            tally,
        });
    }
    let mut report = Report::new(
        provider.master.model.clone(),
        provider.master.source.clone(),
        turns,
        prices(),
        personas,
    );
    report.seconds = started.elapsed().as_secs_f64();
    print_tables(&report);
    if let Some(bundled) = provider.bundled {
        bundled.stop().await;
    }
}

/// Prints the personas side by side, then this model beside the earlier reports, and saves it.
fn print_tables(report: &Report) {
    let by_persona: Vec<Report> = report
        .personas
        .iter()
        .map(|persona| {
            Report::new(
                persona.persona.clone(),
                report.source.clone(),
                report.turns_per_persona,
                report.prices,
                vec![persona.clone()],
            )
        })
        .collect();
    println!("\nby persona ({}):\n{}", report.model, table(&by_persona));
    let folder = std::env::var_os("PLAYTEST_REPORTS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/playtest"),
        PathBuf::from,
    );
    match report.save(&folder) {
        Ok(path) => println!("report: {}", path.display()),
        Err(error) => println!("{error}"),
    }
    let mut all = vec![report.clone()];
    all.extend(Report::others(&folder, &report.model));
    println!("\nby model:\n{}", table(&all));
}

/// Dollars per million tokens, from the environment (0 when unset).
fn prices() -> Prices {
    let price = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.trim().parse::<f64>().ok())
    };
    let prompt = price("PLAYTEST_PRICE_PROMPT").unwrap_or(0.0);
    Prices {
        prompt,
        cached: price("PLAYTEST_PRICE_CACHED").unwrap_or(prompt),
        completion: price("PLAYTEST_PRICE_COMPLETION").unwrap_or(0.0),
    }
}

fn number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(default)
}
