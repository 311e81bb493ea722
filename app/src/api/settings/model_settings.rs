//! `model_settings`: the game master's model settings, for the settings page.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::model_settings::ModelSettingsView;

/// The model settings in effect (the operator's only: see `service::operator`).
#[server(output = crate::wire::codec::Wire)]
pub async fn model_settings(admin_token: Option<String>) -> Result<ModelSettingsView, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .settings(admin_token.as_deref())
        .await?)
}
