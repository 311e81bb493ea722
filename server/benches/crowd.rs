//! The crowd, as players play: how many players the server holds when each plays at their own
//! pace. For each level of `LEVELS`, that many players (a seeded RNG: each arrives at a uniform
//! time within `ARRIVALS`, so they do not all come at once) start a campaign, then think for a
//! uniform 10 to 30 s before each move, until `LEVEL` has passed since the first arrival (each
//! plays at least two moves: the last arrival, opening included, still has time for two of the
//! longest thoughts). A move is played exactly as the browser plays it: `play_turn` streamed to
//! its end, then `next_actions`. The fake OpenAI-compatible model (`scripts/fake-openai.mjs`)
//! answers each call after `LATENCY_MS`; an opening and a move each make two calls (the
//! narration, then the action list: the fake model asks for no tools).
//!
//! **Added latency** of an opening or a move: its wall time at the client (from sending the
//! first request to the last answer's end) less the model's own time, `CALLS_PER_MOVE` ×
//! `LATENCY_MS` = 2 s. A level is **held** when its p99 is at most `BUDGET` and no opening or
//! move failed (an HTTP error, a stream without its end, a refusal). Each level plays on fresh
//! servers and a fresh database: on SQLite one server process; on PostgreSQL (when
//! `DICEBOUND_BENCH_POSTGRES_URL` names a cluster's admin URL, as `make bench` sets it) two
//! instances sharing one database, the players split between them. Levels rise until one is not
//! held. Each row gives the moves, the errors, the added latency at p50 and p99, the server's
//! processor time (percent of one core, all instances), the bench's own (the players and the
//! fake model, which share the machine's cores with the server), the whole machine's (so that a
//! level run beside a build shows it) and the server's resident memory at the level's end.
//!
//! The players are cheap on purpose: one tokio runtime, one pooled HTTP client for all (each
//! player's cookie sent by hand), every wait a timer. The open-file limit is raised to its hard
//! limit at start (the server processes inherit it): each request in flight holds a socket at
//! both ends.
//!
//! Run with `cargo bench -p server --bench crowd` (or `make bench`); about 90 s a level. Prints a
//! table; nothing here passes or fails.

mod support;

use std::time::{Duration, Instant};

use app::wire::CampaignId;
use rand::{rngs::StdRng, Rng, SeedableRng};
use support::{cpu_ticks, one_turn, quantile, rss_kib, start_checked, ticks_per_second};
use support::{FakeModel, Server, Setup};

/// The players at each level, tried in order until one is not held.
const LEVELS: [usize; 6] = [250, 500, 1_000, 2_000, 3_000, 4_000];

/// The model's time before each reply (ms).
const LATENCY_MS: u64 = 1_000;

/// Model calls in an opening or a move: the narration, then the next actions.
const CALLS_PER_MOVE: u64 = 2;

/// A player's thought before each move (ms, uniform).
const THINK_MS: std::ops::Range<u64> = 10_000..30_000;

/// The time within which the players arrive (uniform).
const ARRIVALS: Duration = Duration::from_secs(20);

/// A level's length from its first arrival: no move begins after it.
const LEVEL: Duration = Duration::from_secs(85);

/// The most added latency at p99 a held level may have.
const BUDGET: Duration = Duration::from_millis(50);

/// The players one SQLite server should hold (issue 50).
const TARGET: usize = 2_000;

/// The players' seed: every run plays the same arrivals and thoughts.
const SEED: u64 = 50;

fn main() {
    raise_open_files();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(run());
}

