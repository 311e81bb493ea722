//! The SQL store's leases and pending rolls (the `LeaseStore` port).

use app::campaign::lease::{LeaseStore, LeaseTerms, PendingRoll, Work};
use app::campaign::store::StoreError;
use app::wire::CampaignId;
use futures::future::BoxFuture;
use sqlx::Row;

use super::recent::Unsure;
use super::sql::{database, SqlStore};

impl LeaseStore for SqlStore {
    fn take_lease<'a>(&'a self, terms: LeaseTerms<'a>) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let taken = sqlx::query(
                "INSERT INTO leases (campaign_id, work, holder, expires_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (campaign_id, work) DO UPDATE SET holder = excluded.holder, \
                 expires_at = excluded.expires_at WHERE leases.expires_at <= $5",
            )
            .bind(terms.id.as_str())
            .bind(terms.work.as_str())
            .bind(terms.holder)
            .bind(terms.until_ms)
            .bind(terms.now_ms)
            .execute(&mut *self.writing().await?)
            .await
            .map_err(database)?
            .rows_affected();
            Ok(taken == 1)
        })
    }

    fn renew_lease<'a>(&'a self, terms: LeaseTerms<'a>) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let renewed = sqlx::query(
                "UPDATE leases SET expires_at = $1 WHERE campaign_id = $2 AND work = $3 AND holder = $4",
            )
            .bind(terms.until_ms)
            .bind(terms.id.as_str())
            .bind(terms.work.as_str())
            .bind(terms.holder)
            .execute(&mut *self.writing().await?)
            .await
            .map_err(database)?
            .rows_affected();
            Ok(renewed == 1)
        })
    }

    fn release_lease<'a>(
        &'a self,
        id: &'a CampaignId,
        work: Work,
        holder: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query("DELETE FROM leases WHERE campaign_id = $1 AND work = $2 AND holder = $3")
                .bind(id.as_str())
                .bind(work.as_str())
                .bind(holder)
                .execute(&mut *self.writing().await?)
                .await
                .map_err(database)?;
            Ok(())
        })
    }

    fn pending_roll<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Option<PendingRoll>, StoreError>> {
        Box::pin(async move {
            let ticket = match self.recent().map(|recent| recent.pending_roll(id)) {
                Some(Ok(kept)) => return Ok(kept),
                Some(Err(ticket)) => Some(ticket),
                None => None,
            };
            let roll = read_pending_roll(self, id).await?;
            if let (Some(recent), Some(ticket)) = (self.recent(), ticket) {
                recent.fill_roll(ticket, id, roll.clone());
            }
            Ok(roll)
        })
    }

    fn save_pending_roll<'a>(
        &'a self,
        id: &'a CampaignId,
        roll: &'a PendingRoll,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let resolution = serde_json::to_string(&roll.resolution).map_err(database)?;
            let unsure = Unsure::new(self.recent(), id);
            let saved = sqlx::query(
                "INSERT INTO pending_rolls (campaign_id, turn, action_id, reason, resolution) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (campaign_id) DO UPDATE SET \
                 turn = excluded.turn, action_id = excluded.action_id, \
                 reason = excluded.reason, resolution = excluded.resolution",
            )
            .bind(id.as_str())
            .bind(i64::from(roll.turn))
            .bind(&roll.action_id)
            .bind(&roll.reason)
            .bind(resolution)
            .execute(&mut *self.writing().await?)
            .await;
            if saved.is_ok() {
                unsure.succeeded(|recent| recent.rolled(id, Some(roll.clone())));
            }
            saved.map_err(database)?;
            Ok(())
        })
    }
}

/// The roll of campaign `id`'s move in progress, as stored.
async fn read_pending_roll(
    store: &SqlStore,
    id: &CampaignId,
) -> Result<Option<PendingRoll>, StoreError> {
    let Some(row) = sqlx::query("SELECT * FROM pending_rolls WHERE campaign_id = $1")
        .bind(id.as_str())
        .fetch_optional(store.pool())
        .await
        .map_err(database)?
    else {
        return Ok(None);
    };
    let turn: i64 = row.try_get("turn").map_err(database)?;
    let resolution: String = row.try_get("resolution").map_err(database)?;
    Ok(Some(PendingRoll {
        turn: u32::try_from(turn).map_err(database)?,
        action_id: row.try_get("action_id").map_err(database)?,
        reason: row.try_get("reason").map_err(database)?,
        resolution: serde_json::from_str(&resolution).map_err(database)?,
    }))
}
