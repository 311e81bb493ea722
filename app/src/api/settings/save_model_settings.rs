//! `save_model_settings`: the settings page's endpoint becomes the game master.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::model_settings::{ModelSettingsForm, ModelSettingsView};

/// Saves the form (checked against the endpoint's model list); the next model call uses it.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn save_model_settings(
    admin_token: Option<String>,
    form: ModelSettingsForm,
) -> Result<ModelSettingsView, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .save(admin_token.as_deref(), form)
        .await?)
}
