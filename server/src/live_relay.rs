//! The live updates across instances on PostgreSQL: the [`LiveRelay`] of every instance's hub
//! (`app::service::live`), over `LISTEN`/`NOTIFY` on the channel [`CHANNEL`].
//!
//! A `NOTIFY` payload must stay under 8,000 bytes and one update (a scene's narrative, the model's
//! context) may be bigger, so the update itself goes to a table: each is written to
//! `live_updates` under the campaign's next number (counted in `live_sequences`, whose row the
//! write locks until it commits, so that a campaign's numbers commit in order and without holes),
//! and the same statement notifies `"<campaign> <number>"`. Every instance listens; on a
//! notification for a campaign someone follows there, it reads the updates its hub wants
//! ([`Wanted`]), from the one after the last it has up to the notified one, and delivers them.
//!
//! The instance that published reads its own updates back the same way (no origin is skipped):
//! one path into each hub gives every hub a campaign's updates in the database's order under the
//! database's numbers, the event numbers a browser reconnects with (`Last-Event-ID`), whichever
//! instance it reaches; an instance whose hub has never had that number tells the browser to
//! reload, as a restarted one does. A notification lost while the listener reconnected is made up
//! for at once (every followed campaign is read from its next number) and, failing that, by the
//! campaign's next notification, which reads from the hub's next number.
//!
//! Every update is written, followed or not: a hub cannot know who follows on other instances
//! (a few small rows per turn; an update of a campaign not stored is refused by its foreign key
//! and dropped quietly). One task per instance writes them in order, fed through a bounded
//! queue: a publisher never waits, and an update that cannot be queued or written is logged and
//! lost to the followers only, never failing the player's turn. Rows older than [`KEPT_FOR`] are
//! pruned every [`PRUNE_EVERY`] writes; the live stream needs them for milliseconds, a catch-up
//! after a lost connection for seconds.

use std::sync::{Arc, Weak};
use std::time::Duration;

use app::service::live::{LiveRelay, LiveTurns, Wanted, KEPT_EVENTS};
use app::wire::view::TurnUpdate;
use app::wire::CampaignId;
use secrecy::{ExposeSecret, SecretString};
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::sync::{mpsc, oneshot};

/// The channel every instance listens on.
pub const CHANNEL: &str = "dicebound_live";

/// How long a written update stays in `live_updates`.
pub const KEPT_FOR: &str = "10 minutes";

/// Writes between two prunings of old updates.
pub const PRUNE_EVERY: u32 = 256;

/// Updates waiting to be written before new ones are dropped (and logged).
const QUEUED_UPDATES: usize = 4_096;

/// Connections of the relay's pool: one writes, one reads for the listener.
const RELAY_CONNECTIONS: u32 = 2;

/// The pause before listening again after the listener's connection failed.
const RETRY: Duration = Duration::from_secs(1);

