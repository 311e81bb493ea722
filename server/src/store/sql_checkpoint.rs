//! The SQLite file's checkpoints, run beside the commits instead of inside one.
//!
//! In WAL mode each commit appends its pages to the write-ahead log, and a checkpoint copies
//! them back into the database file. SQLite's default runs the checkpoint inside whichever
//! commit takes the log past 1,000 pages: that commit then copies and syncs the whole log while
//! every other write waits behind it on the one writing connection (the crowd bench's slowest
//! moves). Here the writing connection never checkpoints (`wal_autocheckpoint = 0`); every
//! [`WRITES_PER_CHECKPOINT`] writes wake a task that runs a passive checkpoint on a reading
//! connection, which copies what no reader still needs without blocking the writer.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::Notify;
use tokio::task::AbortHandle;

/// Writes between two checkpoints: a turn's commits write a few dozen pages, so the log stays
/// well under SQLite's own threshold of 1,000 pages.
pub(super) const WRITES_PER_CHECKPOINT: u32 = 32;

/// The task that checkpoints one SQLite file, stopped when the last store sharing it is dropped.
#[derive(Debug)]
pub(super) struct Checkpoints {
    writes: AtomicU32,
    wake: Arc<Notify>,
    task: AbortHandle,
}

impl Checkpoints {
    /// Starts the task, which checkpoints through a connection of `readers`.
    pub(super) fn start(readers: AnyPool) -> Self {
        let wake = Arc::new(Notify::new());
        let woken = Arc::clone(&wake);
        let task = tokio::spawn(async move {
            loop {
                woken.notified().await;
                // A checkpoint that could not run (the file busy, a connection closing) is
                // retried at the next wake; the log meanwhile only grows.
                if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .fetch_all(&readers)
                    .await
                {
                    tracing::warn!(%error, "a checkpoint of the database file failed");
                }
            }
        });
        Self {
            writes: AtomicU32::new(0),
            wake,
            task: task.abort_handle(),
        }
    }

    /// Counts a write; every [`WRITES_PER_CHECKPOINT`]th wakes the task.
    pub(super) fn wrote(&self) {
        let writes = self.writes.fetch_add(1, Ordering::Relaxed) + 1;
        if writes.is_multiple_of(WRITES_PER_CHECKPOINT) {
            self.wake.notify_one();
        }
    }
}

impl Drop for Checkpoints {
    fn drop(&mut self) {
        self.task.abort();
    }
}
