//! The server as players meet it: a release server process started against an instant fake
//! OpenAI-compatible model on loopback (`scripts/fake-openai.mjs`, through the real adapter) and a
//! fresh SQLite file, then driven over HTTP like a browser. It measures the time from
//! starting the process to its first page (cold start), its resident memory once idle, a full
//! turn seen from the client over loopback (the move streamed, then the next actions: p50 and
//! p99 over `TURNS` turns), and its resident memory after the first turn and after them all.
//! Then many games at once: for each of `CROWDS`, that many players (each with their own
//! cookie) start a campaign and play a turn together against a model that takes `LATENCY_MS`
//! before each reply, on a fresh server: the latency the server adds at p99 (a turn's time less
//! the model's two replies), the requests that failed, resident memory, memory per extra idle
//! game (the server's growth from one open game to all of them, each read once the server has
//! been quiet for a second), and the processor time the server spent per game (its start and
//! its turn), which on a machine whose cores the database, the model and the players share is
//! what a crowd waits for. The crowds play on SQLite, then, when `DICEBOUND_BENCH_POSTGRES_URL`
//! names a cluster (as `make bench` does), on PostgreSQL with one server instance and with two
//! sharing the database (each player stays with one instance). Each figure is printed beside
//! its budget (issue 30).
//!
//! Run with `cargo bench -p server --bench footprint` (or `make bench`). Prints a table; nothing
//! here passes or fails.

mod support;

use std::time::{Duration, Instant};

use support::{
    cpu_ticks, free_address, one_turn, quantile, rss_kib, spawn, sqlite_url, start_checked,
    ticks_per_second, FakeModel, Server, Setup,
};

/// Turns played after the opening.
const TURNS: u32 = 20;

/// Players playing at once, and the budget for the latency the server adds at p99 (ms).
const CROWDS: [(usize, &str); 3] = [(10, ""), (100, "≤ 10"), (1_000, "≤ 50")];

/// The slow model's time before each reply.
const LATENCY_MS: u64 = 1_000;

/// How long a server is let settle before its memory is read: more than the quiet second after
/// which it gives freed memory back (`server/src/memory.rs`).
const SETTLE: Duration = Duration::from_millis(2_500);

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(run());
}

