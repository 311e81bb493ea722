//! The game master's notes: the player chooses, per campaign, whether the story so far shows the
//! hidden plan. The choice is an event in the log, so undo, branch, export and import keep it.

use super::{Game, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::wire::present::spine::spine_view;
use crate::wire::view::SpineView;
use crate::wire::{CampaignId, PlayerId};

impl Game<'_> {
    /// Shows or hides the hidden plan in the story so far; answers with what the panel shows.
    pub async fn show_notes(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        on: bool,
        now: i64,
    ) -> Result<SpineView, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        if loaded.state.spine.notes_shown == on {
            return Ok(spine_view(&loaded.state.spine));
        }
        let events = vec![CampaignEvent::NotesShown { on }];
        let after = self.append(owner, id, loaded, events, None, now).await?;
        Ok(spine_view(&after.state.spine))
    }
}
