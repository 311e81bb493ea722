//! Recall on a long campaign: a campaign of 1,000 turns played through the service against an
//! instant scripted model (scenes naming people and places from a cast of 60), then the rules'
//! recall for 300 moves that each name someone — the query, the store's full-text search and the
//! passages cut to the layer — timed per move (p50, p99), with the index's size; on SQLite, and
//! on PostgreSQL when `DICEBOUND_BENCH_POSTGRES_URL` names a server (`make bench` starts one).
//!
//! Run with `cargo bench -p server --bench recall` (or `make bench`).

use std::time::Instant;

use app::campaign::passage::SearchScope;
use app::campaign::store::CampaignStore;
use app::gm::prompt::recall::{recall_before, recall_query, recalled, RECALL_CANDIDATES};
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::GmSettings;
use app::service::{Game, MoveRequest, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::json;
use server::store::{Backend, SqlStore};
use sqlx::{Connection, Executor};

const TURNS: u32 = 1_000;
const MOVES: usize = 300;
const PEOPLE: [&str; 30] = [
    "Oswin", "Mira", "Tamsin", "Edric", "Bryn", "Halla", "Corvin", "Ysolde", "Garrick", "Wenna",
    "Aldous", "Petra", "Rook", "Sabine", "Ulric", "Ilse", "Fenwick", "Maud", "Lorcan", "Nessa",
    "Osric", "Perrin", "Quill", "Rhiannon", "Stellan", "Thea", "Varis", "Wynn", "Yorick", "Zelda",
];
const PLACES: [&str; 30] = [
    "Hollowmere",
    "Ashford",
    "Briarwatch",
    "Coldharbour",
    "Dunmore",
    "Eastwold",
    "Fallowmere",
    "Greyholt",
    "Harrowgate",
    "Ironmoss",
    "Jarrowby",
    "Kestrel Keep",
    "Lowmarsh",
    "Mirefield",
    "Northcombe",
    "Oakhollow",
    "Pennmoor",
    "Quarrytown",
    "Ravensend",
    "Saltcombe",
    "Thornbury",
    "Umberlee",
    "Valewick",
    "Westmarch",
    "Yarrowby",
    "Zennor",
    "Blackwater",
    "Cinderfall",
    "Duskwood",
    "Emberly",
];

fn scene(rng: &mut StdRng, turn: u32) -> String {
    let who = PEOPLE[rng.random_range(0..PEOPLE.len())];
    let place = PLACES[rng.random_range(0..PLACES.len())];
    let other = PEOPLE[rng.random_range(0..PEOPLE.len())];
    format!(
        "Turn {turn} finds you on the road to {place}. You meet {who}, who speaks of {other} \
         and of a debt unpaid since the floods. Rain drums on the slate roofs; somewhere a bell \
         counts the hour, and the lamps of {place} glow through the mist."
    )
}

fn scenario() -> Scenario {
    let mut rng = StdRng::seed_from_u64(11);
    Scenario {
        steps: (1..=TURNS)
            .map(|turn| Step::text(scene(&mut rng, turn)))
            .collect(),
        actions: vec![Step::json(json!({"actions": [
            {"id": "on", "description": "Walk on", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        summaries: vec![Step::text("You walked the wet roads and met many people.")],
        cycle: true,
        ..Scenario::default()
    }
}

/// Plays the campaign and returns its id.
async fn play(game: &Game<'_>, owner: &PlayerId, rng: &mut StdRng) -> CampaignId {
    let form = NewCampaign::new("A long road through the wet hills.", "Wren", "Ranger");
    let id = game
        .create(owner, &form, 1, rng, &mut |_| {})
        .await
        .unwrap()
        .id;
    for turn in 1..TURNS {
        let input = MoveInput::Text {
            text: format!("I walk on (move {turn})"),
        };
        let request = MoveRequest {
            expected_turn: turn,
            input: &input,
        };
        game.play(owner, &id, request, 1, rng, &mut |_| {})
            .await
            .unwrap();
        game.summarize(owner, &id, 1).await.unwrap();
    }
    id
}

async fn measure(url: &str, label: &str) {
    let store = SqlStore::open(url).await.unwrap();
    let in_flight = TurnsInFlight::new(std::sync::Arc::new(store.clone()));
    let llm = ScriptedLlm::new(scenario());
    let gm = GmSettings::default();
    let game = Game {
        store: &store,
        llm: &llm,
        gm: &gm,
        in_flight: &in_flight,
        span: tracing::Span::none(),
    };
    let mut rng = StdRng::seed_from_u64(5);
    let owner = PlayerId::random(&mut rng);
    let started = Instant::now();
    let id = play(&game, &owner, &mut rng).await;
    let played = started.elapsed();
    let state = game.current(&owner, &id).await.unwrap().state;
    let mut times = Vec::with_capacity(MOVES);
    let mut recalled_passages = 0;
    for _ in 0..MOVES {
        let who = PEOPLE[rng.random_range(0..PEOPLE.len())];
        let text = format!("I ask {who} about the debt");
        let start = Instant::now();
        let query = recall_query(&state, Some(&text)).unwrap();
        let scope = SearchScope {
            before_turn: recall_before(&state),
            moves: false,
            limit: RECALL_CANDIDATES,
            telling_words_only: true,
        };
        let found = store.search(&owner, &id, &query, scope).await.unwrap();
        let kept = recalled(&query, &found, gm.prompt_budget());
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        recalled_passages += kept.len();
    }
    times.sort_by(f64::total_cmp);
    let at = |share: f64| times[((times.len() as f64 * share) as usize).min(times.len() - 1)];
    println!(
        "{label}: {TURNS} turns played in {:.1} s; recall per move (query + search + cut), \
         {MOVES} moves: p50 {:.2} ms, p99 {:.2} ms (budget 2 ms); {:.1} passages recalled per move",
        played.as_secs_f64(),
        at(0.5),
        at(0.99),
        recalled_passages as f64 / MOVES as f64
    );
    println!(
        "{label}: the story's index: {}",
        index_size(url, store.backend()).await
    );
}

/// The search index's size: its rows' text and the full-text index over them.
async fn index_size(url: &str, backend: Backend) -> String {
    let mut connection = sqlx::AnyConnection::connect(url).await.unwrap();
    let (rows, text): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(LENGTH(text)), 0) AS BIGINT) FROM story_text",
    )
    .fetch_one(&mut connection)
    .await
    .unwrap();
    let index: i64 = match backend {
        Backend::Sqlite => sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(LENGTH(block)), 0) AS BIGINT) FROM story_search_data",
        ),
        Backend::Postgres => sqlx::query_scalar("SELECT pg_total_relation_size('story_text')"),
    }
    .fetch_one(&mut connection)
    .await
    .unwrap();
    let what = match backend {
        Backend::Sqlite => "FTS5 index blocks",
        Backend::Postgres => "table, tsvectors and GIN index on disk",
    };
    format!(
        "{rows} passages, {:.0} KiB of text, {:.0} KiB {what}",
        text as f64 / 1024.0,
        index as f64 / 1024.0
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("recall.db").display());
    measure(&url, "SQLite").await;
    if let Ok(admin) = std::env::var("DICEBOUND_BENCH_POSTGRES_URL") {
        let mut connection = sqlx::AnyConnection::connect(&admin).await.unwrap();
        connection
            .execute("DROP DATABASE IF EXISTS recall_bench")
            .await
            .unwrap();
        connection
            .execute("CREATE DATABASE recall_bench")
            .await
            .unwrap();
        let url = admin.rsplit_once('/').unwrap().0.to_owned() + "/recall_bench";
        measure(&url, "PostgreSQL").await;
    }
}