/// One game over HTTP: the cold start, a turn's time and the process's memory; then the crowds.
async fn run() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = FakeModel::start(0);
    let addr = free_address();
    let started = Instant::now();
    let database = sqlite_url(dir.path());
    let server = Server(spawn(&addr, &model, dir.path(), &database, &[]));
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("a client");
    while !client
        .get(format!("http://{addr}/"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let cold_start = started.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = rss_kib(server.0.id());

    let (id, _) = start_checked(&client, &addr, None)
        .await
        .expect("the campaign starts");
    let mut times = Vec::new();
    let mut after_first = 0;
    for turn in 1..=TURNS {
        let took = one_turn(&client, &addr, None, &id, turn)
            .await
            .unwrap_or_else(|error| panic!("turn {turn}: {error}"));
        times.push(took);
        if turn == 1 {
            after_first = rss_kib(server.0.id());
        }
    }
    let after = rss_kib(server.0.id());
    times.sort_unstable();
    print_table(cold_start, [idle, after_first, after], &times);
    drop(server);
    crowds().await;
}

/// Many games at once, on SQLite and (when a cluster is given) on PostgreSQL with one and two
/// instances.
async fn crowds() {
    println!("\nmany games at once: each player starts a campaign, then plays one turn; the model takes {LATENCY_MS} ms before each reply");
    println!(
        "{:<22} {:>8} {:>20} {:>8} {:>12} {:>26} {:>16}",
        "database",
        "players",
        "p99 added latency",
        "errors",
        "memory",
        "memory per extra idle game",
        "server CPU/game"
    );
    let postgres = std::env::var("DICEBOUND_BENCH_POSTGRES_URL").ok();
    for (players, budget) in CROWDS {
        crowd(Setup::Sqlite, players, budget).await;
        if let Some(admin) = &postgres {
            crowd(
                Setup::Postgres {
                    admin,
                    instances: 1,
                },
                players,
                budget,
            )
            .await;
            crowd(
                Setup::Postgres {
                    admin,
                    instances: 2,
                },
                players,
                budget,
            )
            .await;
        }
    }
    if postgres.is_none() {
        println!("(PostgreSQL: not measured; set DICEBOUND_BENCH_POSTGRES_URL to a cluster's admin URL, as make bench does)");
    }
    println!("budget: memory per extra idle game ≤ 0.1 MB at 1,000 games");
}

/// `players` games at once on fresh servers; prints their row.
async fn crowd(setup: Setup<'_>, players: usize, budget: &str) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = FakeModel::start(LATENCY_MS);
    let (servers, addresses) = setup.start(&model, dir.path()).await;
    let rss = || servers.iter().map(|s| rss_kib(s.0.id())).sum::<u64>();
    let cpu = || servers.iter().map(|s| cpu_ticks(s.0.id())).sum::<u64>();
    // An extra idle game is measured: the first game pays once for what the server loads on
    // first use (the tokenizer, the prompt's parts, the statements), so one is opened on each
    // instance, and the server let settle, before the count starts.
    for addr in &addresses {
        start_checked(&reqwest::Client::new(), addr, None)
            .await
            .expect("the first game opens");
    }
    tokio::time::sleep(SETTLE).await;
    let before = rss();
    let cpu_before = cpu();
    // Each player plays on one instance (round robin).
    let players: Vec<(reqwest::Client, &String)> = (0..players)
        .map(|n| {
            let client = reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("a client");
            (client, &addresses[n % addresses.len()])
        })
        .collect();
    let ids = futures::future::join_all(
        players
            .iter()
            .map(|(c, addr)| async move { Ok(start_checked(c, addr, None).await?.0) }),
    )
    .await;
    // Idle games: measured once the openings are over and the server has had a quiet second
    // (it then gives the burst's freed memory back).
    tokio::time::sleep(SETTLE).await;
    let games = rss();
    let turns = futures::future::join_all(players.iter().zip(&ids).map(
        |((c, addr), id): (&(reqwest::Client, &String), &Result<_, String>)| async move {
            one_turn(c, addr, None, id.as_ref().ok()?, 1).await.ok()
        },
    ))
    .await;
    let mut added: Vec<Duration> = turns
        .iter()
        .flatten()
        .map(|took| took.saturating_sub(Duration::from_millis(2 * LATENCY_MS)))
        .collect();
    added.sort_unstable();
    let errors =
        ids.iter().filter(|id| id.is_err()).count() + turns.iter().filter(|t| t.is_none()).count();
    let p99 = quantile(&added, 0.99);
    let after = rss();
    let per_game = games.saturating_sub(before) as f64 / players.len() as f64 / 1024.0;
    let cpu_per_game = cpu().saturating_sub(cpu_before) as f64 * 1e3
        / ticks_per_second() as f64
        / players.len() as f64;
    let budget = if budget.is_empty() {
        String::new()
    } else {
        format!("  (budget: {budget} ms)")
    };
    println!(
        "{:<22} {:>8} {:>17.1} ms {:>8} {:>9.1} MB {:>23.3} MB {:>13.2} ms{budget}",
        setup.name(),
        players.len(),
        p99.as_secs_f64() * 1e3,
        errors,
        after as f64 / 1024.0,
        per_game,
        cpu_per_game,
    );
}

/// `memory`: resident KiB idle, after the first turn and after the last.
fn print_table(cold_start: Duration, memory: [u64; 3], times: &[Duration]) {
    let [idle, after_first, after] = memory;
    let at = |q: f64| quantile(times, q);
    println!(
        "\nfootprint: the release server process, instant fake OpenAI-compatible model, SQLite, loopback HTTP"
    );
    println!("{:<44} {:>12}", "measure", "value");
    println!(
        "{:<44} {:>9.1} ms",
        "cold start to the first page",
        cold_start.as_secs_f64() * 1e3
    );
    println!(
        "{:<44} {:>9.1} MB",
        "resident memory, idle",
        idle as f64 / 1024.0
    );
    println!(
        "{:<44} {:>9.1} MB",
        "resident memory after the first turn",
        after_first as f64 / 1024.0
    );
    println!(
        "{:<44} {:>9.1} ms",
        format!("a full turn over HTTP, p50 of {}", times.len()),
        at(0.5).as_secs_f64() * 1e3
    );
    println!(
        "{:<44} {:>9.1} ms",
        "a full turn over HTTP, p99",
        at(0.99).as_secs_f64() * 1e3
    );
    println!(
        "{:<44} {:>9.1} MB  (budget: ≤ 40 MB)",
        format!("resident memory after {} turns", times.len()),
        after as f64 / 1024.0
    );
}
