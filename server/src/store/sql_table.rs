//! The SQL store's tables of friends (the `TableStore` port): invitations by digest, seats, and
//! the round's moves. A seat's host is read from the campaign's row, so a campaign brought to
//! another browser by a recovery code keeps its friends, and one in the trash shows none.

use app::campaign::store::StoreError;
use app::campaign::table::{Invitation, Joined, RoundMove, SeatRecord, TableStore};
use app::game::party::Seat;
use app::wire::{CampaignId, PlayerId};
use futures::future::BoxFuture;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::sql::{database, SqlStore};

/// A seat number as stored, read back.
fn seat(number: i64) -> Result<Seat, StoreError> {
    u8::try_from(number)
        .ok()
        .and_then(|number| Seat::new(number).ok())
        .ok_or_else(|| database(BadRow("a seat number out of range")))
}

/// A stored row the port cannot read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadRow(&'static str);

fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, StoreError> {
    text.parse()
        .map_err(|_| database(BadRow("an id that does not parse")))
}

fn joined(row: &AnyRow) -> Result<Joined, StoreError> {
    Ok(Joined {
        id: parsed(&row.try_get::<String, _>(0).map_err(database)?)?,
        owner: parsed(&row.try_get::<String, _>(1).map_err(database)?)?,
        seat: seat(row.try_get(2).map_err(database)?)?,
    })
}

/// What the invitation with `digest` is at `now`.
async fn invitation(store: &SqlStore, digest: &str, now: i64) -> Result<Invitation, StoreError> {
    let row = sqlx::query(
        "SELECT i.campaign_id, c.owner, i.expires_at, i.used_at FROM invitations i \
         JOIN campaigns c ON c.id = i.campaign_id WHERE i.digest = $1",
    )
    .bind(digest)
    .fetch_optional(store.pool())
    .await
    .map_err(database)?;
    let Some(row) = row else {
        return Ok(Invitation::Unknown);
    };
    let expires_at: i64 = row.try_get(2).map_err(database)?;
    let used_at: Option<i64> = row.try_get(3).map_err(database)?;
    if used_at.is_some() {
        return Ok(Invitation::Used);
    }
    if expires_at <= now {
        return Ok(Invitation::Expired);
    }
    let id = parsed(&row.try_get::<String, _>(0).map_err(database)?)?;
    // A campaign in the trash has an owner that is no player's: it takes nobody in.
    match row.try_get::<String, _>(1).map_err(database)?.parse() {
        Ok(owner) => Ok(Invitation::Valid { id, owner }),
        Err(_) => Ok(Invitation::Unknown),
    }
}

