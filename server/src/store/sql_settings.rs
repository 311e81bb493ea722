//! The SQL store's own settings: values the server keeps about itself between starts.

use app::campaign::store::StoreError;

use super::sql::{database, SqlStore};

impl SqlStore {
    /// The stored value of the server setting `name`, if any.
    pub async fn setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        sqlx::query_scalar("SELECT value FROM server_settings WHERE name = $1")
            .bind(name)
            .fetch_optional(self.pool())
            .await
            .map_err(database)
    }

    /// Stores `value` as the server setting `name`.
    pub async fn set_setting(&self, name: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO server_settings (name, value) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        )
        .bind(name)
        .bind(value)
        .execute(&mut *self.writing().await?)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Whether any player has a campaign.
    pub async fn has_campaigns(&self) -> Result<bool, StoreError> {
        let any: Option<i64> = sqlx::query_scalar("SELECT 1 FROM campaigns LIMIT 1")
            .fetch_optional(self.pool())
            .await
            .map_err(database)?;
        Ok(any.is_some())
    }
}
