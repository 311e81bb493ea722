//! Configuration, read once at start from the environment.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `LEPTOS_SITE_ADDR` | address and port to listen on (`127.0.0.1:0` picks a free port) | `127.0.0.1:3000` |
//! | `LEPTOS_SITE_ROOT` | folder with the built site (`pkg/`, assets) | `target/site` |
//! | `LEPTOS_ENV` | `DEV` or `PROD` | `DEV` |

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Leptos' own options: site address, site root, output name, environment.
    pub leptos: LeptosOptions,
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A `LEPTOS_*` variable is malformed.
    #[error("invalid Leptos configuration: {0}")]
    Leptos(#[from] LeptosConfigError),
}

impl Settings {
    /// Reads the settings from the environment (cargo-leptos sets the `LEPTOS_*` variables).
    pub fn from_env() -> Result<Self, ConfigError> {
        let leptos = get_configuration(None)?.leptos_options;
        Ok(Self { leptos })
    }
}
