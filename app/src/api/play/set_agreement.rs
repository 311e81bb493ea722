//! `set_agreement`: the player changes the game master's style, lines and veils in play.

use leptos::prelude::*;

use crate::game::agreement::TableAgreement;
use crate::wire::errors::AppError;
use crate::wire::view::AgreementForm;

/// Sets the campaign's style, lines and veils from the next request on; answers with them now.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn set_agreement(id: String, form: AgreementForm) -> Result<TableAgreement, AppError> {
    use crate::api::context::{caller, campaign_id, now};

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    Ok(caller
        .game()
        .set_agreement(&caller.player, &id, &form, now())
        .await?)
}
