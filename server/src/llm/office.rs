//! The server's side of the settings page ([`GameMasterOffice`]): the settings in effect, an
//! endpoint's model list, a test call, and saving (checked against the list, stored in the
//! database, then made the game master of every new request without a restart).

use std::sync::Arc;
use std::time::Instant;

use app::gm::{LlmError, LlmPort, LlmRequest, Message, Purpose};
use app::service::game_master::{GameMasterOffice, MasterSwitch, OfficeError};
use app::wire::model_settings::{
    ConnectionReport, ModelSettingsForm, ModelSettingsView, ToolsMode,
};
use futures::future::BoxFuture;

use super::endpoint_settings::{Endpoint, EndpointEnv};
use super::master::MasterRecipe;
use super::openai::OpenAiAdapter;
use super::text_tools::TextTools;
use crate::store::SqlStore;

/// The most characters of a test call's answer shown.
const REPLY_CHARS: usize = 200;

/// The reply length of a test call.
const TEST_TOKENS: u32 = 16;

/// The settings page's office.
pub struct Office {
    store: Arc<SqlStore>,
    env: EndpointEnv,
    recipe: MasterRecipe,
    switch: Arc<MasterSwitch>,
    /// The endpoint saved on the page, if any (one save at a time).
    saved: tokio::sync::Mutex<Option<Endpoint>>,
}

impl Office {
    /// The office switching `switch`'s game master, the endpoint `saved` on the page in use.
    pub fn new(
        store: Arc<SqlStore>,
        env: EndpointEnv,
        recipe: MasterRecipe,
        switch: Arc<MasterSwitch>,
        saved: Option<Endpoint>,
    ) -> Self {
        Self {
            store,
            env,
            recipe,
            switch,
            saved: tokio::sync::Mutex::new(saved),
        }
    }

    /// The settings in effect: the saved endpoint's, else the environment's.
    fn view(&self, saved: Option<&Endpoint>) -> ModelSettingsView {
        let current = self.switch.current();
        let (endpoint, model, key_set, tools) = match saved {
            Some(saved) => (
                saved.base_url.clone(),
                saved.model.clone(),
                saved.api_key.is_some(),
                saved.tools,
            ),
            None => (
                self.env.base_url.clone().unwrap_or_default(),
                self.env.model.clone().unwrap_or_default(),
                self.env.api_key.is_some(),
                self.env.tools.unwrap_or_default(),
            ),
        };
        ModelSettingsView {
            endpoint,
            model,
            key_set,
            tools,
            context_tokens: current.gm.context_tokens,
            from_environment: self.env.fixed(),
            saved: saved.is_some(),
            in_use: current.view.as_ref().clone(),
        }
    }

    /// The form's endpoint, its adapter and the models it lists, which must include its model.
    async fn checked(
        &self,
        form: &ModelSettingsForm,
    ) -> Result<(Endpoint, OpenAiAdapter, Vec<String>), OfficeError> {
        let endpoint = {
            let saved = self.saved.lock().await;
            Endpoint::from_form(form, &self.env, saved.as_ref())?
        };
        let adapter = endpoint.adapter(&self.env)?;
        let models = adapter
            .list_models()
            .await
            .map_err(|error| office_error(error, ToolsMode::Text))?;
        if !models.contains(&endpoint.model) {
            return Err(OfficeError::UnknownModel {
                model: endpoint.model,
                listed: models,
            });
        }
        Ok((endpoint, adapter, models))
    }
}

impl GameMasterOffice for Office {
    fn settings(&self) -> BoxFuture<'_, Result<ModelSettingsView, OfficeError>> {
        Box::pin(async move { Ok(self.view(self.saved.lock().await.as_ref())) })
    }

    fn models(&self, form: ModelSettingsForm) -> BoxFuture<'_, Result<Vec<String>, OfficeError>> {
        Box::pin(async move {
            let endpoint = {
                let saved = self.saved.lock().await;
                // The model is not chosen yet: any name passes here.
                let form = ModelSettingsForm {
                    model: "-".to_owned(),
                    ..form
                };
                Endpoint::from_form(&form, &self.env, saved.as_ref())?
            };
            endpoint
                .adapter(&self.env)?
                .list_models()
                .await
                .map_err(|error| office_error(error, ToolsMode::Text))
        })
    }

    fn test(
        &self,
        form: ModelSettingsForm,
    ) -> BoxFuture<'_, Result<ConnectionReport, OfficeError>> {
        Box::pin(async move {
            let (endpoint, plain, models) = self.checked(&form).await?;
            let port: Box<dyn LlmPort> = match endpoint.tools {
                ToolsMode::Native => Box::new(plain),
                ToolsMode::Text => Box::new(TextTools::new(plain)),
            };
            let started = Instant::now();
            let reply = port
                .complete(test_request(endpoint.tools))
                .await
                .map_err(|error| office_error(error, endpoint.tools))?;
            Ok(ConnectionReport {
                models,
                reply: reply.text.trim().chars().take(REPLY_CHARS).collect(),
                millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            })
        })
    }

    fn save(
        &self,
        form: ModelSettingsForm,
    ) -> BoxFuture<'_, Result<ModelSettingsView, OfficeError>> {
        Box::pin(async move {
            let (endpoint, _, _) = self.checked(&form).await?;
            let master = self
                .recipe
                .endpoint(endpoint.settings(&self.env), &endpoint)
                .map_err(|_| OfficeError::Unreadable)?;
            let mut saved = self.saved.lock().await;
            endpoint.save(&self.store).await?;
            self.switch.replace(master);
            *saved = Some(endpoint);
            Ok(self.view(saved.as_ref()))
        })
    }
}

/// One short request, with the game's tools when they go natively (a model without tool
/// calling refuses it).
fn test_request(tools: ToolsMode) -> LlmRequest {
    LlmRequest {
        purpose: Purpose::Question,
        messages: vec![
            Message::system("This is a connection test. Answer with one word."),
            Message::user("Say: ready"),
        ],
        tools: match tools {
            ToolsMode::Native => app::gm::GmSettings::default().tools().into(),
            ToolsMode::Text => Default::default(),
        },
        max_tokens: Some(TEST_TOKENS),
        ..LlmRequest::default()
    }
}

/// A model call's error as the operator reads it (the provider's words stay out).
fn office_error(error: LlmError, tools: ToolsMode) -> OfficeError {
    match error {
        LlmError::Connect(_) => OfficeError::Unreachable,
        LlmError::Timeout => OfficeError::Timeout,
        LlmError::BadRequest {
            status: status @ (401 | 403),
            ..
        } => OfficeError::KeyRefused { status },
        LlmError::BadRequest { status, message }
            if tools == ToolsMode::Native && message.to_lowercase().contains("tool") =>
        {
            OfficeError::NoToolSupport { status }
        }
        LlmError::BadRequest { status, .. } | LlmError::Server { status, .. } => {
            OfficeError::Refused { status }
        }
        LlmError::RateLimited { .. } => OfficeError::Refused { status: 429 },
        LlmError::InvalidResponse(_) | LlmError::Cut => OfficeError::Unreadable,
    }
}
