//! `set_agreement`: the player changes the game master's style, lines and veils in play.

use leptos::prelude::*;

use crate::game::agreement::TableAgreement;
use crate::wire::errors::AppError;
use crate::wire::view::AgreementForm;

/// Sets the campaign's style, lines and veils from the next request on; answers with them now.
#[server(input = leptos::server_fn::codec::Json)]
pub async fn set_agreement(id: String, form: AgreementForm) -> Result<TableAgreement, AppError> {
    use super::context::{campaign_id, now, player, services, to_app_error};

    let player = player().await?;
    let id = campaign_id(&id)?;
    services()
        .await?
        .game()
        .set_agreement(&player, &id, &form, now())
        .await
        .map_err(to_app_error)
}
