//! Searching the campaign's own story: the rules' recall before a narration (the older passages
//! the move brings back) and the player's search of the story from the play screen.

use super::{Game, ServiceError};
use crate::campaign::conversation::RecalledPassage;
use crate::campaign::passage::{SearchQuery, SearchScope};
use crate::campaign::state::CampaignState;
use crate::gm::prompt::recall::{
    excerpt, recall_before, recall_query, recalled, RECALL_CANDIDATES,
};
use crate::gm::PlayerMove;
use crate::wire::view::FoundView;
use crate::wire::{CampaignId, PlayerId};

/// The most passages one search of the player's shows.
pub const MAX_FOUND: u32 = 20;

impl Game<'_> {
    /// The older passages to recall before narrating `player_move` from `state` (none when the
    /// move calls for no search or nothing older matches).
    pub(super) async fn recall(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        state: &CampaignState,
        player_move: &PlayerMove,
    ) -> Result<Vec<RecalledPassage>, ServiceError> {
        let Some(query) = recall_query(state, player_move.words()) else {
            return Ok(Vec::new());
        };
        let scope = SearchScope {
            before_turn: recall_before(state),
            moves: false,
            limit: RECALL_CANDIDATES,
            telling_words_only: true,
        };
        let found = self.store.search(owner, id, &query, scope).await?;
        Ok(recalled(&query, &found, self.gm.prompt_budget()))
    }

    /// The passages of the whole story that hold the words the player typed, the best first.
    pub async fn search_story(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        typed: &str,
    ) -> Result<Vec<FoundView>, ServiceError> {
        let query =
            SearchQuery::parse(typed).map_err(|error| ServiceError::invalid("search", error))?;
        // Another player's campaign is not found (a search alone would find nothing in it).
        self.current(owner, id).await?;
        let scope = SearchScope {
            before_turn: u32::MAX,
            moves: true,
            limit: MAX_FOUND,
            telling_words_only: false,
        };
        let found = self.store.search(owner, id, &query, scope).await?;
        Ok(found
            .into_iter()
            .map(|passage| {
                let words = query.matched(&passage.text);
                FoundView {
                    turn: passage.turn,
                    index: passage.index,
                    text: excerpt(&passage.text, &words),
                    words,
                }
            })
            .collect())
    }
}

/// A recalled passage as the context inspector shows it.
pub(super) fn found_view(passage: &RecalledPassage) -> FoundView {
    FoundView {
        turn: passage.turn,
        index: passage.index,
        text: passage.text.clone(),
        words: passage.words.clone(),
    }
}
