//! The SQLite store's own settings: values the server keeps about itself between starts.

use app::campaign::store::StoreError;

use super::sqlite::{database, SqliteStore};

impl SqliteStore {
    /// The stored value of the server setting `name`, if any.
    pub async fn setting(&self, name: &str) -> Result<Option<String>, StoreError> {
        sqlx::query_scalar("SELECT value FROM server_settings WHERE name = ?")
            .bind(name)
            .fetch_optional(self.pool())
            .await
            .map_err(database)
    }

    /// Stores `value` as the server setting `name`.
    pub async fn set_setting(&self, name: &str, value: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO server_settings (name, value) VALUES (?, ?) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        )
        .bind(name)
        .bind(value)
        .execute(self.pool())
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Whether any player has a campaign.
    pub async fn has_campaigns(&self) -> Result<bool, StoreError> {
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM campaigns)")
            .fetch_one(self.pool())
            .await
            .map_err(database)
    }
}
