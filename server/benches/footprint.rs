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

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use app::api::{NextActions, PlayTurn, StartCampaign};
use app::wire::view::TurnUpdate;
use app::wire::CampaignId;
use leptos::server_fn::ServerFn;

/// Turns played after the opening.
const TURNS: u32 = 20;

/// Players playing at once, and the budget for the latency the server adds at p99 (ms).
const CROWDS: [(usize, &str); 3] = [(10, ""), (100, "≤ 10"), (1_000, "≤ 50")];

/// The cookie secret the PostgreSQL instances share (a throwaway database's).
const SHARED_SECRET: &str =
    "a-cookie-secret-for-the-benchmark-s-throwaway-database-never-used-elsewhere";

/// The slow model's time before each reply.
const LATENCY_MS: u64 = 1_000;

/// How long a server is let settle before its memory is read: more than the quiet second after
/// which it gives freed memory back (`server/src/memory.rs`).
const SETTLE: Duration = Duration::from_millis(2_500);

/// The fake model: every narration one short scene, every action list one action.
const FAKE_MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/fake-openai.mjs");

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
    let url = |path: &str| format!("http://{addr}{path}");
    while !client
        .get(url("/"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let cold_start = started.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle = rss_kib(server.0.id());

    let id = start(&client, &url(StartCampaign::PATH)).await;
    let mut times = Vec::new();
    let mut after_first = 0;
    for turn in 1..=TURNS {
        let began = Instant::now();
        let body = client
            .post(url(PlayTurn::PATH))
            .json(&serde_json::json!({"id": id, "turn": turn, "input": {"kind": "text", "text": "I walk on"}}))
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("the turn is played")
            .text()
            .await
            .expect("the turn streams");
        assert!(body.contains("\"done\""), "turn {turn}: {body}");
        client
            .post(url(NextActions::PATH))
            .form(&[("id", id.as_str())])
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("the actions arrive");
        times.push(began.elapsed());
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

/// Where a crowd plays.
#[derive(Clone, Copy)]
enum Setup<'a> {
    /// One server on a SQLite file.
    Sqlite,
    /// `instances` servers on one new database in the PostgreSQL cluster at `admin`.
    Postgres { admin: &'a str, instances: usize },
}

impl Setup<'_> {
    fn name(self) -> String {
        match self {
            Self::Sqlite => "SQLite".to_owned(),
            Self::Postgres { instances: 1, .. } => "PostgreSQL, 1 instance".to_owned(),
            Self::Postgres { instances, .. } => format!("PostgreSQL, {instances} instances"),
        }
    }

    /// The database's URL and the servers' addresses, the servers started.
    async fn start(self, model: &FakeModel, dir: &std::path::Path) -> (Vec<Server>, Vec<String>) {
        let many = "1000000".to_owned();
        let mut extra = vec![
            ("DICEBOUND_LLM_CONCURRENCY", many.clone()),
            ("DICEBOUND_CAMPAIGNS_PER_HOUR", many.clone()),
            ("DICEBOUND_TURNS_PER_MINUTE", many),
        ];
        let (database, instances) = match self {
            Self::Sqlite => (sqlite_url(dir), 1),
            Self::Postgres { admin, instances } => {
                extra.push(("DICEBOUND_COOKIE_SECRET", SHARED_SECRET.to_owned()));
                (fresh_postgres(admin).await, instances)
            }
        };
        let mut servers = Vec::new();
        let mut addresses = Vec::new();
        for _ in 0..instances {
            let addr = free_address();
            let mut server = Server(spawn(&addr, model, dir, &database, &extra));
            wait_for(&addr, &mut server).await;
            servers.push(server);
            addresses.push(addr);
        }
        (servers, addresses)
    }
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
        let url = format!("http://{addr}{}", StartCampaign::PATH);
        start_checked(&reqwest::Client::new(), url)
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
            .map(|(c, addr)| start_checked(c, format!("http://{addr}{}", StartCampaign::PATH))),
    )
    .await;
    // Idle games: measured once the openings are over and the server has had a quiet second
    // (it then gives the burst's freed memory back).
    tokio::time::sleep(SETTLE).await;
    let games = rss();
    let turns = futures::future::join_all(players.iter().zip(&ids).map(|((c, addr), id)| {
        let play = format!("http://{addr}{}", PlayTurn::PATH);
        let next = format!("http://{addr}{}", NextActions::PATH);
        async move { one_turn(c, id.as_ref().ok()?, &play, &next).await }
    }))
    .await;
    let mut added: Vec<Duration> = turns
        .iter()
        .flatten()
        .map(|took| took.saturating_sub(Duration::from_millis(2 * LATENCY_MS)))
        .collect();
    added.sort_unstable();
    let errors =
        ids.iter().filter(|id| id.is_err()).count() + turns.iter().filter(|t| t.is_none()).count();
    let p99 = added
        .get(((added.len().max(1) - 1) as f64 * 0.99).round() as usize)
        .copied()
        .unwrap_or_default();
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

/// Waits until `server`, at `addr`, answers its first page.
async fn wait_for(addr: &str, server: &mut Server) {
    let client = reqwest::Client::new();
    while !client
        .get(format!("http://{addr}/"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        if let Ok(Some(status)) = server.0.try_wait() {
            panic!("the server at {addr} stopped: {status}");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A SQLite file in `dir`.
fn sqlite_url(dir: &std::path::Path) -> String {
    format!("sqlite://{}/bench.db", dir.display())
}

/// The URL of a new, empty database in the PostgreSQL cluster at `admin`.
async fn fresh_postgres(admin: &str) -> String {
    use sqlx::{Connection, Executor};
    let mut connection = sqlx::PgConnection::connect(admin)
        .await
        .expect("the cluster answers");
    let name = format!(
        "bench_crowd_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos())
    );
    connection
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .expect("a new database");
    let (base, _) = admin.rsplit_once('/').expect("a database in the URL");
    format!("{base}/{name}")
}

/// A campaign started, or why not.
async fn start_checked(client: &reqwest::Client, url: String) -> Result<CampaignId, String> {
    let response = client
        .post(&url)
        .json(&serde_json::json!({"form": {"premise": "A road in the rain", "name": "Wren", "class": "Ranger"}}))
        .send()
        .await
        .map_err(|error| error.to_string())?;
    let body = response.text().await.map_err(|error| error.to_string())?;
    created(&body).ok_or(body)
}

/// One turn (the move streamed, then the actions) and how long it took, if it was played.
async fn one_turn(
    client: &reqwest::Client,
    id: &CampaignId,
    play: &str,
    next: &str,
) -> Option<Duration> {
    let began = Instant::now();
    let body = client
        .post(play)
        .json(&serde_json::json!({"id": id, "turn": 1, "input": {"kind": "text", "text": "I walk on"}}))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    body.contains("\"done\"").then_some(())?;
    let actions = client
        .post(next)
        .form(&[("id", id.as_str())])
        .send()
        .await
        .ok()?;
    actions.status().is_success().then(|| began.elapsed())
}

/// The server process, stopped when dropped.
struct Server(Child);

/// The fake model's process and its port, stopped when dropped.
struct FakeModel(Child, u16);

impl FakeModel {
    /// Starts the fake model, answering after `latency_ms`.
    fn start(latency_ms: u64) -> Self {
        let mut child = Command::new("node")
            .arg(FAKE_MODEL)
            .env("LATENCY_MS", latency_ms.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs the fake model");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("its output")),
            &mut line,
        )
        .expect("the fake model says where it listens");
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Self(child, port)
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(
    addr: &str,
    model: &FakeModel,
    data: &std::path::Path,
    database: &str,
    extra: &[(&str, String)],
) -> Child {
    Command::new(env!("CARGO_BIN_EXE_server"))
        .envs(extra.iter().map(|(name, value)| (*name, value.as_str())))
        .env("LEPTOS_SITE_ADDR", addr)
        .env("LEPTOS_SITE_ROOT", data)
        .env("LEPTOS_ENV", "PROD")
        .env("RUST_LOG", "warn")
        .env(
            "DICEBOUND_LLM_BASE_URL",
            format!("http://127.0.0.1:{}/v1", model.1),
        )
        .env("DICEBOUND_LLM_API_KEY", "fake")
        .env("DICEBOUND_LLM_MODEL", "fake")
        .env("DICEBOUND_DATABASE_URL", database)
        .env("DICEBOUND_TURNS_PER_MINUTE", "6000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the release server starts")
}

/// A loopback address nobody listens on yet.
fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").to_string()
}

/// Starts a campaign; its id.
async fn start(client: &reqwest::Client, url: &str) -> CampaignId {
    let body = client
        .post(url)
        .json(&serde_json::json!({"form": {"premise": "A road in the rain", "name": "Wren", "class": "Ranger"}}))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the campaign starts")
        .text()
        .await
        .expect("the opening streams");
    created(&body).unwrap_or_else(|| panic!("no campaign in {body}"))
}

/// The campaign a `start_campaign` stream ended with, if it did.
fn created(body: &str) -> Option<CampaignId> {
    body.lines()
        .filter_map(|line| serde_json::from_str::<TurnUpdate>(line).ok())
        .find_map(|update| match update {
            TurnUpdate::Created { summary } => Some(summary.id),
            _ => None,
        })
}

/// Resident memory of process `pid` in KiB (Linux's /proc).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Processor time process `pid` has used so far (user and system), in clock ticks (Linux's
/// /proc).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name (in parentheses): utime and stime are the 12th and 13th.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux).
fn ticks_per_second() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100)
}

/// `memory`: resident KiB idle, after the first turn and after the last.
fn print_table(cold_start: Duration, memory: [u64; 3], times: &[Duration]) {
    let [idle, after_first, after] = memory;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
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