/// The levels on SQLite, then on PostgreSQL with two instances.
async fn run() {
    println!(
        "\nthe crowd, as players play: each thinks {}–{} s before a move, the model answers each call in {LATENCY_MS} ms; added latency = a move's time at the client − {CALLS_PER_MOVE} × {LATENCY_MS} ms",
        THINK_MS.start / 1_000,
        THINK_MS.end / 1_000
    );
    println!(
        "{:<24} {:>8} {:>7} {:>7} {:>12} {:>12} {:>11} {:>10} {:>12} {:>10}",
        "database",
        "players",
        "moves",
        "errors",
        "added p50",
        "added p99",
        "server CPU",
        "bench CPU",
        "machine CPU",
        "memory"
    );
    let sqlite = held(Setup::Sqlite).await;
    let postgres = match std::env::var("DICEBOUND_BENCH_POSTGRES_URL") {
        Ok(admin) => Some(
            held(Setup::Postgres {
                admin: &admin,
                instances: 2,
            })
            .await,
        ),
        Err(_) => None,
    };
    let budget = BUDGET.as_millis();
    println!(
        "players held at p99 ≤ {budget} ms and 0 errors, SQLite: {sqlite} (target ≥ {TARGET})"
    );
    match postgres {
        Some(held) => println!(
            "players held at p99 ≤ {budget} ms and 0 errors, PostgreSQL (2 instances): {held}"
        ),
        None => println!("(PostgreSQL: not measured; set DICEBOUND_BENCH_POSTGRES_URL to a cluster's admin URL, as make bench does)"),
    }
}

/// The levels to play: `DICEBOUND_CROWD_LEVELS` (players, comma-separated, e.g. `1000,2000`)
/// when set, to bisect for the most held; else [`LEVELS`].
fn levels() -> Vec<usize> {
    std::env::var("DICEBOUND_CROWD_LEVELS")
        .ok()
        .map(|levels| {
            levels
                .split(',')
                .filter_map(|players| players.trim().parse().ok())
                .collect()
        })
        .filter(|levels: &Vec<usize>| !levels.is_empty())
        .unwrap_or_else(|| LEVELS.to_vec())
}

/// Plays the levels on `setup` until one is not held (printing each); the most players held.
async fn held(setup: Setup<'_>) -> usize {
    let mut held = 0;
    for players in levels() {
        let level = level(setup, players).await;
        level.print(&setup.name(), players);
        if !level.holds() {
            break;
        }
        held = players;
    }
    held
}

/// What a level measured.
struct Level {
    /// The added latency of every opening and move played, sorted.
    added: Vec<Duration>,
    /// The openings and moves that failed, and the first one's reason.
    errors: usize,
    first_error: Option<String>,
    /// Processor time over the level, percent of one core: the servers', the bench's own (its
    /// players and the fake model), and the whole machine's (PostgreSQL's and any other
    /// program's too: what else the server's latency competed with).
    server_cpu: f64,
    bench_cpu: f64,
    machine_cpu: f64,
    /// The servers' resident memory at the level's end (KiB).
    memory: u64,
}

impl Level {
    fn holds(&self) -> bool {
        self.errors == 0 && quantile(&self.added, 0.99) <= BUDGET
    }

    fn print(&self, database: &str, players: usize) {
        let ms = |q: f64| quantile(&self.added, q).as_secs_f64() * 1e3;
        println!(
            "{database:<24} {players:>8} {:>7} {:>7} {:>9.1} ms {:>9.1} ms {:>10.0}% {:>9.0}% {:>11.0}% {:>7.1} MB",
            self.added.len(),
            self.errors,
            ms(0.5),
            ms(0.99),
            self.server_cpu,
            self.bench_cpu,
            self.machine_cpu,
            self.memory as f64 / 1024.0,
        );
        if let Some(error) = &self.first_error {
            let error: String = error.chars().take(200).collect();
            println!("  first error: {error}");
        }
    }
}

