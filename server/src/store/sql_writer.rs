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

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use app::campaign::store::StoreError;
use sqlx::any::AnyTransactionManager;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, TransactionManager};
use tokio::sync::{Mutex, MutexGuard};

use super::sql::database;

/// Where writes go.
#[derive(Clone, Debug)]
pub(super) enum Writer {
    /// Connections of a pool (PostgreSQL, which locks rows; an in-memory SQLite database, whose
    /// one connection the readers share).
    Pool(AnyPool),
    /// The one connection that writes a SQLite file: writers queue here in order instead of
    /// polling the file's lock (SQLite's busy handler sleeps up to 100 ms between tries).
    One(Arc<Mutex<AnyConnection>>),
}

impl Writer {
    /// A connection to write with, waiting for the writer before.
    pub(super) async fn connection(&self) -> Result<Writing<'_>, StoreError> {
        Ok(match self {
            Self::Pool(pool) => Writing::Pooled(pool.acquire().await.map_err(database)?),
            Self::One(connection) => {
                let mut connection = connection.lock().await;
                if connection.is_in_transaction() {
                    AnyTransactionManager::rollback(&mut connection)
                        .await
                        .map_err(database)?;
                }
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
    One(MutexGuard<'a, AnyConnection>),
}

impl Deref for Writing<'_> {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        match self {
            Self::Pooled(connection) => connection,
            Self::One(connection) => connection,
        }
    }
}

impl DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        match self {
            Self::Pooled(connection) => connection,
            Self::One(connection) => connection,
        }
    }
}
