//! The game master in use, swapped whole when the operator saves new model settings, and the
//! port through which the settings page reaches the server's side of them (the endpoint's model
//! list, a test call, the saved settings).

use std::sync::{Arc, RwLock};

use futures::future::BoxFuture;

use crate::campaign::store::StoreError;
use crate::gm::{GmSettings, LlmPort};
use crate::wire::model_settings::{ConnectionReport, ModelSettingsForm, ModelSettingsView};
use crate::wire::view::GameMasterView;

/// One game master: the model, the turn limits that suit it and what the player is told.
pub struct ActiveMaster {
    /// The model (within the server's bound on calls at once).
    pub llm: Arc<dyn LlmPort>,
    /// The turn's limits for it.
    pub gm: Arc<GmSettings>,
    /// Which model it is, as the player is told.
    pub view: Arc<GameMasterView>,
}

/// The game master every new request takes: a request keeps the one it started with, so a
/// turn is never told by two models.
pub struct MasterSwitch(RwLock<Arc<ActiveMaster>>);

impl MasterSwitch {
    /// A switch set to `master`.
    pub fn new(master: ActiveMaster) -> Self {
        Self(RwLock::new(Arc::new(master)))
    }

    /// The game master in use.
    pub fn current(&self) -> Arc<ActiveMaster> {
        // A writer only swaps the pointer, so a poisoned lock still holds a whole master.
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Makes `master` the game master of every request from now on.
    pub fn replace(&self, master: ActiveMaster) {
        *self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(master);
    }
}

/// Why the settings page's request failed, in words for the operator (never the key, never the
/// provider's own words: a proxy may echo the key in an error body).
#[derive(Debug, thiserror::Error)]
pub enum OfficeError {
    /// A field of the form is unusable.
    #[error("{reason}")]
    Invalid {
        /// Which field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// Nothing answers at the endpoint.
    #[error("nothing answers at this address (is the server running, and is the URL right?)")]
    Unreachable,
    /// The endpoint refused the key.
    #[error("the endpoint refused the API key (HTTP {status})")]
    KeyRefused {
        /// The HTTP status (401 or 403).
        status: u16,
    },
    /// The endpoint does not list the model.
    #[error("the endpoint does not list {model:?}; it lists {}", listed_names(.listed))]
    UnknownModel {
        /// The model asked for.
        model: String,
        /// What the endpoint lists.
        listed: Vec<String>,
    },
    /// The model refused a request with tools.
    #[error(
        "the model refused a request with tools (HTTP {status}); choose tools described in the \
         text"
    )]
    NoToolSupport {
        /// The HTTP status.
        status: u16,
    },
    /// The endpoint answered with an error.
    #[error("the endpoint answered HTTP {status}")]
    Refused {
        /// The HTTP status.
        status: u16,
    },
    /// The endpoint answered something that is not an OpenAI-compatible answer.
    #[error("the endpoint's answer is not an OpenAI-compatible one (is the URL the API's, ending in /v1?)")]
    Unreadable,
    /// The model did not answer in time.
    #[error("the model did not answer in time")]
    Timeout,
    /// The settings could not be stored.
    #[error("the settings could not be stored: {0}")]
    Store(#[from] StoreError),
}

impl OfficeError {
    /// The form's field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Invalid { field, .. } => field,
            Self::KeyRefused { .. } => "api_key",
            Self::UnknownModel { .. } => "model",
            Self::NoToolSupport { .. } => "tools",
            Self::Unreachable
            | Self::Refused { .. }
            | Self::Unreadable
            | Self::Timeout
            | Self::Store(_) => "endpoint",
        }
    }
}

/// At most the first ten names, for a message.
fn listed_names(listed: &[String]) -> String {
    match listed {
        [] => "no models".to_owned(),
        _ => {
            let mut names = listed
                .iter()
                .take(10)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            if listed.len() > 10 {
                names.push_str(&format!(" and {} more", listed.len() - 10));
            }
            names
        }
    }
}

/// The server's side of the settings page: what is set, the endpoint's models, a test call, and
/// saving (which stores the settings and switches the game master).
pub trait GameMasterOffice: Send + Sync {
    /// The settings in effect.
    fn settings(&self) -> BoxFuture<'_, Result<ModelSettingsView, OfficeError>>;

    /// The models the form's endpoint lists.
    fn models(&self, form: ModelSettingsForm) -> BoxFuture<'_, Result<Vec<String>, OfficeError>>;

    /// One small call to the form's model, with what it lists.
    fn test(&self, form: ModelSettingsForm)
        -> BoxFuture<'_, Result<ConnectionReport, OfficeError>>;

    /// Checks the form against the endpoint's list, stores it and makes it the game master.
    fn save(
        &self,
        form: ModelSettingsForm,
    ) -> BoxFuture<'_, Result<ModelSettingsView, OfficeError>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_model_names_what_the_endpoint_lists() {
        let listed: Vec<String> = (1..=12).map(|n| format!("m{n}")).collect();
        let error = OfficeError::UnknownModel {
            model: "gpt-9".into(),
            listed,
        };
        let text = error.to_string();
        assert!(text.contains("\"gpt-9\""), "{text}");
        assert!(text.contains("m1, m2"), "{text}");
        assert!(text.ends_with("m10 and 2 more"), "{text}");
        assert_eq!(error.field(), "model");
    }
}
