//! Recovery codes: the digest of each player's one code, and a code redeemed in one
//! transaction (the newcomer's campaigns, in play and in the trash, become its player's).

use app::campaign::store::StoreError;
use app::wire::PlayerId;

use super::sql::{database, SqlStore};
use super::sql_trash::in_trash;

/// Keeps `digest` as the player's code, replacing any other.
pub(super) async fn set(
    store: &SqlStore,
    owner: &PlayerId,
    digest: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO recovery_codes (player, digest, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (player) DO UPDATE SET digest = excluded.digest, \
         created_at = excluded.created_at",
    )
    .bind(owner.as_str())
    .bind(digest)
    .bind(now)
    .execute(&mut *store.writing().await?)
    .await
    .map_err(database)?;
    Ok(())
}

/// When the player's code was made.
pub(super) async fn made(store: &SqlStore, owner: &PlayerId) -> Result<Option<i64>, StoreError> {
    sqlx::query_scalar("SELECT created_at FROM recovery_codes WHERE player = $1")
        .bind(owner.as_str())
        .fetch_optional(store.pool())
        .await
        .map_err(database)
}

/// Forgets the player's code.
pub(super) async fn revoke(store: &SqlStore, owner: &PlayerId) -> Result<bool, StoreError> {
    let gone = sqlx::query("DELETE FROM recovery_codes WHERE player = $1")
        .bind(owner.as_str())
        .execute(&mut *store.writing().await?)
        .await
        .map_err(database)?
        .rows_affected();
    Ok(gone > 0)
}

/// The player of the code with `digest`, `newcomer`'s campaigns moved to them.
pub(super) async fn redeem(
    store: &SqlStore,
    digest: &str,
    newcomer: &PlayerId,
) -> Result<Option<PlayerId>, StoreError> {
    let mut writing = store.writing().await?;
    let mut transaction = store.read_then_write(&mut writing).await?;
    let player: Option<String> =
        sqlx::query_scalar("SELECT player FROM recovery_codes WHERE digest = $1")
            .bind(digest)
            .fetch_optional(&mut *transaction)
            .await
            .map_err(database)?;
    let Some(player) = player.and_then(|player| player.parse::<PlayerId>().ok()) else {
        return Ok(None);
    };
    if player != *newcomer {
        for (from, to) in [
            (newcomer.as_str().to_owned(), player.as_str().to_owned()),
            (in_trash(newcomer), in_trash(&player)),
        ] {
            sqlx::query("UPDATE campaigns SET owner = $1 WHERE owner = $2")
                .bind(to)
                .bind(from)
                .execute(&mut *transaction)
                .await
                .map_err(database)?;
        }
    }
    transaction.commit().await.map_err(database)?;
    Ok(Some(player))
}