/// `players` players on fresh servers of `setup` for one level.
async fn level(setup: Setup<'_>, players: usize) -> Level {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = FakeModel::start(LATENCY_MS);
    let (servers, addresses) = setup.start(&model, dir.path()).await;
    // Idle connections are let go before the server's header-read timeout could close them
    // under a request.
    let client = reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(3))
        .build()
        .expect("a client");
    let bench = [std::process::id(), model.0.id()];
    let ticks = |pids: &mut dyn Iterator<Item = u32>| pids.map(cpu_ticks).sum::<u64>();
    let server_ticks = || ticks(&mut servers.iter().map(|s: &Server| s.0.id()));
    let (server_before, bench_before) = (server_ticks(), ticks(&mut bench.into_iter()));
    let machine_before = machine_ticks();
    let began = Instant::now();
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut crowd = tokio::task::JoinSet::new();
    for n in 0..players {
        let arrival = began + ARRIVALS.mul_f64(rng.random::<f64>());
        let seed = rng.random();
        let (client, addr) = (client.clone(), addresses[n % addresses.len()].clone());
        crowd.spawn(async move { play(&client, &addr, arrival, began + LEVEL, seed).await });
    }
    let mut level = Level {
        added: Vec::new(),
        errors: 0,
        first_error: None,
        server_cpu: 0.0,
        bench_cpu: 0.0,
        machine_cpu: 0.0,
        memory: 0,
    };
    while let Some(tally) = crowd.join_next().await {
        let tally = tally.expect("a player ends");
        level.added.extend(tally.added);
        if let Some(error) = tally.error {
            level.errors += 1;
            level.first_error.get_or_insert(error);
        }
    }
    let percent = |ticks: u64| {
        ticks as f64 * 100.0 / ticks_per_second() as f64 / began.elapsed().as_secs_f64()
    };
    level.server_cpu = percent(server_ticks() - server_before);
    level.bench_cpu = percent(ticks(&mut bench.into_iter()) - bench_before);
    level.machine_cpu = percent(machine_ticks() - machine_before);
    level.memory = servers.iter().map(|s| rss_kib(s.0.id())).sum();
    level.added.sort_unstable();
    level
}

/// What one player saw: the added latency of each opening and move, and why they stopped if a
/// request failed.
#[derive(Default)]
struct Tally {
    added: Vec<Duration>,
    error: Option<String>,
}

impl Tally {
    /// Records a move's outcome; whether the player plays on.
    fn record(&mut self, outcome: Result<Duration, String>) -> bool {
        match outcome {
            Ok(took) => {
                let model = Duration::from_millis(CALLS_PER_MOVE * LATENCY_MS);
                self.added.push(took.saturating_sub(model));
                true
            }
            Err(error) => {
                self.error = Some(error);
                false
            }
        }
    }
}

/// One player at the server at `addr`: arrives at `arrival`, starts a campaign, then thinks and
/// moves until a move would begin after `end` (or one fails).
async fn play(
    client: &reqwest::Client,
    addr: &str,
    arrival: Instant,
    end: Instant,
    seed: u64,
) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    tokio::time::sleep_until(arrival.into()).await;
    let began = Instant::now();
    let opened: Result<(CampaignId, String), String> = start_checked(client, addr, None).await;
    let (id, cookie) = match opened {
        Ok(opened) => opened,
        Err(error) => {
            tally.record(Err(error));
            return tally;
        }
    };
    tally.record(Ok(began.elapsed()));
    for turn in 1.. {
        let next = Instant::now() + Duration::from_millis(rng.random_range(THINK_MS));
        if next > end {
            break;
        }
        tokio::time::sleep_until(next.into()).await;
        if !tally.record(one_turn(client, addr, Some(&cookie), &id, turn).await) {
            break;
        }
    }
    tally
}

/// Processor time the whole machine has spent busy so far (every core; all but idle and waiting
/// for the disk), in clock ticks (Linux's /proc/stat).
fn machine_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let times: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|field| field.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    let idle = times.get(3).copied().unwrap_or(0) + times.get(4).copied().unwrap_or(0);
    times.iter().take(8).sum::<u64>() - idle
}

/// Raises this process's open-file limit to its hard limit (the servers it starts inherit it).
#[expect(
    unsafe_code,
    reason = "getrlimit and setrlimit are C calls; they only read and write the struct passed"
)]
fn raise_open_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
