//! `save_picture_settings`: the settings page's images endpoint draws the story's pictures.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::picture_settings::{PictureSettingsForm, PictureSettingsView};

/// Saves the image model's form (an empty endpoint turns pictures off); the next picture uses it.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn save_picture_settings(
    admin_token: Option<String>,
    form: PictureSettingsForm,
) -> Result<PictureSettingsView, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .save_picture_settings(admin_token.as_deref(), form)
        .await?)
}