/// Why the relay could not start, or an update could not go through it.
#[derive(Debug, thiserror::Error)]
pub enum LiveRelayError {
    /// The database refused or could not be reached.
    #[error("the live updates' database: {0}")]
    Database(#[from] sqlx::Error),
    /// An update could not be written as JSON, or read back from it.
    #[error("a live update's JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A notification that does not name a campaign and a number.
    #[error("a live notification names no update: {0:?}")]
    Notification(String),
}

/// A hub for an instance on the PostgreSQL database at `url`, relayed through it: listening
/// before it is returned, so that no update published after is missed.
pub async fn relayed_hub(url: &str) -> Result<Arc<LiveTurns>, LiveRelayError> {
    let pool = PgPoolOptions::new()
        .max_connections(RELAY_CONNECTIONS)
        .acquire_timeout(Duration::from_secs(10))
        .connect(url)
        .await?;
    let listener = listener_on(url).await?;
    Ok(Arc::new_cyclic(|hub: &Weak<LiveTurns>| {
        let (queue, outgoing) = mpsc::channel(QUEUED_UPDATES);
        let (stop, stopped) = oneshot::channel();
        tokio::spawn(write(pool.clone(), outgoing));
        let listening = Listening {
            url: SecretString::from(url),
            pool,
            hub: hub.clone(),
            stopped,
        };
        tokio::spawn(listen(listener, listening));
        LiveTurns::relayed(Arc::new(PgRelay {
            queue,
            _stop_listening: stop,
        }))
    }))
}

/// One update to write.
struct Outgoing {
    id: CampaignId,
    update: TurnUpdate,
}

/// The relay a hub holds: the writer's queue; when it goes (with the hub), the writer and the
/// listener stop.
struct PgRelay {
    queue: mpsc::Sender<Outgoing>,
    /// Dropped with the relay, which stops the listener.
    _stop_listening: oneshot::Sender<()>,
}

impl LiveRelay for PgRelay {
    fn relay(&self, id: &CampaignId, update: &TurnUpdate) {
        let outgoing = Outgoing {
            id: id.clone(),
            update: update.clone(),
        };
        if let Err(error) = self.queue.try_send(outgoing) {
            tracing::warn!(campaign = %id, %error, "a live update was dropped: too many wait to be written");
        }
    }
}

/// Writes the queued updates in order, pruning old ones now and then, until the relay goes.
async fn write(pool: PgPool, mut outgoing: mpsc::Receiver<Outgoing>) {
    let mut written: u32 = 0;
    while let Some(Outgoing { id, update }) = outgoing.recv().await {
        match store(&pool, &id, &update).await {
            Ok(()) => {}
            Err(LiveRelayError::Database(sqlx::Error::Database(error)))
                if error.is_foreign_key_violation() =>
            {
                tracing::debug!(campaign = %id, "a live update of a campaign not stored: not relayed");
            }
            Err(error) => {
                tracing::warn!(campaign = %id, %error, "a live update did not reach the other instances");
            }
        }
        // From the first write on, so that an instance that starts prunes what others left.
        if written.is_multiple_of(PRUNE_EVERY) {
            if let Err(error) = prune(&pool).await {
                tracing::warn!(%error, "old live updates could not be pruned");
            }
        }
        written = written.wrapping_add(1);
    }
}

/// Writes `update` under campaign `id`'s next number and notifies every instance, in one
/// statement (the notification goes out when it commits).
async fn store(pool: &PgPool, id: &CampaignId, update: &TurnUpdate) -> Result<(), LiveRelayError> {
    let body = serde_json::to_string(update)?;
    sqlx::query(
        "WITH counted AS ( \
           INSERT INTO live_sequences (campaign_id, last_seq) VALUES ($1::text, 1) \
           ON CONFLICT (campaign_id) DO UPDATE SET last_seq = live_sequences.last_seq + 1 \
           RETURNING last_seq \
         ), written AS ( \
           INSERT INTO live_updates (campaign_id, seq, body) \
           SELECT $1::text, last_seq, $2 FROM counted RETURNING seq \
         ) \
         SELECT pg_notify($3, $1::text || ' ' || seq) FROM written",
    )
    .bind(id.as_str())
    .bind(body)
    .bind(CHANNEL)
    .execute(pool)
    .await?;
    Ok(())
}

/// Removes the updates written longer than [`KEPT_FOR`] ago.
async fn prune(pool: &PgPool) -> Result<(), LiveRelayError> {
    sqlx::query("DELETE FROM live_updates WHERE created_at < now() - $1::interval")
        .bind(KEPT_FOR)
        .execute(pool)
        .await?;
    Ok(())
}

/// What the listening task holds.
struct Listening {
    /// The database, to listen again after the connection failed.
    url: SecretString,
    /// Where the notified updates are read.
    pool: PgPool,
    /// The hub they are delivered to.
    hub: Weak<LiveTurns>,
    /// Resolves when the relay goes.
    stopped: oneshot::Receiver<()>,
}

/// Delivers the notified updates to the hub until the relay goes (or the hub with it). When
/// the connection fails, a new one listens (after [`RETRY`], until one does), and what was
/// notified meanwhile is read.
async fn listen(mut listener: PgListener, mut listening: Listening) {
    loop {
        let error = match serve(&mut listener, &mut listening).await {
            Some(error) => error,
            None => return,
        };
        tracing::warn!(%error, "the live updates' listener lost the database; listening again");
        listener = loop {
            tokio::select! {
                _ = &mut listening.stopped => return,
                () = tokio::time::sleep(RETRY) => {}
            }
            match listener_on(listening.url.expose_secret()).await {
                Ok(listener) => break listener,
                Err(error) => {
                    tracing::warn!(%error, "the live updates' listener cannot listen yet")
                }
            }
        };
        let Some(live) = listening.hub.upgrade() else {
            return;
        };
        if let Err(error) = catch_up(&listening.pool, &live).await {
            tracing::warn!(%error, "live updates missed while not listening could not be read");
        }
    }
}

/// A connection listening on [`CHANNEL`].
async fn listener_on(url: &str) -> Result<PgListener, LiveRelayError> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Delivers what `listener` is notified of until the relay goes (`None`) or the connection
/// fails (its error). A connection the listener itself could make again is read up at once.
async fn serve(listener: &mut PgListener, listening: &mut Listening) -> Option<LiveRelayError> {
    loop {
        let received = tokio::select! {
            _ = &mut listening.stopped => return None,
            received = listener.try_recv() => received,
        };
        let live = listening.hub.upgrade()?;
        let delivered = match received {
            Ok(Some(notification)) => forward(&listening.pool, &live, notification.payload()).await,
            // The connection was lost and is back: what was notified meanwhile is read now.
            Ok(None) => catch_up(&listening.pool, &live).await,
            Err(error) => return Some(error.into()),
        };
        if let Err(error) = delivered {
            tracing::warn!(%error, "live updates from the database could not be delivered");
        }
    }
}

/// Delivers what the notification `payload` (`"<campaign> <number>"`) announces, and any
/// update before it the hub has not had, if someone follows the campaign here.
async fn forward(pool: &PgPool, live: &LiveTurns, payload: &str) -> Result<(), LiveRelayError> {
    let unreadable = || LiveRelayError::Notification(payload.chars().take(80).collect());
    let (id, number) = payload.split_once(' ').ok_or_else(unreadable)?;
    let id: CampaignId = id.parse().map_err(|_| unreadable())?;
    let number: u64 = number.parse().map_err(|_| unreadable())?;
    let from = match live.wanted(&id) {
        None => return Ok(()),
        Some(Wanted::Latest) => number,
        // No further back than a hub keeps.
        Some(Wanted::From(next)) => next.max(number.saturating_sub(KEPT_EVENTS as u64 - 1)),
    };
    if from > number {
        return Ok(());
    }
    deliver(pool, live, &id, from, number).await
}

/// Delivers every followed campaign's updates from the number its hub wants next on.
async fn catch_up(pool: &PgPool, live: &LiveTurns) -> Result<(), LiveRelayError> {
    for (id, next) in live.resume_points() {
        deliver(pool, live, &id, next, u64::MAX).await?;
    }
    Ok(())
}

/// Reads campaign `id`'s updates numbered `from` to `to` and delivers them in order (one that
/// cannot be read is logged and skipped).
async fn deliver(
    pool: &PgPool,
    live: &LiveTurns,
    id: &CampaignId,
    from: u64,
    to: u64,
) -> Result<(), LiveRelayError> {
    let bound = |number: u64| i64::try_from(number).unwrap_or(i64::MAX);
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT seq, body FROM live_updates WHERE campaign_id = $1 AND seq BETWEEN $2 AND $3 \
         ORDER BY seq",
    )
    .bind(id.as_str())
    .bind(bound(from))
    .bind(bound(to))
    .fetch_all(pool)
    .await?;
    for (number, body) in rows {
        match serde_json::from_str::<TurnUpdate>(&body) {
            Ok(update) => live.deliver(id, number.unsigned_abs(), update),
            Err(error) => {
                tracing::warn!(campaign = %id, number, %error, "a live update could not be read");
            }
        }
    }
    Ok(())
}
