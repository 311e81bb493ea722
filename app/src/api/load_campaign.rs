//! `load_campaign`: everything the play screen shows (generating missing actions first).

use leptos::prelude::*;

use crate::campaign::view::CampaignView;

/// Loads one of the player's campaigns.
#[server]
pub async fn load_campaign(id: String) -> Result<CampaignView, ServerFnError> {
    use super::context::{campaign_id, now, player, services, to_server_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()?
        .game()
        .load(&player, &id, now())
        .await
        .map_err(to_server_error)
}
