//! `import_campaign`: a campaign file becomes a new campaign of the player, if the rules agree
//! with every event in it.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CampaignSummary;

/// The most bytes of a campaign file to import (the request body's limit on its route, and what
/// the import form tells the player before it sends a larger file).
pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

/// Imports an exported campaign file (its JSON text, sent as JSON).
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn import_campaign(file: String) -> Result<CampaignSummary, AppError> {
    use crate::api::context::{admit_campaign, caller, client, now};

    let caller = caller().await?;
    let client = client().await?;
    admit_campaign(&caller.services, &caller.player, &client).await?;
    let mut rng = caller.services.dice.for_new_campaign();
    Ok(caller
        .game()
        .import(&caller.player, &file, now(), &mut rng)
        .await?)
}
