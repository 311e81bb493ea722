//! `model_settings`: the game master's model settings, for the settings page.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::model_settings::ModelSettingsView;

/// The model settings in effect (the operator's only: see `service::operator`).
#[server]
pub async fn model_settings(admin_token: Option<String>) -> Result<ModelSettingsView, AppError> {
    use super::context::{services, to_app_error};
    services()
        .await?
        .operator
        .settings(admin_token.as_deref())
        .await
        .map_err(to_app_error)
}
