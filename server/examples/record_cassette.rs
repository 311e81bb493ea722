//! Records the cassette `tests/integration/cassette.rs` replays: the short campaign of
//! `tests/integration/support/recorded_game.rs` played against the bundled model (installed by
//! `scripts/setup-llm.sh`), every exchange and the resulting ledger written to
//! `server/tests/fixtures/bundled.cassette.json`.
//!
//! Run with `cargo run -p server --example record_cassette` (a few minutes on one thread).

#[path = "../tests/integration/support/recorded_game.rs"]
mod recorded_game;

use std::path::PathBuf;
use std::sync::Arc;

use server::llm::bundled::BundledSettings;
use server::llm::cassette::Recording;
use server::llm::choice::LlmChoice;
use server::llm::provider::Provider;

#[tokio::main]
async fn main() {
    let bundled =
        BundledSettings::from_lookup(|name| std::env::var(name).ok().filter(|v| !v.is_empty()));
    let choice = LlmChoice::Local {
        probe: Vec::new(),
        bundled,
    };
    let provider = Provider::start(&choice, None)
        .await
        .expect("the bundled model starts (run scripts/setup-llm.sh first)");
    let recording = Arc::new(Recording::new(provider.llm.clone(), None));
    let ledger = recorded_game::play(recording.as_ref(), &provider.gm)
        .await
        .expect("the campaign plays");
    let mut cassette = recording.cassette();
    cassette.ledger = ledger;
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundled.cassette.json");
    cassette.save(&path).expect("the cassette is written");
    println!(
        "{} exchanges and {} ledger lines written to {}",
        cassette.exchanges.len(),
        cassette.ledger.len(),
        path.display()
    );
    if let Some(server) = provider.bundled {
        server.stop().await;
    }
}
