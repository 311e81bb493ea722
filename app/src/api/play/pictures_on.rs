//! `pictures_on`: whether this server draws pictures (its operator set an image model).

use leptos::prelude::*;

use crate::wire::errors::AppError;

/// Whether the server has an image model: without one, nothing of pictures shows.
#[server]
pub async fn pictures_on() -> Result<bool, AppError> {
    use crate::api::context::services;
    Ok(services().await?.operator.pictures.painter().is_some())
}
