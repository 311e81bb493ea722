//! `create_campaign`: a new adventure with its opening scene and first actions.

use leptos::prelude::*;

use crate::campaign::view::{CampaignSummary, NewCampaign};
use crate::errors::AppError;

/// Starts a campaign from the new-adventure form; answers its summary (the play screen loads
/// it).
#[server(input = leptos::server_fn::codec::Json)]
pub async fn create_campaign(form: NewCampaign) -> Result<CampaignSummary, AppError> {
    use super::context::{admit_campaign, now, player, services, to_app_error};
    use rand::SeedableRng;
    let player = player().await?;
    let services = services()?;
    admit_campaign(&services, &player).await?;
    let mut rng = rand::rngs::StdRng::from_os_rng();
    services
        .game()
        .create(&player, &form, now(), &mut rng, &mut |_| {})
        .await
        .map_err(to_app_error)
}
