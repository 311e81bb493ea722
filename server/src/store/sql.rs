//! The campaign store over SQL: a SQLite file (the embedded default) or a PostgreSQL database
//! shared by any number of app instances, chosen by the database URL (sqlx's `Any` driver runs
//! the same statements on both; each has its own migrations). This file opens it and writes the
//! multi-row inserts; the ports it serves are in `sql_campaigns` (with the story's search index in
//! `sql_search` and the snapshot's window in `sql_window`), `sql_leases` and `sql_settings`.

use std::sync::Arc;
use std::time::Duration;

use app::campaign::store::StoreError;
use app::service::TurnsInFlight;
use app::wire::CampaignId;
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Executor, Transaction};
use tokio::sync::Mutex;

use super::recent::Recent;
use super::sql_writer::{OneConnection, Writer, Writing};
use super::word_counts::{WordCounts, Writing as IndexWrite};

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file (`sqlite://path/to/file.db`), served by one process.
    Sqlite,
    /// A PostgreSQL database (`postgres://…`), which many instances may share.
    Postgres,
}

/// Why a database URL is not one the store can open.
#[derive(Debug, thiserror::Error)]
#[error("the database URL must start with sqlite: or postgres:// (got a URL starting {scheme:?})")]
pub struct UnknownBackend {
    scheme: String,
}

impl Backend {
    /// The backend a database URL names.
    pub fn of(url: &str) -> Result<Self, UnknownBackend> {
        let scheme = url.split(':').next().unwrap_or_default();
        match scheme {
            "sqlite" => Ok(Self::Sqlite),
            "postgres" | "postgresql" => Ok(Self::Postgres),
            _ => Err(UnknownBackend {
                scheme: scheme.chars().take(12).collect(),
            }),
        }
    }

    /// Whether one process serves the database, so that a start may give back every lease.
    pub fn single_process(self) -> bool {
        self == Self::Sqlite
    }

    /// The statement that begins a transaction which reads before it writes: SQLite takes the
    /// write lock at once (one that reads first and writes later could not wait for another
    /// writer and would fail "database is locked"); PostgreSQL locks the rows it updates.
    fn begin_read_then_write(self) -> &'static str {
        match self {
            Self::Sqlite => "BEGIN IMMEDIATE",
            Self::Postgres => "BEGIN",
        }
    }

    /// The statement that begins a transaction whose reads all see one moment.
    pub(super) fn begin_consistent_read(self) -> &'static str {
        match self {
            Self::Sqlite => "BEGIN",
            Self::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        }
    }

    fn migrator(self) -> Migrator {
        match self {
            Self::Sqlite => sqlx::migrate!("./migrations/sqlite"),
            Self::Postgres => sqlx::migrate!("./migrations/postgres"),
        }
    }
}

/// Campaigns in a SQL database.
#[derive(Clone, Debug)]
pub struct SqlStore {
    /// Connections that read.
    pool: AnyPool,
    /// Where writes go: for a SQLite file its one writing connection, for PostgreSQL the same
    /// pool, which locks rows, not the database.
    writer: Writer,
    backend: Backend,
    /// The campaigns played lately, for a database only this process writes.
    recent: Option<Arc<Recent>>,
    /// The search index's word counts as last read, for a database only this process writes.
    words: Option<Arc<WordCounts>>,
}

pub(super) fn database(error: impl std::error::Error + Send + Sync + 'static) -> StoreError {
    StoreError::database(error)
}

/// Rows written by one multi-row `INSERT` (far below either database's limit on bound values;
/// a phase has a few dozen events at most).
pub(super) const ROWS_PER_INSERT: usize = 100;

/// `INSERT INTO {table} ({columns}) VALUES ($1, $2, …), …` for `rows` rows (numbered
/// placeholders, which both databases read).
pub(super) fn insert_rows(table_and_columns: &str, columns: usize, rows: usize) -> String {
    let mut sql = format!("INSERT INTO {table_and_columns} VALUES ");
    for row in 0..rows {
        let placeholders: Vec<String> = (1..=columns)
            .map(|column| format!("${}", row * columns + column))
            .collect();
        let separator = if row == 0 { "" } else { ", " };
        sql.push_str(&format!("{separator}({})", placeholders.join(", ")));
    }
    sql
}

/// Connections that read a SQLite file (besides the one that writes).
const SQLITE_READERS: u32 = 4;
/// Connections each instance opens to PostgreSQL.
const POSTGRES_CONNECTIONS: u32 = 16;

