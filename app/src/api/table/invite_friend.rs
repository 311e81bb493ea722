//! `invite_friend`: the host makes a one-time invitation link to a free seat.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::InvitationView;

/// Makes an invitation to campaign `id` (the host only): the link's path, shown once.
#[server(output = crate::wire::codec::Wire)]
pub async fn invite_friend(id: String) -> Result<InvitationView, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use rand::SeedableRng;
    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let mut rng = rand::rngs::StdRng::from_os_rng();
    Ok(caller
        .services
        .table()
        .invite(&caller.player, &id, now(), &mut rng)
        .await?)
}
