//! What the benches that drive the release server process over HTTP share (`footprint`,
//! `crowd`): the fake OpenAI-compatible model on loopback (`scripts/fake-openai.mjs`), the server
//! processes on a SQLite file or on a fresh PostgreSQL database, a campaign's opening and a turn
//! played as the browser plays them, and the processes' memory and processor time read from
//! Linux's /proc.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use app::api::{NextActions, PlayTurn, StartCampaign};
use app::wire::view::TurnUpdate;
use app::wire::CampaignId;
use leptos::server_fn::ServerFn;

/// The cookie secret the PostgreSQL instances share (a throwaway database's).
const SHARED_SECRET: &str =
    "a-cookie-secret-for-the-benchmark-s-throwaway-database-never-used-elsewhere";

/// The fake model: every narration one short scene, every action list one action.
const FAKE_MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/fake-openai.mjs");

/// The server process, stopped when dropped.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The fake model's process and its port, stopped when dropped.
pub struct FakeModel(pub Child, u16);

impl FakeModel {
    /// Starts the fake model, answering after `latency_ms`.
    pub fn start(latency_ms: u64) -> Self {
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

/// Where the players play.
#[derive(Clone, Copy)]
pub enum Setup<'a> {
    /// One server on a SQLite file.
    Sqlite,
    /// `instances` servers on one new database in the PostgreSQL cluster at `admin`.
    Postgres { admin: &'a str, instances: usize },
}

impl Setup<'_> {
    /// How a table row names it.
    pub fn name(self) -> String {
        match self {
            Self::Sqlite => "SQLite".to_owned(),
            Self::Postgres { instances: 1, .. } => "PostgreSQL, 1 instance".to_owned(),
            Self::Postgres { instances, .. } => format!("PostgreSQL, {instances} instances"),
        }
    }

    /// The servers started on a fresh database (a SQLite file in `dir`), every model call let
    /// run at once and no rate limit in the way; their addresses.
    pub async fn start(
        self,
        model: &FakeModel,
        dir: &std::path::Path,
    ) -> (Vec<Server>, Vec<String>) {
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

/// The release server at `addr`, on `database`, against `model`, with the `extra` settings:
/// `DICEBOUND_SERVER_BIN` when set, else the one cargo built with the bench.
pub fn spawn(
    addr: &str,
    model: &FakeModel,
    data: &std::path::Path,
    database: &str,
    extra: &[(&str, String)],
) -> Child {
    let binary = std::env::var_os("DICEBOUND_SERVER_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_server").into());
    Command::new(binary)
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

/// Waits until `server`, at `addr`, answers its first page.
pub async fn wait_for(addr: &str, server: &mut Server) {
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

/// A loopback address nobody listens on yet.
pub fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").to_string()
}

/// A SQLite file in `dir`.
pub fn sqlite_url(dir: &std::path::Path) -> String {
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

/// A POST to `url`, carrying `cookie` (for a client that keeps no cookies of its own: one
/// pooled client for many players).
fn post(client: &reqwest::Client, url: &str, cookie: Option<&str>) -> reqwest::RequestBuilder {
    let request = client.post(url);
    match cookie {
        Some(cookie) => request.header(reqwest::header::COOKIE, cookie),
        None => request,
    }
}

/// A campaign started at the server at `addr` (the opening streamed to its end), and the
/// cookies the server set (`name=value; …`, empty when none), or why not.
pub async fn start_checked(
    client: &reqwest::Client,
    addr: &str,
    cookie: Option<&str>,
) -> Result<(CampaignId, String), String> {
    let url = format!("http://{addr}{}", StartCampaign::PATH);
    let response = post(client, &url, cookie)
        .json(&serde_json::json!({"form": {"premise": "A road in the rain", "name": "Wren", "class": "Ranger"}}))
        .send()
        .await
        .map_err(|error| error.to_string())?;
    let set: Vec<&str> = response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok()?.split(';').next())
        .collect();
    let set = set.join("; ");
    let body = response.text().await.map_err(|error| error.to_string())?;
    created(&body).map(|id| (id, set)).ok_or(body)
}

/// One turn at the server at `addr` (the move for `turn` streamed, then the next actions, as the
/// browser asks for them) and how long it took at the client, or why it failed.
pub async fn one_turn(
    client: &reqwest::Client,
    addr: &str,
    cookie: Option<&str>,
    id: &CampaignId,
    turn: u32,
) -> Result<Duration, String> {
    let play = format!("http://{addr}{}", PlayTurn::PATH);
    let next = format!("http://{addr}{}", NextActions::PATH);
    let began = Instant::now();
    let body = post(client, &play, cookie)
        .json(&serde_json::json!({"id": id, "turn": turn, "input": {"kind": "text", "text": "I walk on"}}))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|error| error.to_string())?
        .text()
        .await
        .map_err(|error| error.to_string())?;
    if !body.contains("\"done\"") {
        return Err(body);
    }
    post(client, &next, cookie)
        .form(&[("id", id.as_str())])
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|error| error.to_string())?;
    Ok(began.elapsed())
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
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Processor time process `pid` has used so far (user and system), in clock ticks (Linux's
/// /proc).
pub fn cpu_ticks(pid: u32) -> u64 {
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
pub fn ticks_per_second() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100)
}

/// The value at quantile `q` (0 to 1) of `sorted`, or zero when it is empty.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * q).round() as usize)
        .copied()
        .unwrap_or_default()
}
