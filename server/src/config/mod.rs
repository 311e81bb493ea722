//! Configuration, read once at start from the environment by [`Config::from_env`], which
//! hands each part to whoever needs it; nothing else in the server reads the environment.
//!
//! The variables are [`VARIABLES`]; what each means and its default are in the README's
//! Configure table, which a test holds to that list (one table, so it cannot fall behind). The
//! reader also looks at [`SYSTEM_VARIABLES`] to find the user's cache folder. Empty values count
//! as unset. Leptos reads its own `LEPTOS_*` variables (`LEPTOS_SITE_ADDR`, `LEPTOS_SITE_ROOT`,
//! ...; cargo-leptos sets them).
//!
//! Without an endpoint, the game master is a model server already running on this computer, or
//! else the bundled one (see `llm::provider`). `main` loads a `.env` file from the working
//! folder into the environment first (the environment wins).
//!
//! Split by what each part reads: the model's settings (`model`), what the server spends and
//! charges (`spend`), and the errors (`error`); this file holds the whole and the rest (the
//! database, cookies, hosts and proxies, the admin token, logs). The settings' types that the
//! model's code takes are its own (`llm::choice`, `llm::bounds`): this module reads into them,
//! and nothing under `llm` imports it.

mod error;
mod model;
mod spend;
#[cfg(test)]
mod tests;

use std::{collections::BTreeMap, env::VarError};

use leptos::config::{get_configuration, LeptosOptions};
use secrecy::SecretString;

use crate::llm::bounds::{PromptLimits, Spend};
use crate::llm::choice::{LlmChoice, ToolMode};
use crate::llm::endpoint_settings::EndpointEnv;
use crate::security::client::TrustedProxies;
use crate::security::identity::CookieSecret;
use crate::security::keys::CookieSecrets;
use crate::telemetry::LogFormat;
use app::service::operator::AdminToken;
use app::service::prices::Pricing;

pub use error::ConfigError;
pub use model::ModelSettings;

/// The variables Dicebound reads (besides Leptos' own `LEPTOS_*`): exactly the rows of the
/// README's Configure table that are not marked as read by the scripts only.
pub const VARIABLES: &[&str] = &[
    "DICEBOUND_DATABASE_URL",
    "DICEBOUND_LLM",
    "DICEBOUND_LLM_BASE_URL",
    "DICEBOUND_LLM_API_KEY",
    "OPENAI_API_KEY",
    "DICEBOUND_LLM_MODEL",
    "DICEBOUND_LLM_TIMEOUT_SECS",
    "DICEBOUND_LLM_TOTAL_TIMEOUT_SECS",
    "DICEBOUND_LLM_MAX_TOKENS",
    "DICEBOUND_LLM_TOOLS",
    "DICEBOUND_LLM_CONTEXT_TOKENS",
    "DICEBOUND_PROMPT_MAX_TOKENS",
    "DICEBOUND_LLM_HOME",
    "DICEBOUND_TOOLS",
    "DICEBOUND_COOKIE_SECRET",
    "DICEBOUND_COOKIE_SECRET_PREVIOUS",
    "DICEBOUND_ACCEPT_NEW_COOKIE_KEY",
    "DICEBOUND_SECURE_COOKIES",
    "DICEBOUND_PUBLIC_HOSTS",
    "DICEBOUND_TRUSTED_PROXIES",
    "DICEBOUND_ADMIN_TOKEN",
    "DICEBOUND_LLM_CONCURRENCY",
    "DICEBOUND_PHASE_DEADLINE_SECS",
    "DICEBOUND_TURNS_PER_MINUTE",
    "DICEBOUND_CAMPAIGNS_PER_HOUR",
    "DICEBOUND_TURNS_PER_MINUTE_PER_ADDRESS",
    "DICEBOUND_CAMPAIGNS_PER_HOUR_PER_ADDRESS",
    "DICEBOUND_CAMPAIGNS_PER_PLAYER",
    "DICEBOUND_PRICE_PROMPT",
    "DICEBOUND_PRICE_CACHED",
    "DICEBOUND_PRICE_COMPLETION",
    "RUST_LOG",
    "DICEBOUND_LOG_FORMAT",
];

/// The system's variables that are read too: they locate the user's cache folder, where the
/// bundled model is installed by default.
pub const SYSTEM_VARIABLES: &[&str] = &["XDG_CACHE_HOME", "HOME"];

/// Everything read from the environment at start, in the parts its users take.
#[derive(Debug)]
pub struct Config {
    /// What the application is built from.
    pub settings: Settings,
    /// The secrets the player cookie's key is derived from (`DICEBOUND_COOKIE_SECRET`, and
    /// `DICEBOUND_COOKIE_SECRET_PREVIOUS` while it rotates); without one, the key lives in a
    /// file beside the database.
    pub cookies: CookieSecrets,
    /// The log filter (`RUST_LOG`).
    pub log_filter: Option<String>,
    /// How log lines are written (`DICEBOUND_LOG_FORMAT`: `text` or `json`).
    pub log_format: LogFormat,
}

