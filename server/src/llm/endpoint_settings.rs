//! The game master's endpoint as the settings page sets it: what the environment fixes (it
//! wins), what was saved in the server's database, and a form read into an endpoint.

use app::campaign::store::StoreError;
use app::service::game_master::OfficeError;
use app::wire::model_settings::{
    ModelField, ModelSettingsForm, ToolsMode, CONTEXT_TOKENS_RANGE, MAX_SETTING_CHARS,
};
use serde::{Deserialize, Serialize};

use super::openai::{ApiKey, LlmConfigError, OpenAiAdapter, OpenAiSettings};
use crate::store::SqlStore;

/// The server setting the saved endpoint is stored under.
const SAVED_SETTING: &str = "game_master";

/// The endpoint settings the environment fixes, and the rest of what it says about endpoints
/// (time limits, reply length).
#[derive(Clone, Debug, PartialEq)]
pub struct EndpointEnv {
    /// Time limits and reply length for any endpoint (`DICEBOUND_LLM_TIMEOUT_SECS`, ...).
    pub base: OpenAiSettings,
    /// `DICEBOUND_LLM_BASE_URL`.
    pub base_url: Option<String>,
    /// `DICEBOUND_LLM_MODEL`.
    pub model: Option<String>,
    /// `DICEBOUND_LLM_API_KEY` or `OPENAI_API_KEY`.
    pub api_key: Option<ApiKey>,
    /// `DICEBOUND_LLM_TOOLS`.
    pub tools: Option<ToolsMode>,
    /// `DICEBOUND_LLM_CONTEXT_TOKENS`.
    pub context_tokens: Option<u32>,
}

impl EndpointEnv {
    /// What `lookup` (a variable's name to its value) fixes; `tools` and `context_tokens` are
    /// read with the rest of the model's settings.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        tools: Option<ToolsMode>,
        context_tokens: Option<u32>,
    ) -> Result<Self, LlmConfigError> {
        let base = OpenAiSettings::from_lookup(&lookup)?;
        let var = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
        Ok(Self {
            base_url: var("DICEBOUND_LLM_BASE_URL"),
            model: var("DICEBOUND_LLM_MODEL"),
            api_key: base.api_key.clone(),
            tools,
            context_tokens,
            base,
        })
    }

    /// An environment that fixes nothing, with the default time limits.
    pub fn unset() -> Self {
        Self {
            base: OpenAiSettings::new(
                OpenAiSettings::DEFAULT_BASE_URL,
                OpenAiSettings::DEFAULT_MODEL,
            ),
            base_url: None,
            model: None,
            api_key: None,
            tools: None,
            context_tokens: None,
        }
    }

    /// The fields the page cannot change.
    pub fn fixed(&self) -> Vec<ModelField> {
        [
            (self.base_url.is_some(), ModelField::Endpoint),
            (self.model.is_some(), ModelField::Model),
            (self.api_key.is_some(), ModelField::ApiKey),
            (self.tools.is_some(), ModelField::Tools),
            (self.context_tokens.is_some(), ModelField::ContextTokens),
        ]
        .into_iter()
        .filter_map(|(fixed, field)| fixed.then_some(field))
        .collect()
    }
}

/// An endpoint the game master can run on.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// The API's base URL, up to and including `/v1`.
    pub base_url: String,
    /// The model's name.
    pub model: String,
    /// The key, if the endpoint wants one.
    pub api_key: Option<ApiKey>,
    /// How the model is given its tools.
    pub tools: ToolsMode,
    /// The model's context size.
    pub context_tokens: u32,
}

/// An endpoint as the database keeps it.
#[derive(Serialize, Deserialize)]
struct StoredEndpoint {
    base_url: String,
    model: String,
    api_key: Option<String>,
    tools: ToolsMode,
    context_tokens: u32,
}

impl Endpoint {
    /// The endpoint saved on the settings page, if any, with the environment's fields over it.
    pub async fn saved(store: &SqlStore, env: &EndpointEnv) -> Result<Option<Self>, StoreError> {
        let Some(json) = store.setting(SAVED_SETTING).await? else {
            return Ok(None);
        };
        let Ok(stored) = serde_json::from_str::<StoredEndpoint>(&json) else {
            tracing::warn!("the saved model settings cannot be read; they are ignored");
            return Ok(None);
        };
        Ok(Some(
            Self {
                base_url: stored.base_url,
                model: stored.model,
                api_key: stored.api_key.map(ApiKey::new),
                tools: stored.tools,
                context_tokens: stored.context_tokens,
            }
            .under(env),
        ))
    }

