//! What every server function needs: the game's services (provided by the server through
//! Leptos context), the player making the request, and the clock.

use std::sync::Arc;

use leptos::prelude::*;

use crate::campaign::service::{Game, GameError};
use crate::campaign::store::CampaignStore;
use crate::campaign::view::GameMasterView;
use crate::campaign::{CampaignId, PlayerId};
use crate::gm::{GmSettings, LlmPort};

/// The game's services, provided to server functions by the server.
#[derive(Clone)]
pub struct GameServices {
    /// The campaign database.
    pub store: Arc<dyn CampaignStore>,
    /// The model.
    pub llm: Arc<dyn LlmPort>,
    /// The turn's limits.
    pub gm: Arc<GmSettings>,
    /// Which model is the game master, as the player is told.
    pub master: Arc<GameMasterView>,
}

impl GameServices {
    /// The game over these services.
    pub fn game(&self) -> Game<'_> {
        Game {
            store: self.store.as_ref(),
            llm: self.llm.as_ref(),
            gm: self.gm.as_ref(),
        }
    }
}

/// The services, or an error if the server forgot to provide them.
pub fn services() -> Result<GameServices, ServerFnError> {
    use_context::<GameServices>()
        .ok_or_else(|| ServerFnError::new("the game is not available on this server"))
}

/// The player making the request (set by the server's identity middleware).
pub async fn player() -> Result<PlayerId, ServerFnError> {
    leptos_axum::extract::<axum::Extension<PlayerId>>()
        .await
        .map(|axum::Extension(player)| player)
        .map_err(|_| {
            ServerFnError::new("your browser did not send its player cookie; reload the page")
        })
}

/// Now, in seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}

/// Parses a campaign id from the browser; a malformed one is simply not found.
pub fn campaign_id(id: &str) -> Result<CampaignId, ServerFnError> {
    id.parse().map_err(|_| to_server_error(GameError::NotFound))
}

/// A game error as the server function's error (its message is for the player).
pub fn to_server_error(error: GameError) -> ServerFnError {
    if let GameError::Store(_) | GameError::Corrupt(_) = &error {
        tracing::error!(%error, "campaign storage failed");
    }
    ServerFnError::new(error.to_string())
}
