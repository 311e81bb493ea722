//! The SQLite campaign store (the embedded default): one file, WAL, migrations embedded.

use std::{str::FromStr, time::Duration};

use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::store::{Append, CampaignRecord, CampaignStore, StoreError};
use app::campaign::{CampaignId, PlayerId};
use futures::future::BoxFuture;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// Campaigns in a SQLite database.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

fn database(error: impl std::fmt::Display) -> StoreError {
    StoreError::Database(error.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `url` (`sqlite://path/to/file.db`) and
    /// brings its schema up to date.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(database)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(database)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(database)?;
        Ok(Self { pool })
    }
}

fn record(row: &sqlx::sqlite::SqliteRow) -> Result<CampaignRecord, StoreError> {
    let id: String = row.try_get("id").map_err(database)?;
    let owner: String = row.try_get("owner").map_err(database)?;
    let turn: i64 = row.try_get("turn").map_err(database)?;
    Ok(CampaignRecord {
        id: id.parse().map_err(database)?,
        owner: owner.parse().map_err(database)?,
        title: row.try_get("title").map_err(database)?,
        created_at: row.try_get("created_at").map_err(database)?,
        updated_at: row.try_get("updated_at").map_err(database)?,
        turn: u32::try_from(turn).map_err(database)?,
    })
}

/// Appends `(turn, event)`s after the campaign's last event.
async fn insert_events(
    tx: &mut sqlx::SqliteConnection,
    id: &CampaignId,
    events: &[(u32, &CampaignEvent)],
) -> Result<(), StoreError> {
    let last: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?")
            .bind(id.as_str())
            .fetch_one(&mut *tx)
            .await
            .map_err(database)?;
    for (offset, (turn, event)) in (1..).zip(events.iter().copied()) {
        let payload = serde_json::to_string(event).map_err(database)?;
        sqlx::query("INSERT INTO events (campaign_id, seq, turn, payload) VALUES (?, ?, ?, ?)")
            .bind(id.as_str())
            .bind(last + offset)
            .bind(i64::from(turn))
            .bind(payload)
            .execute(&mut *tx)
            .await
            .map_err(database)?;
    }
    Ok(())
}

impl CampaignStore for SqliteStore {
    fn create<'a>(
        &'a self,
        record: &'a CampaignRecord,
        events: &'a [StoredEvent],
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await.map_err(database)?;
            sqlx::query(
                "INSERT INTO campaigns (id, owner, title, created_at, updated_at, turn) VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(record.id.as_str())
            .bind(record.owner.as_str())
            .bind(&record.title)
            .bind(record.created_at)
            .bind(record.updated_at)
            .bind(i64::from(record.turn))
            .execute(&mut *tx)
            .await
            .map_err(database)?;
            let events: Vec<(u32, &CampaignEvent)> = events
                .iter()
                .map(|stored| (stored.turn, &stored.event))
                .collect();
            insert_events(&mut tx, &record.id, &events).await?;
            tx.commit().await.map_err(database)
        })
    }

    fn list<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Vec<CampaignRecord>, StoreError>> {
        Box::pin(async move {
            sqlx::query("SELECT * FROM campaigns WHERE owner = ? ORDER BY updated_at DESC, id")
                .bind(owner.as_str())
                .fetch_all(&self.pool)
                .await
                .map_err(database)?
                .iter()
                .map(record)
                .collect()
        })
    }

    fn load<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(CampaignRecord, Vec<StoredEvent>), StoreError>> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await.map_err(database)?;
            let row = sqlx::query("SELECT * FROM campaigns WHERE id = ? AND owner = ?")
                .bind(id.as_str())
                .bind(owner.as_str())
                .fetch_optional(&mut *tx)
                .await
                .map_err(database)?
                .ok_or(StoreError::NotFound)?;
            let campaign = record(&row)?;
            let events =
                sqlx::query("SELECT turn, payload FROM events WHERE campaign_id = ? ORDER BY seq")
                    .bind(id.as_str())
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(database)?
                    .iter()
                    .map(|row| {
                        let turn: i64 = row.try_get("turn").map_err(database)?;
                        let payload: String = row.try_get("payload").map_err(database)?;
                        Ok(StoredEvent {
                            turn: u32::try_from(turn).map_err(database)?,
                            event: serde_json::from_str(&payload).map_err(database)?,
                        })
                    })
                    .collect::<Result<_, StoreError>>()?;
            tx.commit().await.map_err(database)?;
            Ok((campaign, events))
        })
    }

    fn append<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        expected_turn: u32,
        how: Append,
        events: &'a [CampaignEvent],
        now: i64,
    ) -> BoxFuture<'a, Result<u32, StoreError>> {
        Box::pin(async move {
            let new_turn = match how {
                Append::NextTurn => expected_turn + 1,
                Append::SameTurn => expected_turn,
            };
            let mut tx = self.pool.begin().await.map_err(database)?;
            let updated = sqlx::query(
                "UPDATE campaigns SET turn = ?, updated_at = ? WHERE id = ? AND owner = ? AND turn = ?",
            )
            .bind(i64::from(new_turn))
            .bind(now)
            .bind(id.as_str())
            .bind(owner.as_str())
            .bind(i64::from(expected_turn))
            .execute(&mut *tx)
            .await
            .map_err(database)?
            .rows_affected();
            if updated == 0 {
                let current: Option<i64> =
                    sqlx::query_scalar("SELECT turn FROM campaigns WHERE id = ? AND owner = ?")
                        .bind(id.as_str())
                        .bind(owner.as_str())
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(database)?;
                return Err(match current {
                    Some(current) => StoreError::Stale {
                        current: u32::try_from(current).map_err(database)?,
                    },
                    None => StoreError::NotFound,
                });
            }
            let events: Vec<(u32, &CampaignEvent)> =
                events.iter().map(|event| (new_turn, event)).collect();
            insert_events(&mut tx, id, &events).await?;
            tx.commit().await.map_err(database)?;
            Ok(new_turn)
        })
    }

    fn delete<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let deleted = sqlx::query("DELETE FROM campaigns WHERE id = ? AND owner = ?")
                .bind(id.as_str())
                .bind(owner.as_str())
                .execute(&self.pool)
                .await
                .map_err(database)?
                .rows_affected();
            if deleted == 0 {
                Err(StoreError::NotFound)
            } else {
                Ok(())
            }
        })
    }
}
