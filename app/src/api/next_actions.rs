//! `next_actions`: phase 2, the actions for the scene just narrated.

use leptos::prelude::*;

use crate::campaign::view::CampaignView;

/// Generates (if needed) and returns the actions of the campaign's current scene.
#[server]
pub async fn next_actions(id: String) -> Result<CampaignView, ServerFnError> {
    use super::context::{campaign_id, now, player, services, to_server_error};
    let player = player().await?;
    let id = campaign_id(&id)?;
    services()?
        .game()
        .ensure_actions(&player, &id, now())
        .await
        .map_err(to_server_error)
}
