//! The SQL store's pictures (part of the `CampaignStore` port): the `pictures` table, one row per
//! picture of a campaign, keyed by the digest of its bytes; deleted with the campaign.

use app::campaign::picture::{PictureFormat, PictureId};
use app::campaign::store::{KeptPicture, StoreError};
use app::wire::CampaignId;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::sql::{database, SqlStore};

/// A format's name in the table.
fn format_name(format: PictureFormat) -> &'static str {
    match format {
        PictureFormat::Png => "png",
        PictureFormat::Jpeg => "jpeg",
        PictureFormat::Webp => "webp",
    }
}

/// A row as a picture.
fn kept(row: &AnyRow) -> Result<KeptPicture, StoreError> {
    let id: String = row.try_get("id").map_err(database)?;
    let format: String = row.try_get("format").map_err(database)?;
    let format = match format.as_str() {
        "png" => PictureFormat::Png,
        "jpeg" => PictureFormat::Jpeg,
        "webp" => PictureFormat::Webp,
        other => {
            return Err(StoreError::database(format!(
                "unknown picture format {other:?}"
            )))
        }
    };
    Ok(KeptPicture {
        id: id.parse::<PictureId>().map_err(database)?,
        format,
        bytes: row.try_get("bytes").map_err(database)?,
    })
}

impl SqlStore {
    /// Keeps `picture` for campaign `id`, unless it is kept already.
    pub(super) async fn insert_picture(
        &self,
        id: &CampaignId,
        picture: &KeptPicture,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO pictures (campaign_id, id, format, bytes) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (campaign_id, id) DO NOTHING",
        )
        .bind(id.as_str())
        .bind(picture.id.as_str())
        .bind(format_name(picture.format))
        .bind(picture.bytes.clone())
        .execute(&mut *self.writing().await?)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// The picture `picture` of campaign `id`, if kept.
    pub(super) async fn select_picture(
        &self,
        id: &CampaignId,
        picture: &PictureId,
    ) -> Result<Option<KeptPicture>, StoreError> {
        sqlx::query("SELECT id, format, bytes FROM pictures WHERE campaign_id = $1 AND id = $2")
            .bind(id.as_str())
            .bind(picture.as_str())
            .fetch_optional(self.pool())
            .await
            .map_err(database)?
            .as_ref()
            .map(kept)
            .transpose()
    }

    /// Every picture of campaign `id`, by id.
    pub(super) async fn select_pictures(
        &self,
        id: &CampaignId,
    ) -> Result<Vec<KeptPicture>, StoreError> {
        sqlx::query("SELECT id, format, bytes FROM pictures WHERE campaign_id = $1 ORDER BY id")
            .bind(id.as_str())
            .fetch_all(self.pool())
            .await
            .map_err(database)?
            .iter()
            .map(kept)
            .collect()
    }
}