    /// Stores this endpoint as the one saved on the settings page.
    pub async fn save(&self, store: &SqlStore) -> Result<(), OfficeError> {
        let stored = StoredEndpoint {
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            api_key: self.api_key.as_ref().map(|key| key.expose().to_owned()),
            tools: self.tools,
            context_tokens: self.context_tokens,
        };
        let json = serde_json::to_string(&stored).map_err(|_| OfficeError::Invalid {
            field: "endpoint",
            reason: "the settings cannot be written".to_owned(),
        })?;
        store.set_setting(SAVED_SETTING, &json).await?;
        Ok(())
    }

    /// The form's endpoint, the environment's fields over it; a key left empty is the saved
    /// one, kept only for the same endpoint (a key is never sent to a host it was not set for).
    /// Whether its URL and key can be used is [`Self::adapter`]'s to say.
    pub fn from_form(
        form: &ModelSettingsForm,
        env: &EndpointEnv,
        saved: Option<&Endpoint>,
    ) -> Result<Self, OfficeError> {
        let base_url = bounded("endpoint", &form.endpoint)?
            .trim_end_matches('/')
            .to_owned();
        let model = bounded("model", &form.model)?.to_owned();
        let typed_key = typed_key(&form.api_key)?;
        let api_key = if !typed_key.is_empty() {
            Some(ApiKey::new(typed_key))
        } else if form.forget_key {
            None
        } else {
            saved
                .filter(|saved| saved.base_url == base_url)
                .and_then(|saved| saved.api_key.clone())
        };
        if !CONTEXT_TOKENS_RANGE.contains(&form.context_tokens) {
            return Err(invalid(
                "context_tokens",
                "must be a whole number of tokens from 2,000 to 2,000,000",
            ));
        }
        let endpoint = Self {
            base_url,
            model,
            api_key,
            tools: form.tools,
            context_tokens: form.context_tokens,
        }
        .under(env);
        Ok(endpoint)
    }

    /// This endpoint with the environment's fields over it.
    pub fn under(mut self, env: &EndpointEnv) -> Self {
        if let Some(base_url) = &env.base_url {
            self.base_url.clone_from(base_url);
        }
        if let Some(model) = &env.model {
            self.model.clone_from(model);
        }
        if let Some(key) = &env.api_key {
            self.api_key = Some(key.clone());
        }
        self.tools = env.tools.unwrap_or(self.tools);
        self.context_tokens = env.context_tokens.unwrap_or(self.context_tokens);
        self
    }

    /// The adapter's settings for this endpoint, with the environment's time limits.
    pub fn settings(&self, env: &EndpointEnv) -> OpenAiSettings {
        OpenAiSettings {
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            api_key: self.api_key.clone(),
            ..env.base.clone()
        }
    }

    /// An adapter for this endpoint, without retries (a test reports the first failure);
    /// refused when the URL is not an http(s) one or the key cannot be sent.
    pub fn adapter(&self, env: &EndpointEnv) -> Result<OpenAiAdapter, OfficeError> {
        OpenAiAdapter::new(self.settings(env)).map_err(|error| match error {
            LlmConfigError::ApiKey => invalid("api_key", "cannot be sent in an HTTP header"),
            _ => invalid(
                "endpoint",
                "must be an http:// or https:// URL, such as http://127.0.0.1:11434/v1",
            ),
        })
    }
}

/// The key the form typed, trimmed (empty when none was typed), if it is at most
/// [`MAX_SETTING_CHARS`] characters.
pub(super) fn typed_key(typed: &str) -> Result<&str, OfficeError> {
    let typed = typed.trim();
    if typed.chars().count() > MAX_SETTING_CHARS {
        return Err(invalid("api_key", "is longer than 500 characters"));
    }
    Ok(typed)
}

