//! What the player changes from the character panel themselves: dropping an item. The rules
//! apply it as an event of the current turn (the game master sees it from its next request).

use super::{Game, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::campaign::present::sheet_view;
use crate::campaign::turn_event::TurnEvent;
use crate::campaign::view::{StoryEntry, TurnUpdate};
use crate::campaign::{CampaignId, PlayerId};
use crate::game::{Slug, StateDelta};

/// Why an item left the sheet, in the ledger.
pub const DROPPED: &str = "Dropped from the character panel";

impl Game<'_> {
    /// Drops all of the carried item `slug`. Returns the new character panel and the story's
    /// chip; an item the character does not carry (or a fallen character) is refused.
    pub async fn drop_item(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        slug: &Slug,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        let carried = loaded
            .state
            .sheet
            .inventory()
            .get(slug)
            .map_or(0, |item| i32::from(item.quantity().value()));
        // Zero asks the rules to drop nothing, which they refuse by name when it is not carried.
        let deltas = vec![StateDelta::ChangeItemQuantity {
            slug: slug.clone(),
            change: -carried.max(1),
        }];
        let mut sheet = loaded.state.sheet.clone();
        let changes = StateDelta::apply_all(&deltas, &mut sheet)
            .map_err(|error| ServiceError::invalid("item", error))?;
        let labels = changes.labels();
        let events = vec![CampaignEvent::Turn(TurnEvent::Ruled {
            cause: DROPPED.to_owned(),
            deltas,
            changes,
        })];
        let after = self.append(owner, id, loaded, events, None, now).await?;
        Ok(vec![
            TurnUpdate::Sheet {
                sheet: sheet_view(&after.state.sheet),
            },
            TurnUpdate::Entry {
                index: after.state.story_len.saturating_sub(1),
                entry: StoryEntry::Changes { labels },
            },
        ])
    }
}