/// What the application is built from (the part of [`Config`] that `startup` takes).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Leptos' own options: site address, site root, output name, environment.
    pub leptos: LeptosOptions,
    /// The campaign database URL (secret: a PostgreSQL URL may carry a password).
    pub database_url: SecretString,
    /// The model.
    pub llm: LlmChoice,
    /// How tools reach the model, when set (else the choice's own default).
    pub tools: Option<ToolMode>,
    /// The prompt's token limits, where set (else the model's own defaults).
    pub prompt: PromptLimits,
    /// Whether the player cookie is marked `Secure`.
    pub secure_cookies: bool,
    /// What the server spends and on whom.
    pub spend: Spend,
    /// Host names the server is reached at, besides `localhost` and IP addresses.
    pub public_hosts: Vec<String>,
    /// The reverse proxies whose `X-Forwarded-For` names the client (none: the peer is the client).
    pub trusted_proxies: TrustedProxies,
    /// The endpoint settings the environment fixes (the settings page cannot change them).
    pub endpoint_env: EndpointEnv,
    /// The prices per million tokens a story's cost is shown at (`DICEBOUND_PRICE_*`).
    pub pricing: Pricing,
    /// The token that lets a server others can reach have its settings changed in the app
    /// (`DICEBOUND_ADMIN_TOKEN`).
    pub admin_token: Option<AdminToken>,
}

/// Whether `file` lies beside the running binary (where cargo-leptos writes its hash file).
fn beside_the_binary(file: &str) -> bool {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(file)))
        .is_some_and(|path| path.is_file())
}

impl Config {
    /// Reads the configuration from the environment: Leptos' options (cargo-leptos sets the
    /// `LEPTOS_*` variables), then each of [`VARIABLES`] and [`SYSTEM_VARIABLES`] once.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut leptos = get_configuration(None)?.leptos_options;
        // A release build beside its hash file serves the hashed file names it built, however
        // the binary was started (`make play`, the tests, a service manager).
        leptos.hash_files |= beside_the_binary(&leptos.hash_file);
        let mut values = BTreeMap::new();
        for &name in VARIABLES.iter().chain(SYSTEM_VARIABLES) {
            match std::env::var(name) {
                Ok(value) if !value.is_empty() => {
                    values.insert(name, value);
                }
                Ok(_) | Err(VarError::NotPresent) => {}
                Err(VarError::NotUnicode(_)) => return Err(ConfigError::NotUnicode(name)),
            }
        }
        Self::from_lookup(leptos, |name| values.get(name).cloned())
    }

    /// Reads the configuration other than Leptos' from `lookup`, which maps a variable's name to
    /// its value (unset and empty variables are `None`).
    fn from_lookup(
        leptos: LeptosOptions,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        Ok(Self {
            settings: Settings::from_lookup(leptos, &lookup)?,
            cookies: CookieSecrets {
                current: secret(&lookup, "DICEBOUND_COOKIE_SECRET")?,
                previous: secret(&lookup, "DICEBOUND_COOKIE_SECRET_PREVIOUS")?,
                accept_new_key: lookup("DICEBOUND_ACCEPT_NEW_COOKIE_KEY")
                    .is_some_and(|v| v == "true"),
            },
            log_filter: lookup("RUST_LOG"),
            log_format: match lookup("DICEBOUND_LOG_FORMAT").as_deref().map(str::trim) {
                None | Some("text") => LogFormat::Text,
                Some("json") => LogFormat::Json,
                Some(other) => return Err(ConfigError::LogFormat(other.to_owned())),
            },
        })
    }
}

impl Settings {
    /// Reads the settings other than Leptos' from `lookup` (see [`Config::from_lookup`]).
    fn from_lookup(
        leptos: LeptosOptions,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let ModelSettings {
            llm,
            tools,
            prompt,
            endpoint_env,
        } = ModelSettings::from_lookup(&lookup)?;
        Ok(Self {
            endpoint_env,
            pricing: spend::pricing(&lookup)?,
            admin_token: lookup("DICEBOUND_ADMIN_TOKEN")
                .map(|token| AdminToken::new(&token).ok_or(ConfigError::AdminToken))
                .transpose()?,
            tools,
            prompt,
            spend: spend::spend(&lookup)?,
            public_hosts: lookup("DICEBOUND_PUBLIC_HOSTS")
                .map(|hosts| {
                    hosts
                        .split(',')
                        .map(|host| host.trim().to_ascii_lowercase())
                        .filter(|host| !host.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            leptos,
            database_url: lookup("DICEBOUND_DATABASE_URL")
                .unwrap_or_else(|| "sqlite://dicebound.db".to_owned())
                .into(),
            llm,
            secure_cookies: lookup("DICEBOUND_SECURE_COOKIES").is_some_and(|v| v == "true"),
            trusted_proxies: lookup("DICEBOUND_TRUSTED_PROXIES")
                .map(|list| list.parse())
                .transpose()?
                .unwrap_or_default(),
        })
    }
}

/// A cookie secret from `name`, if set.
fn secret(
    lookup: impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<CookieSecret>, ConfigError> {
    lookup(name)
        .map(|secret| CookieSecret::new(SecretString::from(secret)))
        .transpose()
        .map_err(ConfigError::from)
}
