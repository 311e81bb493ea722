//! Cheap requests that cost the server dearly (issue: hardening 2), measured through the
//! service against an instant scripted model, stored in SQLite: the time to count the tokens of
//! one word of 128 KiB and of 1.9 MiB; the time of a turn after importing a file whose model
//! memory holds a word of 1.9 MiB (counted while the campaign's lease is held); and the bytes of
//! the ledger answer for a file of ~78 KiB whose changes all cite long tool calls.
//!
//! Run with `cargo bench -p server --bench cheap_requests` (or `make bench`).

#[path = "../tests/integration/support/heavy_files.rs"]
mod heavy_files;

use app::campaign::bounds::{MAX_ARGUMENTS_CHARS, MAX_MESSAGE_CHARS};
use std::time::Instant;

use app::gm::prompt::token_count::tokens;
use app::gm::scripted::ScriptedLlm;
use app::gm::GmSettings;
use app::service::{Game, MoveRequest, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::Value;
use server::store::SqlStore;

const LONG_WORD: usize = 1_900 * 1024;

struct World {
    store: SqlStore,
    llm: ScriptedLlm,
    gm: GmSettings,
    in_flight: TurnsInFlight,
    owner: PlayerId,
    rng: StdRng,
    _dir: tempfile::TempDir,
}

impl World {
    async fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("game.db").display());
        let store = SqlStore::open(&url).await.unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        Self {
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store.clone())),
            store,
            llm: ScriptedLlm::from_json(heavy_files::SCENARIO).unwrap(),
            gm: GmSettings::default(),
            owner: PlayerId::random(&mut rng),
            rng,
            _dir: dir,
        }
    }

    fn game(&self) -> Game<'_> {
        Game {
            store: &self.store,
            llm: &self.llm,
            gm: &self.gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }

    /// A new campaign's file, its opening played by the scenario.
    async fn exported(&mut self) -> Value {
        let form = NewCampaign::new("A gate", "Mira", "Ranger");
        let mut rng = self.rng.clone();
        let game = self.game();
        let id = game
            .create(&self.owner, &form, 1, &mut rng, &mut |_| {})
            .await
            .unwrap()
            .id;
        let file = serde_json::to_value(game.export(&self.owner, &id).await.unwrap()).unwrap();
        self.rng = rng;
        file
    }

    async fn import(&mut self, file: &str) -> CampaignId {
        let mut rng = self.rng.clone();
        let imported = self.game().import(&self.owner, file, 2, &mut rng).await;
        self.rng = rng;
        imported.unwrap().id
    }
}

#[tokio::main]
async fn main() {
    println!("tokens of one word");
    // The tokenizer's tables load on first use, not in the measurement.
    tokens("warm up");
    for bytes in [128 * 1024, LONG_WORD] {
        let word = heavy_files::word(bytes);
        let start = Instant::now();
        let count = tokens(&word);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "  {:>5} KiB: {count:>7} tokens in {ms:>8.1} ms",
            bytes / 1024
        );
    }
    let mut world = World::new().await;
    let exported = world.exported().await;

    // The longest word a file may carry now: one message of the log's bounds.
    let file = heavy_files::long_word(exported.clone(), MAX_MESSAGE_CHARS).to_string();
    let id = world.import(&file).await;
    let input = MoveInput::Text {
        text: "I wait".into(),
    };
    let request = MoveRequest {
        expected_turn: 1,
        input: &input,
    };
    let mut rng = world.rng.clone();
    let start = Instant::now();
    let played = world
        .game()
        .play(&world.owner, &id, request, 3, &mut rng, &mut |_| {})
        .await;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "a turn after a {} KiB word: {ms:.1} ms ({})",
        MAX_MESSAGE_CHARS / 1024,
        played.map_or_else(|e| e.to_string(), |_| "played".into())
    );

    let file = heavy_files::repeated_changes(exported, MAX_ARGUMENTS_CHARS, 82).to_string();
    let id = world.import(&file).await;
    let ledger = world.game().ledger(&world.owner, &id, None).await.unwrap();
    let answer = serde_json::to_vec(&ledger).unwrap().len();
    println!(
        "the ledger of a file of {} bytes: an answer of {answer} bytes (its latest page)",
        file.len()
    );
}
