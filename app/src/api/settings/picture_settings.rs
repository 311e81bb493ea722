//! `picture_settings`: the image model's settings, for the settings page.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::picture_settings::PictureSettingsView;

/// The image model's settings in effect (the operator's only: see `service::operator`).
#[server(output = crate::wire::codec::Wire)]
pub async fn picture_settings(
    admin_token: Option<String>,
) -> Result<PictureSettingsView, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .picture_settings(admin_token.as_deref())
        .await?)
}