impl SqlStore {
    /// Opens the database at `url` (`sqlite://path/to/file.db`, created if missing, or
    /// `postgres://user:password@host/database`) and brings its schema up to date. A SQLite file,
    /// which only this process writes, keeps the campaigns played lately in memory.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let mut store = Self::open_shared(url).await?;
        store.recent = store.backend.single_process().then(Arc::default);
        store.words = store.backend.single_process().then(Arc::default);
        Ok(store)
    }

    /// Opens the database at `url` as one of several processes that write it: nothing is kept in
    /// memory between reads (what [`SqlStore::open`] does for a SQLite file only the server
    /// writes). For tests of server instances sharing one file.
    pub async fn open_shared(url: &str) -> Result<Self, StoreError> {
        let backend = Backend::of(url).map_err(database)?;
        sqlx::any::install_default_drivers();
        let (pool, writer) = match backend {
            Backend::Sqlite => open_sqlite(url).await?,
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(POSTGRES_CONNECTIONS)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(url)
                    .await
                    .map_err(database)?;
                (pool.clone(), Writer::Pool(pool))
            }
        };
        backend
            .migrator()
            .run(&mut *writer.connection().await?)
            .await
            .map_err(database)?;
        Ok(Self {
            pool,
            writer,
            backend,
            recent: None,
            words: None,
        })
    }

    /// The database this store keeps its campaigns in.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The campaigns played lately, kept in memory (a database only this process writes).
    pub(super) fn recent(&self) -> Option<&Recent> {
        self.recent.as_deref()
    }

    /// The search index's word counts as last read (a database only this process writes).
    pub(super) fn word_counts(&self) -> Option<&WordCounts> {
        self.words.as_deref()
    }

    /// A write to the search index of `added` passages, removing some or not (`removes`), as
    /// the kept word counts must know of it until the returned guard drops.
    pub(super) fn indexing(&self, added: usize, removes: bool) -> Option<IndexWrite<'_>> {
        self.word_counts()
            .map(|counts| counts.writing(added, removes))
    }

    /// Forgets campaign `id` as kept in memory (it was written other than by a commit).
    pub(super) fn forget(&self, id: &CampaignId) {
        if let Some(recent) = self.recent() {
            recent.forget(id);
        }
    }

    /// Forgets every campaign kept in memory (many were written at once).
    pub(super) fn forget_all(&self) {
        if let Some(recent) = self.recent() {
            recent.forget_all();
        }
    }

    /// The connections that read.
    pub(super) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// A connection to write with (waiting for the writer before, on SQLite).
    pub(super) async fn writing(&self) -> Result<Writing<'_>, StoreError> {
        self.writer.connection().await
    }

    /// The campaigns' leases for the game on this database: held in memory where one process
    /// serves it (see [`Backend::single_process`]), in the database where several may.
    pub fn turns_in_flight(&self) -> TurnsInFlight {
        let leases = Arc::new(self.clone());
        if self.backend.single_process() {
            TurnsInFlight::in_process(leases)
        } else {
            TurnsInFlight::new(leases)
        }
    }

    /// Gives back every lease: for a database served by one process (see
    /// [`Backend::single_process`]), no turn of the previous process runs after a restart.
    pub async fn clear_leases(&self) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM leases")
            .execute(&mut *self.writing().await?)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// A transaction whose first statement writes, on `connection` (from
    /// [`SqlStore::writing`]): that statement takes SQLite's write lock, waiting for another
    /// writer as `BEGIN IMMEDIATE` would. A plain `BEGIN` is one round trip to SQLite's worker
    /// thread; sqlx checks any other begin statement with a second.
    pub(super) async fn write<'c>(
        &self,
        connection: &'c mut AnyConnection,
    ) -> Result<Transaction<'c, Any>, StoreError> {
        connection.begin().await.map_err(database)
    }

    /// A transaction that reads before it writes, on `connection` (see
    /// [`Backend::begin_read_then_write`]).
    pub(super) async fn read_then_write<'c>(
        &self,
        connection: &'c mut AnyConnection,
    ) -> Result<Transaction<'c, Any>, StoreError> {
        connection
            .begin_with(self.backend.begin_read_then_write())
            .await
            .map_err(database)
    }
}

/// The reading pool and the writer of the SQLite file at `url`: created if missing, write-ahead
/// log, `synchronous = NORMAL` (safe with WAL), one writing connection. An in-memory database
/// gets one lasting connection in a pool for both (each new one would be another, empty
/// database).
async fn open_sqlite(url: &str) -> Result<(AnyPool, Writer), StoreError> {
    let separator = if url.contains('?') { '&' } else { '?' };
    let url = if url.contains("mode=") {
        url.to_owned()
    } else {
        format!("{url}{separator}mode=rwc")
    };
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    let pool = |connections: u32| {
        AnyPoolOptions::new()
            .max_connections(connections)
            // A file on this machine needs no ping before each use (a round trip through the
            // connection's worker thread on every statement and transaction).
            .test_before_acquire(false)
            .idle_timeout((!in_memory).then_some(Duration::from_secs(600)))
            .max_lifetime((!in_memory).then_some(Duration::from_secs(1800)))
            .after_connect(|connection, _| Box::pin(sqlite_pragmas(connection)))
            .connect(&url)
    };
    if in_memory {
        let pool = pool(1).await.map_err(database)?;
        return Ok((pool.clone(), Writer::Pool(pool)));
    }
    let mut writer = AnyConnection::connect(&url).await.map_err(database)?;
    sqlite_pragmas(&mut writer).await.map_err(database)?;
    writer
        .execute("PRAGMA journal_mode = WAL")
        .await
        .map_err(database)?;
    let reader = pool(SQLITE_READERS).await.map_err(database)?;
    let writer = OneConnection::new(writer);
    Ok((reader, Writer::One(Arc::new(Mutex::new(writer)))))
}

/// What each SQLite connection is opened with (foreign keys and a 5 s busy timeout are sqlx's
/// defaults).
async fn sqlite_pragmas(connection: &mut AnyConnection) -> Result<(), sqlx::Error> {
    connection.execute("PRAGMA synchronous = NORMAL").await?;
    Ok(())
}

/// Whether a statement on one of the owner's campaigns found it: another player's campaign, or
/// none, is not found.
pub(super) fn found(rows: u64) -> Result<(), StoreError> {
    if rows == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}
