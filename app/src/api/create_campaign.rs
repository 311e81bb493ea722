//! `create_campaign`: a new adventure with its opening scene and first actions.

use leptos::prelude::*;

use crate::campaign::view::{CampaignView, NewCampaign};

/// Starts a campaign from the new-adventure form.
#[server(input = leptos::server_fn::codec::Json)]
pub async fn create_campaign(form: NewCampaign) -> Result<CampaignView, ServerFnError> {
    use super::context::{now, player, services, to_server_error};
    use rand::SeedableRng;
    let player = player().await?;
    let mut rng = rand::rngs::StdRng::from_os_rng();
    services()?
        .game()
        .create(&player, &form, now(), &mut rng, &mut |_| {})
        .await
        .map_err(to_server_error)
}