/// `text` trimmed, if it is 1 to [`MAX_SETTING_CHARS`] characters without control characters.
pub(super) fn bounded<'t>(field: &'static str, text: &'t str) -> Result<&'t str, OfficeError> {
    let text = text.trim();
    if text.is_empty() {
        Err(invalid(field, "is empty"))
    } else if text.chars().count() > MAX_SETTING_CHARS {
        Err(invalid(field, "is longer than 500 characters"))
    } else if text.chars().any(char::is_control) {
        Err(invalid(field, "holds a control character"))
    } else {
        Ok(text)
    }
}

/// A refusal of `field` (the player reads `field: reason`).
pub(super) fn invalid(field: &'static str, reason: &str) -> OfficeError {
    OfficeError::Invalid {
        field,
        reason: reason.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> EndpointEnv {
        let lookup = |name: &str| {
            vars.iter()
                .find(|(var, _)| *var == name)
                .map(|(_, value)| (*value).to_owned())
        };
        EndpointEnv::from_lookup(lookup, None, None).unwrap()
    }

    fn form(endpoint: &str, key: &str) -> ModelSettingsForm {
        ModelSettingsForm {
            endpoint: endpoint.into(),
            model: "llama3".into(),
            api_key: key.into(),
            forget_key: false,
            tools: ToolsMode::Text,
            context_tokens: 8_192,
        }
    }

    #[test]
    fn a_form_becomes_an_endpoint_within_bounds() {
        let none = env(&[]);
        let endpoint =
            Endpoint::from_form(&form("http://127.0.0.1:11434/v1/", ""), &none, None).unwrap();
        assert_eq!(endpoint.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(endpoint.api_key, None);
        let usable =
            |form: &ModelSettingsForm| Endpoint::from_form(form, &none, None)?.adapter(&none);
        let field = |form: ModelSettingsForm| match usable(&form) {
            Err(OfficeError::Invalid { field, .. }) => field,
            Ok(_) => panic!("accepted: {form:?}"),
            Err(other) => panic!("refused otherwise: {other:?}"),
        };
        assert_eq!(field(form("not a url", "")), "endpoint");
        assert_eq!(field(form("ftp://example.org/v1", "")), "endpoint");
        assert_eq!(field(form(&"h".repeat(501), "")), "endpoint");
        assert_eq!(field(form("http://x/v1", "bad\nkey")), "api_key");
        assert_eq!(field(form("http://x/v1", &"k".repeat(501))), "api_key");
        assert_eq!(
            field(ModelSettingsForm {
                model: " ".into(),
                ..form("http://x/v1", "")
            }),
            "model"
        );
        assert_eq!(
            field(ModelSettingsForm {
                context_tokens: 100,
                ..form("http://x/v1", "")
            }),
            "context_tokens"
        );
    }

    #[test]
    fn a_saved_key_is_kept_only_for_its_own_endpoint() {
        let none = env(&[]);
        let saved =
            Endpoint::from_form(&form("https://api.example.org/v1", "sk-1"), &none, None).unwrap();
        let same =
            Endpoint::from_form(&form("https://api.example.org/v1", ""), &none, Some(&saved))
                .unwrap();
        assert_eq!(same.api_key, Some(ApiKey::new("sk-1")));
        let elsewhere = Endpoint::from_form(
            &form("https://evil.example.com/v1", ""),
            &none,
            Some(&saved),
        )
        .unwrap();
        assert_eq!(elsewhere.api_key, None);
        let forgotten = Endpoint::from_form(
            &ModelSettingsForm {
                forget_key: true,
                ..form("https://api.example.org/v1", "")
            },
            &none,
            Some(&saved),
        )
        .unwrap();
        assert_eq!(forgotten.api_key, None);
    }

    #[test]
    fn the_environment_wins_where_it_is_set() {
        let fixed = env(&[
            ("DICEBOUND_LLM_MODEL", "gpt-4o"),
            ("OPENAI_API_KEY", "sk-env"),
        ]);
        assert_eq!(fixed.fixed(), vec![ModelField::Model, ModelField::ApiKey]);
        let endpoint = Endpoint::from_form(&form("http://x/v1", "sk-typed"), &fixed, None).unwrap();
        assert_eq!(endpoint.model, "gpt-4o");
        assert_eq!(endpoint.api_key, Some(ApiKey::new("sk-env")));
        assert_eq!(endpoint.base_url, "http://x/v1");
    }
}
