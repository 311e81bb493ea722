//! A campaign as a storybook to share: one HTML page ([`page`]) with the story everyone at its
//! table reads (scenes, moves, rolls with their dice, tables, chips, asides) and, at the end, the
//! exporting player's own character. Nothing else leaves: no game master's notes or plan, no
//! ledger, no ids, no other seat's sheet.

mod page;

#[cfg(test)]
mod tests;

pub use page::storybook_html;

use super::table::{Place, Table};
use super::ServiceError;
use crate::campaign::story::StoryEntry;
use crate::wire::present::sheet::sheet_view;
use crate::wire::{CampaignId, PlayerId};

/// The most story entries one storybook holds.
pub const MAX_STORYBOOK_ENTRIES: u32 = 20_000;

/// The story entries read from the store at once.
const READ_PAGE: u32 = 1_000;

/// A storybook ready to download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Storybook {
    /// The campaign's title (the file's name is made from it).
    pub title: String,
    /// The page.
    pub html: String,
}

impl Table<'_> {
    /// Campaign `id` as a storybook for `player`: its host or a friend seated at it (not found
    /// for anyone else); too long a story is refused.
    pub async fn storybook(
        &self,
        player: &PlayerId,
        id: &CampaignId,
    ) -> Result<Storybook, ServiceError> {
        let place = self.place(player, id).await?;
        let loaded = self.game.current(&place.owner, id).await?;
        let length = loaded.state.story_len;
        if length > MAX_STORYBOOK_ENTRIES {
            return Err(ServiceError::invalid(
                "story",
                format!(
                    "the story is too long for one storybook (more than {MAX_STORYBOOK_ENTRIES} entries)"
                ),
            ));
        }
        let entries = self.whole_story(&place, id, length).await?;
        let hero = own_sheet(&loaded.state, &place).map(sheet_view);
        let pictured = entries
            .iter()
            .any(|entry| matches!(entry, StoryEntry::Picture { .. }));
        let pictures = if pictured {
            self.game.store.pictures(id).await?
        } else {
            Vec::new()
        };
        let title = loaded.record.title;
        let html = storybook_html(&title, &entries, &pictures, hero.as_ref());
        Ok(Storybook { title, html })
    }

    /// Every entry of the story, oldest first, read a page at a time.
    async fn whole_story(
        &self,
        place: &Place,
        id: &CampaignId,
        length: u32,
    ) -> Result<Vec<StoryEntry>, ServiceError> {
        let mut entries = Vec::with_capacity(length as usize);
        let mut start = 0;
        while start < length {
            let end = start.saturating_add(READ_PAGE).min(length);
            let (_, page) = self
                .game
                .store
                .story(&place.owner, id, end, end - start)
                .await?;
            entries.extend(page);
            start = end;
        }
        Ok(entries)
    }
}

/// The sheet of the hero the player at `place` plays (none for a friend whose seat has gone).
fn own_sheet<'s>(
    state: &'s crate::campaign::state::CampaignState,
    place: &Place,
) -> Option<&'s crate::game::CharacterSheet> {
    if place.is_host() {
        return Some(&state.sheet);
    }
    state.party.at(place.seat).map(|member| &member.sheet)
}
