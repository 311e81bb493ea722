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

use std::{collections::BTreeMap, env::VarError, path::PathBuf};

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};
use secrecy::SecretString;

use crate::llm::bundled::BundledSettings;
use crate::llm::discover::{usual_local_servers, LocalServer};
use crate::llm::endpoint_settings::EndpointEnv;
use crate::llm::openai::{LlmConfigError, OpenAiSettings};
use crate::security::client::{BadProxy, TrustedProxies};
use crate::security::identity::{CookieSecret, ShortCookieSecret};
use crate::security::keys::CookieSecrets;
use crate::telemetry::LogFormat;
use app::service::operator::AdminToken;
use app::service::prices::{Prices, Pricing};

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

/// Which model tells the story.
#[derive(Clone, Debug, PartialEq)]
pub enum LlmChoice {
    /// A configured OpenAI-compatible endpoint.
    Endpoint(OpenAiSettings),
    /// A model on this computer: the first of `probe` that is running, else the bundled model.
    Local {
        /// Model servers to look for first (Ollama, llama.cpp), in order of preference.
        probe: Vec<LocalServer>,
        /// The bundled model.
        bundled: BundledSettings,
    },
    /// A scripted scenario file.
    Scripted(PathBuf),
    /// The bundled model, every exchange recorded to a cassette file.
    Record {
        /// The cassette file written.
        path: PathBuf,
        /// The bundled model.
        bundled: BundledSettings,
    },
    /// A recorded cassette played back.
    Replay(PathBuf),
    /// The built-in demo story.
    Demo,
}

/// How the model is given its tools (the settings page's word for it too).
pub use app::wire::model_settings::ToolsMode as ToolMode;

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

/// Bounds on what the server spends: model calls at once, a phase's time, each player's and each
/// client address's share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spend {
    /// Model calls running at once (`DICEBOUND_LLM_CONCURRENCY`; else the model's own default).
    pub model_calls: Option<usize>,
    /// The most time a phase may take (`DICEBOUND_PHASE_DEADLINE_SECS`).
    pub phase_deadline: Option<std::time::Duration>,
    /// Each player's and each client address's rate limits, and each player's campaign count.
    pub limits: app::service::LimitSettings,
}

/// Token limits of the prompt that override the game master's defaults for its model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PromptLimits {
    /// The model's context size (`DICEBOUND_LLM_CONTEXT_TOKENS`).
    pub context_tokens: Option<u32>,
    /// The most tokens a prompt may have (`DICEBOUND_PROMPT_MAX_TOKENS`).
    pub max_tokens: Option<u32>,
}

impl PromptLimits {
    /// `gm` with these limits where they are set.
    pub fn apply(&self, gm: &mut app::gm::GmSettings) {
        if let Some(tokens) = self.context_tokens {
            gm.context_tokens = tokens;
        }
        if let Some(tokens) = self.max_tokens {
            gm.prompt_max_tokens = tokens;
        }
    }
}

