//! Tests of the configuration reader, on stand-in environments.

use std::{cell::RefCell, collections::BTreeSet, path::PathBuf};

use leptos::config::LeptosOptions;

use super::*;
use crate::llm::bundled::BundledSettings;
use crate::llm::discover::usual_local_servers;
use crate::llm::test_env::fake_env;

const API_KEY: &str = "sk-never-printed";
const COOKIE_SECRET: &str = "cookie-secret-never-printed-cookie-secret-never-printed-0123456789";

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
    assert!(matches!(record.llm, LlmChoice::Record { ref path, .. } if path.ends_with("c.json")));
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
