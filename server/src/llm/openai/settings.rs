//! The adapter's settings: where the model is, its key (a secret), its model and time limits,
//! read from the variables `config` read at start; the endpoint's URL and the bearer header.

use std::{fmt, time::Duration};

use reqwest::{header::HeaderValue, Url};
use secrecy::{ExposeSecret, SecretString};

/// An API key. Never printed: its `Debug` is `[redacted]` and it has no `Display`; the
/// memory it held is zeroed when it is dropped.
#[derive(Clone)]
pub struct ApiKey(SecretString);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        Self(SecretString::from(key.into()))
    }

    /// The key itself: for the request's header and the server's own store, nowhere else.
    pub(crate) fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl PartialEq for ApiKey {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for ApiKey {}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Where the model is and how long to wait for it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenAiSettings {
    /// The API's base URL, up to and including `/v1` (e.g. `http://127.0.0.1:11434/v1`).
    pub base_url: String,
    /// The API key, if the provider wants one.
    pub api_key: Option<ApiKey>,
    /// The model's name.
    pub model: String,
    /// The longest wait for a streamed reply to start or for its next piece.
    pub idle_timeout: Duration,
    /// The longest a whole call may take.
    pub overall_timeout: Duration,
    /// The reply length limit used when a request sets none.
    pub max_tokens: Option<u32>,
    /// OpenAI's `frequency_penalty` (-2..=2) sent with every request: a very small model
    /// repeats itself without one.
    pub frequency_penalty: Option<f32>,
}

/// Why the adapter's configuration is unusable. Never contains the API key.
#[derive(Debug, thiserror::Error)]
pub enum LlmConfigError {
    /// A variable has a value the adapter cannot use.
    #[error("{name} must be {expected}, not {value:?}")]
    Invalid {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// The base URL is not an http(s) URL.
    #[error("the model's base URL {0:?} is not an http(s) URL")]
    BaseUrl(String),
    /// The API key cannot be sent in an HTTP header (e.g. it contains a line break).
    #[error("the API key contains characters that cannot be sent in an HTTP header")]
    ApiKey,
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl OpenAiSettings {
    /// The base URL used when none is configured.
    pub const DEFAULT_BASE_URL: &'static str = "https://api.openai.com/v1";
    /// The model used when none is configured.
    pub const DEFAULT_MODEL: &'static str = "gpt-4o-mini";
    /// The idle timeout used when none is configured.
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);
    /// The overall timeout used when none is configured.
    pub const DEFAULT_OVERALL_TIMEOUT: Duration = Duration::from_secs(120);

    /// Settings for `model` at `base_url`, without a key, with the default timeouts.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: None,
            model: model.into(),
            idle_timeout: Self::DEFAULT_IDLE_TIMEOUT,
            overall_timeout: Self::DEFAULT_OVERALL_TIMEOUT,
            max_tokens: None,
            frequency_penalty: None,
        }
    }

    /// Reads the settings from `lookup`, which maps a variable's name to its value.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, LlmConfigError> {
        let var = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
        let mut settings = Self::new(
            var("DICEBOUND_LLM_BASE_URL").unwrap_or_else(|| Self::DEFAULT_BASE_URL.into()),
            var("DICEBOUND_LLM_MODEL").unwrap_or_else(|| Self::DEFAULT_MODEL.into()),
        );
        settings.api_key = var("DICEBOUND_LLM_API_KEY")
            .or_else(|| var("OPENAI_API_KEY"))
            .map(|key| ApiKey::new(key.trim()));
        if let Some(value) = var("DICEBOUND_LLM_TIMEOUT_SECS") {
            settings.idle_timeout = seconds("DICEBOUND_LLM_TIMEOUT_SECS", value)?;
        }
        if let Some(value) = var("DICEBOUND_LLM_TOTAL_TIMEOUT_SECS") {
            settings.overall_timeout = seconds("DICEBOUND_LLM_TOTAL_TIMEOUT_SECS", value)?;
        }
        if let Some(value) = var("DICEBOUND_LLM_MAX_TOKENS") {
            settings.max_tokens = Some(token_count("DICEBOUND_LLM_MAX_TOKENS", value)?);
        }
        Ok(settings)
    }
}

/// Whether `url` points at this computer.
pub(crate) fn is_loopback(url: &Url) -> bool {
    url.host_str().is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost")
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    })
}

/// Parses a positive number of seconds (fractions allowed).
pub(super) fn seconds(name: &'static str, value: String) -> Result<Duration, LlmConfigError> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|secs| *secs > 0.0)
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or(LlmConfigError::Invalid {
            name,
            value,
            expected: "a positive number of seconds",
        })
}

/// Parses a positive token count.
pub(super) fn token_count(name: &'static str, value: String) -> Result<u32, LlmConfigError> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|count| *count > 0)
        .ok_or(LlmConfigError::Invalid {
            name,
            value,
            expected: "a positive whole number",
        })
}

/// `{base}/chat/completions`, if `base` is an http(s) URL.
pub(super) fn chat_endpoint(base: &str) -> Result<Url, LlmConfigError> {
    let invalid = || LlmConfigError::BaseUrl(base.to_owned());
    let url = Url::parse(&format!(
        "{}/chat/completions",
        base.trim().trim_end_matches('/')
    ))
    .map_err(|_| invalid())?;
    match url.scheme() {
        "http" | "https" if url.has_host() => Ok(url),
        _ => Err(invalid()),
    }
}

/// The endpoint as shown to players and logs: without credentials or query.
pub(super) fn public_endpoint(endpoint: &Url) -> String {
    let base = endpoint.path().trim_end_matches("/chat/completions");
    format!("{}{base}", endpoint.origin().ascii_serialization())
}

/// The `Authorization` header for `key`, marked sensitive so that it is never printed.
pub(crate) fn bearer(key: &ApiKey) -> Result<HeaderValue, LlmConfigError> {
    let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
        .map_err(|_| LlmConfigError::ApiKey)?;
    value.set_sensitive(true);
    Ok(value)
}
