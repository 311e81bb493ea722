//! `import_campaign`: a campaign file becomes a new campaign of the player, if the rules agree
//! with every event in it.

use leptos::prelude::*;

use crate::campaign::view::CampaignSummary;
use crate::errors::AppError;

/// Imports an exported campaign file (its JSON text, sent as JSON).
#[server(input = leptos::server_fn::codec::Json)]
pub async fn import_campaign(file: String) -> Result<CampaignSummary, AppError> {
    use super::context::{admit_campaign, client, now, player, services, to_app_error};
    use rand::SeedableRng;

    let player = player().await?;
    let client = client().await?;
    let services = services()?;
    admit_campaign(&services, &player, &client).await?;
    let mut rng = rand::rngs::StdRng::from_os_rng();
    services
        .game()
        .import(&player, &file, now(), &mut rng)
        .await
        .map_err(to_app_error)
}
