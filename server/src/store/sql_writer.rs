//! The connection that writes: for a SQLite file one connection held apart from any pool, for
//! PostgreSQL (and an in-memory SQLite database) the pool.
//! The recall's search reads on it too, where its page cache is up to date (`sql_search::search`).
//!
//! A pool pings each connection given back to it (sqlx 0.8 does so on every release, to flush
//! a transaction an interrupted caller left open). On SQLite that ping is a round trip through
//! the connection's worker thread, which wakes two threads: about as much processor time as a
//! turn's statements themselves. The one writing connection is never given back, so it is never
//! pinged; a transaction dropped unfinished queues its rollback on the connection, which runs
//! before the next statement, and one left open by a caller that gave up between its `BEGIN`
//! and its transaction is rolled back when the connection is next taken.
//!
//! On that one connection a commit is one text, `BEGIN` to `COMMIT` ([`Writing::commit_text`]):
//! one round trip to the worker thread instead of three. The transaction it opens is its own,
//! not sqlx's, so the connection remembers that one is under way until it has ended; one a
//! caller gave up on is rolled back when the connection is next taken.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use app::campaign::store::StoreError;
use sqlx::any::AnyTransactionManager;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Executor, TransactionManager};
use tokio::sync::{Mutex, MutexGuard};

use super::sql::database;
use super::sql_batch::Batch;

/// Where writes go.
#[derive(Clone, Debug)]
pub(super) enum Writer {
    /// Connections of a pool (PostgreSQL, which locks rows; an in-memory SQLite database, whose
    /// one connection the readers share).
    Pool(AnyPool),
    /// The one connection that writes a SQLite file: writers queue here in order instead of
    /// polling the file's lock (SQLite's busy handler sleeps up to 100 ms between tries).
    One(Arc<Mutex<OneConnection>>),
}

/// The one writing connection of a SQLite file.
#[derive(Debug)]
pub(super) struct OneConnection {
    connection: AnyConnection,
    /// A transaction of a [commit text](Writing::commit_text) may be open: sent, not seen to end.
    text_open: bool,
}

impl OneConnection {
    /// The writing connection `connection`, with no transaction open.
    pub(super) fn new(connection: AnyConnection) -> Self {
        Self {
            connection,
            text_open: false,
        }
    }

    /// Rolls back whatever transaction a caller that gave up left open.
    async fn settle(&mut self) -> Result<(), StoreError> {
        if self.text_open {
            // It may have ended before the caller gave up: then there is nothing to roll back,
            // and SQLite says so (an error that says nothing else).
            let _ = self.connection.execute("ROLLBACK").await;
            self.text_open = false;
        }
        if self.connection.is_in_transaction() {
            AnyTransactionManager::rollback(&mut self.connection)
                .await
                .map_err(database)?;
        }
        Ok(())
    }
}

impl Writer {
    /// A connection to write with, waiting for the writer before.
    pub(super) async fn connection(&self) -> Result<Writing<'_>, StoreError> {
        Ok(match self {
            Self::Pool(pool) => Writing::Pooled(pool.acquire().await.map_err(database)?),
            Self::One(connection) => {
                let mut connection = connection.lock().await;
                connection.settle().await?;
                Writing::One(connection)
            }
        })
    }
}

/// A connection to write with, held until dropped.
pub(super) enum Writing<'a> {
    /// One of the pool's.
    Pooled(PoolConnection<Any>),
    /// The one writing connection.
    One(MutexGuard<'a, OneConnection>),
}

impl Writing<'_> {
    /// Runs `batch` as one transaction in one text, if this is the one writing connection and
    /// the batch fits in one text (`None`: run it in a transaction of sqlx's instead). The first
    /// statement guards the rest: when it changes no row, nothing after it runs and the
    /// transaction is rolled back, as it is when any statement fails; the error is then the
    /// failed statement's.
    pub(super) async fn commit_text(
        &mut self,
        batch: &Batch<'_>,
    ) -> Option<Result<(), sqlx::Error>> {
        let Self::One(one) = self else {
            return None;
        };
        let text = batch.transaction_text()?;
        one.text_open = true;
        let run = text.run(&mut one.connection).await.map(drop);
        // Nothing after a failed statement ran, `COMMIT` included. A rollback that fails too
        // is tried again when the connection is next taken.
        let ended = run.is_ok() || one.connection.execute("ROLLBACK").await.is_ok();
        one.text_open = !ended;
        Some(run)
    }
}

impl Deref for Writing<'_> {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        match self {
            Self::Pooled(connection) => connection,
            Self::One(one) => &one.connection,
        }
    }
}

impl DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        match self {
            Self::Pooled(connection) => connection,
            Self::One(one) => &mut one.connection,
        }
    }
}