/// The fewest tokens a prompt limit may be (the rules and tools alone take about 1,700).
const MIN_PROMPT_TOKENS: u32 = 2_000;

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A `LEPTOS_*` variable is malformed.
    #[error("invalid Leptos configuration: {0}")]
    Leptos(#[from] LeptosConfigError),
    /// The model settings are malformed.
    #[error("invalid model configuration: {0}")]
    Llm(#[from] LlmConfigError),
    /// `DICEBOUND_LLM` is not understood.
    #[error(
        "DICEBOUND_LLM must be local, bundled, demo, scripted:PATH, record:PATH or replay:PATH, \
         not {0:?}"
    )]
    LlmChoice(String),
    /// `DICEBOUND_LOG_FORMAT` is not understood.
    #[error("DICEBOUND_LOG_FORMAT must be text or json, not {0:?}")]
    LogFormat(String),
    /// `DICEBOUND_LLM_TOOLS` is not understood.
    #[error("DICEBOUND_LLM_TOOLS must be native or text, not {0:?}")]
    ToolMode(String),
    /// A token limit is not a whole number in range.
    #[error("{name} must be a whole number of tokens from {MIN_PROMPT_TOKENS} up, not {value:?}")]
    Tokens {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A cookie secret is too short.
    #[error("DICEBOUND_COOKIE_SECRET: {0}")]
    CookieSecret(#[from] ShortCookieSecret),
    /// A count or a limit is not a whole number in range.
    #[error("{name} must be a whole number from 1 up, not {value:?}")]
    Count {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `DICEBOUND_TRUSTED_PROXIES` lists something other than addresses and networks.
    #[error(transparent)]
    TrustedProxies(#[from] BadProxy),
    /// A price is not a number of dollars.
    #[error("{name} must be dollars per million tokens (0 or more), not {value:?}")]
    Price {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `DICEBOUND_ADMIN_TOKEN` is too short to resist guessing.
    #[error("DICEBOUND_ADMIN_TOKEN must be at least 16 characters")]
    AdminToken,
    /// A variable's value is not valid Unicode.
    #[error("{0} is not valid Unicode")]
    NotUnicode(&'static str),
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

/// The model's part of the settings: which model, how it gets its tools, its prompt's limits.
/// The playtest bench reads only this part, to play against whatever model an operator set.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSettings {
    /// The model.
    pub llm: LlmChoice,
    /// How tools reach the model, when set.
    pub tools: Option<ToolMode>,
    /// The prompt's token limits, where set.
    pub prompt: PromptLimits,
    /// The endpoint settings the environment fixes.
    pub endpoint_env: EndpointEnv,
}

impl ModelSettings {
    /// Reads the model settings from the environment (empty values count as unset).
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok().filter(|value| !value.is_empty()))
    }

    /// Reads the model settings from `lookup` (see [`Config::from_lookup`]).
    fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let local = |probe: bool| LlmChoice::Local {
            probe: if probe {
                usual_local_servers()
            } else {
                Vec::new()
            },
            bundled: BundledSettings::from_lookup(&lookup),
        };
        let endpoint_configured = [
            "DICEBOUND_LLM_BASE_URL",
            "DICEBOUND_LLM_API_KEY",
            "OPENAI_API_KEY",
        ]
        .iter()
        .any(|name| lookup(name).is_some());
        let llm = match lookup("DICEBOUND_LLM").as_deref().map(str::trim) {
            None if endpoint_configured => {
                LlmChoice::Endpoint(OpenAiSettings::from_lookup(&lookup)?)
            }
            None | Some("local") => local(true),
            Some("bundled") => local(false),
            Some("demo") => LlmChoice::Demo,
            Some(other) => match other.split_once(':') {
                Some(("scripted", path)) if !path.is_empty() => {
                    LlmChoice::Scripted(PathBuf::from(path))
                }
                Some(("record", path)) if !path.is_empty() => LlmChoice::Record {
                    path: PathBuf::from(path),
                    bundled: BundledSettings::from_lookup(&lookup),
                },
                Some(("replay", path)) if !path.is_empty() => {
                    LlmChoice::Replay(PathBuf::from(path))
                }
                _ => return Err(ConfigError::LlmChoice(other.to_owned())),
            },
        };
        let tools = match lookup("DICEBOUND_LLM_TOOLS").as_deref().map(str::trim) {
            None => None,
            Some(name) => Some(
                ToolMode::from_name(name).ok_or_else(|| ConfigError::ToolMode(name.to_owned()))?,
            ),
        };
        let prompt = PromptLimits {
            context_tokens: tokens(&lookup, "DICEBOUND_LLM_CONTEXT_TOKENS")?,
            max_tokens: tokens(&lookup, "DICEBOUND_PROMPT_MAX_TOKENS")?,
        };
        let endpoint_env = EndpointEnv::from_lookup(&lookup, tools, prompt.context_tokens)?;
        Ok(Self {
            llm,
            tools,
            prompt,
            endpoint_env,
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
            pricing: pricing(&lookup)?,
            admin_token: lookup("DICEBOUND_ADMIN_TOKEN")
                .map(|token| AdminToken::new(&token).ok_or(ConfigError::AdminToken))
                .transpose()?,
            tools,
            prompt,
            spend: Spend::from_lookup(&lookup)?,
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

impl Spend {
    /// Reads the spending bounds from `lookup` (see [`Config::from_lookup`]).
    fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let defaults = app::service::LimitSettings::default();
        let mut limits = app::service::LimitSettings::per_player(
            count(&lookup, "DICEBOUND_TURNS_PER_MINUTE")?.unwrap_or(defaults.turns_per_minute),
            count(&lookup, "DICEBOUND_CAMPAIGNS_PER_HOUR")?.unwrap_or(defaults.campaigns_per_hour),
            count(&lookup, "DICEBOUND_CAMPAIGNS_PER_PLAYER")?
                .map_or(defaults.campaigns_per_player, |kept| kept.get()),
        );
        if let Some(turns) = count(&lookup, "DICEBOUND_TURNS_PER_MINUTE_PER_ADDRESS")? {
            limits.turns_per_minute_per_address = turns;
        }
        if let Some(campaigns) = count(&lookup, "DICEBOUND_CAMPAIGNS_PER_HOUR_PER_ADDRESS")? {
            limits.campaigns_per_hour_per_address = campaigns;
        }
        Ok(Self {
            model_calls: count(&lookup, "DICEBOUND_LLM_CONCURRENCY")?
                .map(|calls| calls.get() as usize),
            phase_deadline: count(&lookup, "DICEBOUND_PHASE_DEADLINE_SECS")?
                .map(|secs| std::time::Duration::from_secs(u64::from(secs.get()))),
            limits,
        })
    }
}

/// The prices per million tokens: none unless a prompt or completion price is set; a cached
/// token costs a prompt token's price unless its own is set.
fn pricing(lookup: impl Fn(&str) -> Option<String>) -> Result<Pricing, ConfigError> {
    let price = |name: &'static str| {
        lookup(name)
            .map(|value| {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|price| price.is_finite() && *price >= 0.0)
                    .ok_or(ConfigError::Price { name, value })
            })
            .transpose()
    };
    let prompt = price("DICEBOUND_PRICE_PROMPT")?;
    let completion = price("DICEBOUND_PRICE_COMPLETION")?;
    let cached = price("DICEBOUND_PRICE_CACHED")?;
    if prompt.is_none() && completion.is_none() {
        return Ok(Pricing(None));
    }
    let prompt = prompt.unwrap_or(0.0);
    Ok(Pricing(Some(Prices {
        prompt,
        cached: cached.unwrap_or(prompt),
        completion: completion.unwrap_or(0.0),
    })))
}

/// A whole number from 1 up from `name`, if set.
fn count(
    lookup: impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<std::num::NonZeroU32>, ConfigError> {
    lookup(name)
        .map(|value| {
            value
                .trim()
                .parse()
                .map_err(|_| ConfigError::Count { name, value })
        })
        .transpose()
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

/// A token limit from `name`, if set.
fn tokens(
    lookup: impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u32>, ConfigError> {
    lookup(name)
        .map(|value| match value.trim().parse::<u32>() {
            Ok(tokens) if tokens >= MIN_PROMPT_TOKENS => Ok(tokens),
            _ => Err(ConfigError::Tokens { name, value }),
        })
        .transpose()
}

/// A stand-in environment of `pairs`, for tests of the `from_lookup` readers.
#[cfg(test)]
pub(crate) fn fake_env<'a>(
    pairs: &'a [(&'a str, &'a str)],
) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, collections::BTreeSet};

    use super::*;

    const API_KEY: &str = "sk-never-printed";
    const COOKIE_SECRET: &str =
        "cookie-secret-never-printed-cookie-secret-never-printed-0123456789";

    fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::from_lookup(
            LeptosOptions::builder().output_name("t").build(),
            fake_env(pairs),
        )
    }

    /// The names `Config::from_lookup` asks for, reading `pairs`.
    fn names_read(pairs: &[(&str, &str)]) -> BTreeSet<String> {
        let read = RefCell::new(BTreeSet::new());
        let env = fake_env(pairs);
        Config::from_lookup(LeptosOptions::builder().output_name("t").build(), |name| {
            read.borrow_mut().insert(name.to_owned());
            env(name)
        })
        .unwrap();
        read.into_inner()
    }

    #[test]
    fn the_reader_asks_for_exactly_the_listed_variables() {
        // Without an endpoint the local model's folder is looked up; with one, its settings.
        let mut read = names_read(&[]);
        read.extend(names_read(&[("OPENAI_API_KEY", "sk")]));
        let listed: BTreeSet<String> = VARIABLES
            .iter()
            .chain(SYSTEM_VARIABLES)
            .map(|name| (*name).to_owned())
            .collect();
        assert_eq!(read, listed);
        assert_eq!(
            listed.len(),
            VARIABLES.len() + SYSTEM_VARIABLES.len(),
            "listed twice"
        );
    }

    #[test]
    fn secrets_are_kept_and_never_printed() {
        let config = config(&[
            ("DICEBOUND_LLM_API_KEY", API_KEY),
            ("DICEBOUND_COOKIE_SECRET", COOKIE_SECRET),
            ("RUST_LOG", "debug"),
        ])
        .unwrap();
        assert!(config.cookies.current.is_some());
        assert!(matches!(&config.settings.llm, LlmChoice::Endpoint(s) if s.api_key.is_some()));
        assert_eq!(config.log_filter.as_deref(), Some("debug"));
        let printed = format!("{config:?} {config:#?}");
        assert!(!printed.contains(API_KEY), "{printed}");
        assert!(!printed.contains("cookie-secret"), "{printed}");
        assert!(printed.contains("REDACTED"), "{printed}");
    }

    #[test]
    fn logs_are_text_unless_json_is_asked_for() {
        assert_eq!(config(&[]).unwrap().log_format, LogFormat::Text);
        let json = config(&[("DICEBOUND_LOG_FORMAT", " json ")]).unwrap();
        assert_eq!(json.log_format, LogFormat::Json);
        let error = config(&[("DICEBOUND_LOG_FORMAT", "xml")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "DICEBOUND_LOG_FORMAT must be text or json, not \"xml\""
        );
    }

    #[test]
    fn a_short_cookie_secret_is_refused() {
        let error = config(&[("DICEBOUND_COOKIE_SECRET", "short")]).unwrap_err();
        assert!(matches!(error, ConfigError::CookieSecret(_)));
        assert!(error.to_string().contains("64 characters"), "{error}");
        assert!(!error.to_string().contains("short"), "{error}");
        let unset = config(&[]).unwrap();
        assert!(unset.cookies.current.is_none() && unset.log_filter.is_none());
        assert!(!unset.settings.secure_cookies);
        assert!(
            config(&[("DICEBOUND_SECURE_COOKIES", "true")])
                .unwrap()
                .settings
                .secure_cookies
        );
    }

    fn settings(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        Settings::from_lookup(
            LeptosOptions::builder().output_name("t").build(),
            fake_env(pairs),
        )
    }

    #[test]
    fn without_an_endpoint_a_local_model_is_used() {
        let chosen = settings(&[("DICEBOUND_LLM_HOME", "/llm")]).unwrap();
        assert_eq!(
            chosen.llm,
            LlmChoice::Local {
                probe: usual_local_servers(),
                bundled: BundledSettings::in_dir(std::path::Path::new("/llm")),
            }
        );
        assert_eq!(chosen.tools, None);
        let bundled = settings(&[("DICEBOUND_LLM", "bundled")]).unwrap();
        assert!(matches!(bundled.llm, LlmChoice::Local { ref probe, .. } if probe.is_empty()));
    }

    #[test]
    fn a_configured_endpoint_wins() {
        let chosen = settings(&[("OPENAI_API_KEY", "sk-test")]).unwrap();
        assert!(matches!(chosen.llm, LlmChoice::Endpoint(ref s) if s.model == "gpt-4o-mini"));
        let chosen = settings(&[
            ("DICEBOUND_LLM_BASE_URL", "http://10.0.0.2:8000/v1"),
            ("DICEBOUND_LLM_TOOLS", "text"),
        ])
        .unwrap();
        assert!(
            matches!(chosen.llm, LlmChoice::Endpoint(ref s) if s.base_url.starts_with("http://10.0.0.2"))
        );
        assert_eq!(chosen.tools, Some(ToolMode::Text));
    }

    #[test]
    fn an_explicit_choice_beats_an_endpoint() {
        let demo = settings(&[("DICEBOUND_LLM", "demo"), ("OPENAI_API_KEY", "sk")]).unwrap();
        assert_eq!(demo.llm, LlmChoice::Demo);
        let replay = settings(&[("DICEBOUND_LLM", "replay:/tmp/c.json")]).unwrap();
        assert_eq!(replay.llm, LlmChoice::Replay(PathBuf::from("/tmp/c.json")));
        let record = settings(&[("DICEBOUND_LLM", "record:/tmp/c.json")]).unwrap();
        assert!(
            matches!(record.llm, LlmChoice::Record { ref path, .. } if path.ends_with("c.json"))
        );
        let scripted = settings(&[("DICEBOUND_LLM", "scripted:/tmp/s.json")]).unwrap();
        assert_eq!(
            scripted.llm,
            LlmChoice::Scripted(PathBuf::from("/tmp/s.json"))
        );
    }

    #[test]
    fn unknown_values_are_refused_with_the_allowed_ones() {
        let error = settings(&[("DICEBOUND_LLM", "gpt5")]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("scripted:PATH, record:PATH or replay:PATH"),
            "{error}"
        );
        let error = settings(&[("DICEBOUND_LLM", "scripted:")]).unwrap_err();
        assert!(matches!(error, ConfigError::LlmChoice(_)));
        let error = settings(&[("DICEBOUND_LLM_TOOLS", "smoke")]).unwrap_err();
        assert!(error.to_string().contains("native or text"), "{error}");
        let error = settings(&[("DICEBOUND_PROMPT_MAX_TOKENS", "500")]).unwrap_err();
        assert!(error.to_string().contains("from 2000 up"), "{error}");
    }

    #[test]
    fn prompt_limits_override_the_models_defaults() {
        let read = settings(&[
            ("DICEBOUND_LLM_CONTEXT_TOKENS", "32768"),
            ("DICEBOUND_PROMPT_MAX_TOKENS", " 6000 "),
        ])
        .unwrap();
        let mut gm = app::gm::GmSettings::small_model();
        read.prompt.apply(&mut gm);
        assert_eq!((gm.context_tokens, gm.prompt_max_tokens), (32_768, 6_000));
        let mut untouched = app::gm::GmSettings::small_model();
        settings(&[]).unwrap().prompt.apply(&mut untouched);
        assert_eq!(untouched, app::gm::GmSettings::small_model());
    }

    #[test]
    fn each_address_may_spend_four_players_allowance_unless_set() {
        let limits = |pairs| settings(pairs).unwrap().spend.limits;
        let derived = limits(&[
            ("DICEBOUND_TURNS_PER_MINUTE", "5"),
            ("DICEBOUND_CAMPAIGNS_PER_HOUR", "7"),
        ]);
        assert_eq!(
            (
                derived.turns_per_minute_per_address.get(),
                derived.campaigns_per_hour_per_address.get()
            ),
            (20, 28)
        );
        let set = limits(&[
            ("DICEBOUND_TURNS_PER_MINUTE", "5"),
            ("DICEBOUND_TURNS_PER_MINUTE_PER_ADDRESS", "6"),
            ("DICEBOUND_CAMPAIGNS_PER_HOUR_PER_ADDRESS", "9"),
        ]);
        assert_eq!(set.turns_per_minute.get(), 5);
        assert_eq!(set.turns_per_minute_per_address.get(), 6);
        assert_eq!(set.campaigns_per_hour_per_address.get(), 9);
        let error = settings(&[("DICEBOUND_TURNS_PER_MINUTE_PER_ADDRESS", "0")]).unwrap_err();
        assert!(matches!(error, ConfigError::Count { .. }), "{error}");
    }

    #[test]
    fn trusted_proxies_are_none_unless_listed() {
        assert_eq!(
            settings(&[]).unwrap().trusted_proxies,
            TrustedProxies::default()
        );
        let listed = settings(&[("DICEBOUND_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8")]).unwrap();
        assert_ne!(listed.trusted_proxies, TrustedProxies::default());
        let error = settings(&[("DICEBOUND_TRUSTED_PROXIES", "proxy.internal")]).unwrap_err();
        assert!(error.to_string().contains("\"proxy.internal\""), "{error}");
    }
}
