//! `endpoint_models`: the models an endpoint lists, for the settings page's choice.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::model_settings::ModelSettingsForm;

/// The models the form's endpoint lists (`GET {endpoint}/models`).
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn endpoint_models(
    admin_token: Option<String>,
    form: ModelSettingsForm,
) -> Result<Vec<String>, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .models(admin_token.as_deref(), form)
        .await?)
}
