//! `test_connection`: one small call to the model the settings page names.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::model_settings::{ConnectionReport, ModelSettingsForm};

/// Lists the form's endpoint's models and asks its model for one word.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn test_connection(
    admin_token: Option<String>,
    form: ModelSettingsForm,
) -> Result<ConnectionReport, AppError> {
    use crate::api::context::services;
    Ok(services()
        .await?
        .operator
        .test(admin_token.as_deref(), form)
        .await?)
}
