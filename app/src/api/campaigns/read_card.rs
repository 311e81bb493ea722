//! `read_card`: a character card or a lorebook read for the new-adventure form.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::CardView;

/// Reads a file's bytes (base64) as a character card (JSON or PNG) or a lorebook: the premise
/// and the journal entries it brings.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn read_card(file: String) -> Result<CardView, AppError> {
    use crate::api::context::player;
    player().await?;
    crate::service::card::read_card(&file).map_err(|error| AppError::invalid("card", error))
}
