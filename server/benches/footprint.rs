//! The server as players meet it: a release server process started against an instant scripted
//! model and a fresh SQLite file, then driven over HTTP like a browser. It measures the time from
//! starting the process to its first page (cold start), its resident memory once idle, a full
//! turn seen from the client over loopback (the move streamed, then the next actions: p50 and
//! p99 over `TURNS` turns), and its resident memory after the first turn and after them all.
//!
//! Run with `cargo bench -p server --bench footprint` (or `make bench`). Prints a table; nothing
//! here passes or fails.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use app::api::{NextActions, PlayTurn, StartCampaign};
use app::campaign::view::TurnUpdate;
use app::campaign::CampaignId;
use leptos::server_fn::ServerFn;

/// Turns played after the opening.
const TURNS: u32 = 20;

/// The scenario: every narration one short scene, every action list one action.
const SCENARIO: &str = r#"{"cycle": true,
  "steps": [{"text": "You walk on through the rain, and the road bends toward the river."}],
  "actions": [{"json": {"actions": [{"id": "walk", "description": "Walk on toward the river",
    "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}]}}]}"#;

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(run());
}

async fn run() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let scenario = dir.path().join("scenario.json");
    std::fs::write(&scenario, SCENARIO).expect("the scenario is written");
    let addr = free_address();
    let started = Instant::now();
    let server = Server(spawn(&addr, &scenario, dir.path()));
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
}

/// The server process, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(addr: &str, scenario: &std::path::Path, data: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_server"))
        .env("LEPTOS_SITE_ADDR", addr)
        .env("LEPTOS_SITE_ROOT", data)
        .env("LEPTOS_ENV", "PROD")
        .env("RUST_LOG", "warn")
        .env("DICEBOUND_LLM", format!("scripted:{}", scenario.display()))
        .env(
            "DICEBOUND_DATABASE_URL",
            format!("sqlite://{}/bench.db", data.display()),
        )
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
    body.lines()
        .filter_map(|line| serde_json::from_str::<TurnUpdate>(line).ok())
        .find_map(|update| match update {
            TurnUpdate::Created { summary } => Some(summary.id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no campaign in {body}"))
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

/// `memory`: resident KiB idle, after the first turn and after the last.
fn print_table(cold_start: Duration, memory: [u64; 3], times: &[Duration]) {
    let [idle, after_first, after] = memory;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "\nfootprint: the release server process, instant scripted model, SQLite, loopback HTTP"
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
        "{:<44} {:>9.1} MB",
        format!("resident memory after {} turns", times.len()),
        after as f64 / 1024.0
    );
}
