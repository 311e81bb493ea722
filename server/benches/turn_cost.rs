//! What one turn costs as a campaign grows: a campaign of 10 turns and one of 1,000 turns
//! (played through the service against an instant scripted model, stored in SQLite, then again
//! in PostgreSQL when `DICEBOUND_BENCH_POSTGRES_URL` names a cluster, as `make bench` does), then
//! `SAMPLES` more turns on each, measuring for a full turn (both phases): server time, rows the
//! store reads, bytes sent to the browser (the streamed JSON lines plus the actions answer), and
//! processor time (the whole process's, every thread's: the runtime's and SQLite's worker
//! threads', from the process's CPU-time clock). The goals: the long campaign within 1.2× of the short one
//! (issue: campaign spine), and at most 1 ms of processor time per turn at p50 on SQLite
//! (issue 50).
//!
//! Run with `cargo bench -p server --bench turn_cost` (or `make bench`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use app::campaign::event::StoredEvent;
use app::campaign::passage::{Passage, SearchQuery, SearchScope};
use app::campaign::picture::PictureId;
use app::campaign::state::CampaignState;
use app::campaign::store::{
    Append, CampaignRecord, CampaignStore, Commit, Current, KeptPicture, StoreError,
};
use app::gm::scripted::ScriptedLlm;
use app::gm::GmSettings;
use app::service::{Game, MoveRequest, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign, StoryEntry};
use app::wire::{CampaignId, PlayerId};
use futures::future::BoxFuture;
use rand::{rngs::StdRng, SeedableRng};
use server::store::SqlStore;
use sqlx::{Connection, Executor, PgConnection};

const SAMPLES: usize = 200;

const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d8+1", "reason": "Ghoul claw"}}]},
    {"text": "The ghoul's claw rakes the air. **Torchlight** shakes on the wet stones as you press on."}
  ],
  "actions": [{"json": {"actions": [
    {"id": "strike", "description": "Strike the ghoul", "diceRoll": "1d20", "diceReason": "Attack", "difficultyClass": 12, "attribute": "STR"},
    {"id": "search", "description": "Search the alcove", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
  ]}}]}"#;

/// The store, counting the rows it hands back.
struct Counting {
    inner: SqlStore,
    rows: AtomicU64,
}

impl Counting {
    fn tally(&self, rows: usize) {
        self.rows.fetch_add(rows as u64, Ordering::Relaxed);
    }
}

impl CampaignStore for Counting {
    fn create<'a>(
        &'a self,
        record: &'a CampaignRecord,
        events: &'a [StoredEvent],
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.create(record, events, story, state)
    }
    fn list<'a>(
        &'a self,
        owner: &'a PlayerId,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<CampaignRecord>, StoreError>> {
        Box::pin(async move {
            let list = self.inner.list(owner, offset, limit).await?;
            self.tally(list.len());
            Ok(list)
        })
    }
    fn count<'a>(&'a self, owner: &'a PlayerId) -> BoxFuture<'a, Result<u32, StoreError>> {
        Box::pin(async move {
            let count = self.inner.count(owner).await?;
            self.tally(1);
            Ok(count)
        })
    }
    fn current<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Current, StoreError>> {
        Box::pin(async move {
            let current = self.inner.current(owner, id).await?;
            self.tally(1);
            Ok(current)
        })
    }
    fn story<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        before: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<(u32, Vec<StoryEntry>), StoreError>> {
        Box::pin(async move {
            let page = self.inner.story(owner, id, before, limit).await?;
            self.tally(page.1.len());
            Ok(page)
        })
    }
    fn search<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        query: &'a SearchQuery,
        scope: SearchScope,
    ) -> BoxFuture<'a, Result<Vec<Passage>, StoreError>> {
        Box::pin(async move {
            let found = self.inner.search(owner, id, query, scope).await?;
            self.tally(found.len());
            Ok(found)
        })
    }
    fn log<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(CampaignRecord, Vec<StoredEvent>), StoreError>> {
        Box::pin(async move {
            let log = self.inner.log(owner, id).await?;
            self.tally(1 + log.1.len());
            Ok(log)
        })
    }
    fn commit<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        expected_turn: u32,
        how: Append,
        commit: Commit<'a>,
        now: i64,
    ) -> BoxFuture<'a, Result<u32, StoreError>> {
        // The commit reads one row itself: the log's last sequence number (an index lookup).
        self.tally(1);
        self.inner
            .commit(owner, id, expected_turn, how, commit, now)
    }
    fn rebuild<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        turn: u32,
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.rebuild(owner, id, turn, story, state)
    }
    fn rename<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        title: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.rename(owner, id, title)
    }
    fn delete<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.delete(owner, id)
    }
    fn trash<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.trash(owner, id, now)
    }
    fn trashed<'a>(
        &'a self,
        owner: &'a PlayerId,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<(CampaignRecord, i64)>, StoreError>> {
        self.inner.trashed(owner, since)
    }
    fn restore<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        since: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.restore(owner, id, since)
    }
    fn purge(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.inner.purge(before)
    }

    fn set_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.set_recovery(owner, digest, now)
    }

    fn recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        self.inner.recovery(owner)
    }

    fn revoke_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.inner.revoke_recovery(owner)
    }

    fn redeem<'a>(
        &'a self,
        digest: &'a str,
        newcomer: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<PlayerId>, StoreError>> {
        self.inner.redeem(digest, newcomer)
    }
    fn put_picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a KeptPicture,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.put_picture(id, picture)
    }
    fn picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a PictureId,
    ) -> BoxFuture<'a, Result<Option<KeptPicture>, StoreError>> {
        self.inner.picture(id, picture)
    }
    fn pictures<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Vec<KeptPicture>, StoreError>> {
        self.inner.pictures(id)
    }
}

