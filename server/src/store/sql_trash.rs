//! The trash: a deleted campaign kept for a while, restorable by its player. A campaign in the
//! trash has `trash:<player>` as its owner, so every statement scoped by the player's id passes
//! it by, and `trashed_at` set; restoring gives it back its player.

use app::campaign::store::{CampaignRecord, StoreError};
use app::wire::{CampaignId, PlayerId};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::sql::{database, found, SqlStore};

/// The owner a campaign of `owner`'s has while it is in the trash.
pub(super) fn in_trash(owner: &PlayerId) -> String {
    format!("trash:{}", owner.as_str())
}

/// Moves the owner's campaign in play to the trash.
pub(super) async fn trash(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    now: i64,
) -> Result<(), StoreError> {
    let moved = sqlx::query(
        "UPDATE campaigns SET owner = $1, trashed_at = $2 WHERE id = $3 AND owner = $4",
    )
    .bind(in_trash(owner))
    .bind(now)
    .bind(id.as_str())
    .bind(owner.as_str())
    .execute(&mut *store.writing().await?)
    .await
    .map_err(database)?
    .rows_affected();
    found(moved)
}

/// The owner's campaigns in the trash since `since`, the most recently trashed first.
pub(super) async fn trashed(
    store: &SqlStore,
    owner: &PlayerId,
    since: i64,
) -> Result<Vec<(CampaignRecord, i64)>, StoreError> {
    sqlx::query(
        "SELECT id, title, created_at, updated_at, turn, trashed_at FROM campaigns \
         WHERE owner = $1 AND trashed_at >= $2 ORDER BY trashed_at DESC, id",
    )
    .bind(in_trash(owner))
    .bind(since)
    .fetch_all(store.pool())
    .await
    .map_err(database)?
    .iter()
    .map(|row| trashed_record(row, owner))
    .collect()
}

fn trashed_record(row: &AnyRow, owner: &PlayerId) -> Result<(CampaignRecord, i64), StoreError> {
    let id: String = row.try_get("id").map_err(database)?;
    let turn: i64 = row.try_get("turn").map_err(database)?;
    let record = CampaignRecord {
        id: id.parse().map_err(database)?,
        owner: owner.clone(),
        title: row.try_get("title").map_err(database)?,
        created_at: row.try_get("created_at").map_err(database)?,
        updated_at: row.try_get("updated_at").map_err(database)?,
        turn: u32::try_from(turn).map_err(database)?,
        usage: Default::default(),
    };
    Ok((record, row.try_get("trashed_at").map_err(database)?))
}

/// Gives the owner back a campaign trashed since `since`.
pub(super) async fn restore(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    since: i64,
) -> Result<(), StoreError> {
    let restored = sqlx::query(
        "UPDATE campaigns SET owner = $1, trashed_at = NULL \
         WHERE id = $2 AND owner = $3 AND trashed_at >= $4",
    )
    .bind(owner.as_str())
    .bind(id.as_str())
    .bind(in_trash(owner))
    .bind(since)
    .execute(&mut *store.writing().await?)
    .await
    .map_err(database)?
    .rows_affected();
    found(restored)
}

/// Deletes for good every campaign trashed before `before`.
pub(super) async fn purge(store: &SqlStore, before: i64) -> Result<u64, StoreError> {
    // Their passages go with them.
    let _indexing = store.indexing(0, true);
    Ok(
        sqlx::query("DELETE FROM campaigns WHERE trashed_at IS NOT NULL AND trashed_at < $1")
            .bind(before)
            .execute(&mut *store.writing().await?)
            .await
            .map_err(database)?
            .rows_affected(),
    )
}
