//! `export_campaign`: a campaign as one versioned JSON file.

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// One of the player's campaigns as a file (JSON text).
#[server(output = crate::wire::codec::Wire)]
pub async fn export_campaign(id: String) -> Result<String, AppError> {
    use crate::api::context::{caller, campaign_id};
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let export = caller.game().export(&caller.player, &id).await?;
    serde_json::to_string_pretty(&export).map_err(|_| AppError::Transport {
        message: "The server could not write the file.".to_owned(),
    })
}