/// The processor time this process has used so far, on every thread.
fn processor_time() -> Duration {
    let time = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// One turn's cost.
struct Cost {
    time: Duration,
    cpu: Duration,
    rows: u64,
    bytes: usize,
}

/// Plays one full turn (a move, streamed, then the actions) as the server functions do.
async fn turn(
    game: &Game<'_>,
    store: &Counting,
    owner: &PlayerId,
    id: &CampaignId,
    at: u32,
    rng: &mut StdRng,
) -> Cost {
    let input = if at.is_multiple_of(2) {
        MoveInput::Action {
            id: "strike".into(),
        }
    } else {
        MoveInput::Text {
            text: "I press on".into(),
        }
    };
    let rows_before = store.rows.load(Ordering::Relaxed);
    let mut bytes = 0;
    let started = Instant::now();
    let cpu_before = processor_time();
    let request = MoveRequest {
        expected_turn: at,
        input: &input,
    };
    let (turn, tokens) = game
        .play(owner, id, request, 1, rng, &mut |update| {
            bytes += serde_json::to_string(&update).unwrap().len() + 1
        })
        .await
        .expect("the turn is played");
    let done = app::wire::view::TurnUpdate::Done { turn, tokens };
    let actions = game.ensure_actions(owner, id, 1).await.expect("actions");
    let time = started.elapsed();
    let cpu = processor_time() - cpu_before;
    bytes += serde_json::to_string(&done).unwrap().len()
        + 1
        + serde_json::to_string(&actions).unwrap().len();
    Cost {
        time,
        cpu,
        rows: store.rows.load(Ordering::Relaxed) - rows_before,
        bytes,
    }
}

/// A campaign being measured: its own database, model and service.
struct Bench {
    store: Counting,
    llm: ScriptedLlm,
    gm: GmSettings,
    in_flight: TurnsInFlight,
    owner: PlayerId,
    id: CampaignId,
    turn: u32,
}

impl Bench {
    fn game(&self) -> Game<'_> {
        Game {
            store: &self.store,
            llm: &self.llm,
            gm: &self.gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }

    /// A campaign with `turns` turns played, in the empty database at `url`.
    async fn new(url: &str, turns: u32, rng: &mut StdRng) -> Self {
        let store = SqlStore::open(url).await.unwrap();
        let mut bench = Self {
            in_flight: store.turns_in_flight(),
            store: Counting {
                inner: store,
                rows: AtomicU64::new(0),
            },
            llm: ScriptedLlm::from_json(SCENARIO).unwrap(),
            gm: GmSettings::default(),
            owner: PlayerId::random(rng),
            id: CampaignId::random(rng),
            turn: 1,
        };
        let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
        bench.id = bench
            .game()
            .create(&bench.owner, &form, 1, rng, &mut |_| {})
            .await
            .unwrap()
            .id;
        while bench.turn < turns {
            bench.next(rng).await;
        }
        bench
    }

    /// Plays and measures the next turn.
    async fn next(&mut self, rng: &mut StdRng) -> Cost {
        let cost = turn(
            &self.game(),
            &self.store,
            &self.owner,
            &self.id,
            self.turn,
            rng,
        )
        .await;
        self.turn += 1;
        cost
    }
}

/// Both campaigns measured turn by turn in alternation, so that whatever else the machine does
/// falls on both alike.
async fn measure(database: &Database) -> (Vec<Cost>, Vec<Cost>) {
    let mut rng = StdRng::seed_from_u64(7);
    let mut short = Bench::new(&database.fresh("short").await, 10, &mut rng).await;
    let mut long = Bench::new(&database.fresh("long").await, 1_000, &mut rng).await;
    let (mut a, mut b) = (Vec::with_capacity(SAMPLES), Vec::with_capacity(SAMPLES));
    for _ in 0..SAMPLES {
        a.push(short.next(&mut rng).await);
        b.push(long.next(&mut rng).await);
    }
    (a, b)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

struct Row {
    p50: Duration,
    p99: Duration,
    cpu_p50: Duration,
    cpu_p99: Duration,
    rows: f64,
    bytes: f64,
}

fn summarise(costs: &[Cost]) -> Row {
    let mut times: Vec<Duration> = costs.iter().map(|c| c.time).collect();
    times.sort();
    let mut cpu: Vec<Duration> = costs.iter().map(|c| c.cpu).collect();
    cpu.sort();
    let n = costs.len() as f64;
    Row {
        p50: percentile(&times, 0.5),
        p99: percentile(&times, 0.99),
        cpu_p50: percentile(&cpu, 0.5),
        cpu_p99: percentile(&cpu, 0.99),
        rows: costs.iter().map(|c| c.rows as f64).sum::<f64>() / n,
        bytes: costs.iter().map(|c| c.bytes as f64).sum::<f64>() / n,
    }
}

/// Where the campaigns are stored.
enum Database {
    /// SQLite files in a temporary folder.
    Sqlite(tempfile::TempDir),
    /// New databases in the PostgreSQL cluster at this admin URL.
    Postgres(String),
}

impl Database {
    fn name(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "SQLite",
            Self::Postgres(_) => "PostgreSQL",
        }
    }

    /// The URL of a new, empty database called `name`.
    async fn fresh(&self, name: &str) -> String {
        match self {
            Self::Sqlite(dir) => format!("sqlite://{}", dir.path().join(name).display()),
            Self::Postgres(admin) => {
                let mut connection = PgConnection::connect(admin).await.unwrap();
                let name = format!("bench_{name}_{}", std::process::id());
                connection
                    .execute(format!("DROP DATABASE IF EXISTS {name}").as_str())
                    .await
                    .unwrap();
                connection
                    .execute(format!("CREATE DATABASE {name}").as_str())
                    .await
                    .unwrap();
                let (base, _) = admin.rsplit_once('/').unwrap();
                format!("{base}/{name}")
            }
        }
    }
}

fn print_table(database: &Database, short: &Row, long: &Row) {
    println!(
        "\nturn cost: a full turn (move streamed + actions), instant scripted model, {}, {SAMPLES} samples",
        database.name()
    );
    println!(
        "{:<16} {:>12} {:>12} {:>12} {:>12} {:>12} {:>14}",
        "campaign", "cpu p50", "cpu p99", "wall p50", "wall p99", "rows read", "bytes to page"
    );
    for (name, row) in [("10 turns", short), ("1,000 turns", long)] {
        println!(
            "{:<16} {:>12.3?} {:>12.3?} {:>12.3?} {:>12.3?} {:>12.1} {:>14.0}",
            name, row.cpu_p50, row.cpu_p99, row.p50, row.p99, row.rows, row.bytes
        );
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let budget = match database {
        Database::Sqlite(_) => "(budget: cpu ≤ 1 ms p50 on SQLite; wall ≤ 1 ms p50, ≤ 5 ms p99)",
        Database::Postgres(_) => "(budget: wall ≤ 1 ms p50, ≤ 5 ms p99)",
    };
    println!(
        "{:<16} {:>12} {:>12} {:>12} {:>12}   {budget}",
        "budget", "≤ 1 ms", "", "≤ 1 ms", "≤ 5 ms"
    );
    println!(
        "{:<16} {:>12.2} {:>12.2} {:>12.2} {:>12.2} {:>12.2} {:>14.2}   (goal: each ≤ 1.20)",
        "ratio",
        ratio(long.cpu_p50, short.cpu_p50),
        ratio(long.cpu_p99, short.cpu_p99),
        ratio(long.p50, short.p50),
        ratio(long.p99, short.p99),
        long.rows / short.rows,
        long.bytes / short.bytes
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut databases = vec![Database::Sqlite(tempfile::tempdir().unwrap())];
    match std::env::var("DICEBOUND_BENCH_POSTGRES_URL") {
        Ok(admin) => databases.push(Database::Postgres(admin)),
        Err(_) => println!("\nturn cost on PostgreSQL: not measured (set DICEBOUND_BENCH_POSTGRES_URL to a cluster's admin URL; make bench starts one)"),
    }
    for database in &databases {
        let (short, long) = runtime.block_on(measure(database));
        print_table(database, &summarise(&short), &summarise(&long));
    }
}
