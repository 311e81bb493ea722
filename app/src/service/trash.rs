//! The trash: a deleted campaign is kept for [`TRASH_DAYS`] days, restorable by its player, then
//! deleted for good (on the next look at any player's trash); one can also be deleted for good
//! from the trash at once.

use super::{human_time, summary, Game, ServiceError};
use crate::campaign::store::StoreError;
use crate::wire::view::TrashedCampaign;
use crate::wire::{CampaignId, PlayerId};

/// How many days a deleted campaign can be restored.
pub const TRASH_DAYS: i64 = 30;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// The earliest moment a campaign still in the trash at `now` was deleted.
fn kept_since(now: i64) -> i64 {
    now.saturating_sub(TRASH_DAYS * DAY)
}

impl Game<'_> {
    /// Moves one of the player's campaigns to the trash.
    pub async fn delete(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<(), ServiceError> {
        Ok(self.store.trash(owner, id, now).await?)
    }

    /// The player's trash, the most recently deleted first; campaigns of any player deleted
    /// more than [`TRASH_DAYS`] days ago are deleted for good first.
    pub async fn trash(
        &self,
        owner: &PlayerId,
        now: i64,
    ) -> Result<Vec<TrashedCampaign>, ServiceError> {
        let since = kept_since(now);
        let purged = self.store.purge(since).await?;
        if purged > 0 {
            tracing::info!(purged, "campaigns past their days in the trash are deleted");
        }
        let trashed = self.store.trashed(owner, since).await?;
        Ok(trashed
            .into_iter()
            .map(|(record, deleted_at)| TrashedCampaign {
                days_left: u32::try_from((deleted_at - since).max(0) / DAY).unwrap_or(0),
                deleted: human_time(deleted_at),
                campaign: summary(record),
            })
            .collect())
    }

    /// Brings a campaign back from the trash into play; one deleted more than [`TRASH_DAYS`]
    /// days ago is gone.
    pub async fn restore(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<(), ServiceError> {
        match self.store.restore(owner, id, kept_since(now)).await {
            Err(StoreError::NotFound) => Err(ServiceError::invalid(
                "campaign",
                format!(
                    "that campaign is not in your trash: deleted campaigns are kept {TRASH_DAYS} \
                     days, then deleted for good"
                ),
            )),
            other => Ok(other?),
        }
    }

    /// Deletes a campaign for good, from play or from the trash.
    pub async fn delete_forever(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> Result<(), ServiceError> {
        Ok(self.store.delete(owner, id).await?)
    }
}