/// Uses the invitation and takes the seat, both or neither.
async fn add_seat(
    store: &SqlStore,
    id: &CampaignId,
    seat: Seat,
    player: &PlayerId,
    digest: &str,
    now: i64,
) -> Result<(), StoreError> {
    let mut writing = store.writing().await?;
    let mut transaction = store.write(&mut writing).await?;
    let used = sqlx::query(
        "UPDATE invitations SET used_at = $1 WHERE digest = $2 AND campaign_id = $3 \
         AND used_at IS NULL",
    )
    .bind(now)
    .bind(digest)
    .bind(id.as_str())
    .execute(&mut *transaction)
    .await
    .map_err(database)?
    .rows_affected();
    let added = sqlx::query(
        "INSERT INTO seats (campaign_id, seat, player, joined_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(id.as_str())
    .bind(i64::from(seat.number()))
    .bind(player.as_str())
    .bind(now)
    .execute(&mut *transaction)
    .await
    .map_err(database)?
    .rows_affected();
    if used == 1 && added == 1 {
        transaction.commit().await.map_err(database)?;
        Ok(())
    } else {
        Err(StoreError::Stale { current: 0 })
    }
}

impl TableStore for SqlStore {
    fn invite<'a>(
        &'a self,
        id: &'a CampaignId,
        digest: &'a str,
        expires_at: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO invitations (digest, campaign_id, expires_at) VALUES ($1, $2, $3)",
            )
            .bind(digest)
            .bind(id.as_str())
            .bind(expires_at)
            .execute(&mut *self.writing().await?)
            .await
            .map_err(database)?;
            Ok(())
        })
    }

    fn revoke_invitations<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            let gone =
                sqlx::query("DELETE FROM invitations WHERE campaign_id = $1 AND used_at IS NULL")
                    .bind(id.as_str())
                    .execute(&mut *self.writing().await?)
                    .await
                    .map_err(database)?
                    .rows_affected();
            Ok(gone)
        })
    }

    fn invitation<'a>(
        &'a self,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<Invitation, StoreError>> {
        Box::pin(invitation(self, digest, now))
    }

    fn add_seat<'a>(
        &'a self,
        id: &'a CampaignId,
        seat: Seat,
        player: &'a PlayerId,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(add_seat(self, id, seat, player, digest, now))
    }

    fn seats<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Vec<SeatRecord>, StoreError>> {
        Box::pin(async move {
            let rows =
                sqlx::query("SELECT seat, player FROM seats WHERE campaign_id = $1 ORDER BY seat")
                    .bind(id.as_str())
                    .fetch_all(self.pool())
                    .await
                    .map_err(database)?;
            rows.iter()
                .map(|row| {
                    Ok(SeatRecord {
                        seat: seat(row.try_get(0).map_err(database)?)?,
                        player: parsed(&row.try_get::<String, _>(1).map_err(database)?)?,
                    })
                })
                .collect()
        })
    }

    fn seat_of<'a>(
        &'a self,
        player: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Option<Joined>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(
                "SELECT s.campaign_id, c.owner, s.seat FROM seats s JOIN campaigns c \
                 ON c.id = s.campaign_id WHERE s.player = $1 AND s.campaign_id = $2",
            )
            .bind(player.as_str())
            .bind(id.as_str())
            .fetch_optional(self.pool())
            .await
            .map_err(database)?;
            // A campaign in the trash has an owner that is no player's: nobody sits at it.
            row.as_ref().map(joined).transpose().or(Ok(None))
        })
    }

    fn remove_seat<'a>(
        &'a self,
        id: &'a CampaignId,
        seat: Seat,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut writing = self.writing().await?;
            let mut transaction = self.write(&mut writing).await?;
            let mut removed = 0;
            for table in ["seats", "round_moves"] {
                removed += sqlx::query(&format!(
                    "DELETE FROM {table} WHERE campaign_id = $1 AND seat = $2"
                ))
                .bind(id.as_str())
                .bind(i64::from(seat.number()))
                .execute(&mut *transaction)
                .await
                .map_err(database)?
                .rows_affected();
                if table == "seats" && removed == 0 {
                    break;
                }
            }
            transaction.commit().await.map_err(database)?;
            Ok(removed > 0)
        })
    }

    fn put_move<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
        round_move: &'a RoundMove,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO round_moves (campaign_id, turn, seat, body, made_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (campaign_id, seat) DO UPDATE SET \
                 turn = excluded.turn, body = excluded.body, made_at = excluded.made_at",
            )
            .bind(id.as_str())
            .bind(i64::from(turn))
            .bind(i64::from(round_move.seat.number()))
            .bind(round_move.body.as_str())
            .bind(round_move.at)
            .execute(&mut *self.writing().await?)
            .await
            .map_err(database)?;
            Ok(())
        })
    }

    fn moves<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
    ) -> BoxFuture<'a, Result<Vec<RoundMove>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT seat, body, made_at FROM round_moves WHERE campaign_id = $1 AND turn = $2 \
                 ORDER BY seat",
            )
            .bind(id.as_str())
            .bind(i64::from(turn))
            .fetch_all(self.pool())
            .await
            .map_err(database)?;
            rows.iter()
                .map(|row| {
                    Ok(RoundMove {
                        seat: seat(row.try_get(0).map_err(database)?)?,
                        body: row.try_get(1).map_err(database)?,
                        at: row.try_get(2).map_err(database)?,
                    })
                })
                .collect()
        })
    }

    fn clear_moves<'a>(
        &'a self,
        id: &'a CampaignId,
        turn: u32,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query("DELETE FROM round_moves WHERE campaign_id = $1 AND turn < $2")
                .bind(id.as_str())
                .bind(i64::from(turn))
                .execute(&mut *self.writing().await?)
                .await
                .map_err(database)?;
            Ok(())
        })
    }
}
