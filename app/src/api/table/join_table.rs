//! `join_table`: a friend brings an invitation's code and a character, and takes a seat.

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use crate::game::creation::CharacterDraft;
use crate::wire::errors::AppError;

/// Joins the table the invitation `code` opens with `character`; the campaign's id.
#[server(input = Json, output = crate::wire::codec::Wire)]
pub async fn join_table(code: String, character: CharacterDraft) -> Result<String, AppError> {
    use crate::api::context::{admit_campaign_rate, caller, client, now};
    let caller = caller().await?;
    let client = client().await?;
    admit_campaign_rate(&caller.services, &caller.player, &client)?;
    let id = caller
        .services
        .table()
        .join(&caller.player, &code, &character, now())
        .await?;
    Ok(id.to_string())
}
