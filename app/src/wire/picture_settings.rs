//! The settings page's image model: an OpenAI-compatible images endpoint (`/v1/images/generations`)
//! that draws the story's pictures, as the operator sees and changes it. As with the text model,
//! the API key only ever travels towards the server: a view says whether one is set.

use serde::{Deserialize, Serialize};

/// The image model as the settings page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureSettingsView {
    /// The endpoint's base URL, up to and including `/v1` (empty while pictures are off).
    pub endpoint: String,
    /// The model's name (empty for the endpoint's default).
    pub model: String,
    /// Whether a key is saved for the endpoint (never the key itself).
    pub key_set: bool,
}

impl PictureSettingsView {
    /// Whether pictures are on (an endpoint is set).
    pub fn on(&self) -> bool {
        !self.endpoint.is_empty()
    }
}

/// The settings page's image model form: an empty endpoint turns pictures off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureSettingsForm {
    /// The endpoint's base URL (empty: no pictures).
    pub endpoint: String,
    /// The model's name (empty: the endpoint's default).
    pub model: String,
    /// A new key; empty keeps the saved one for the same endpoint.
    pub api_key: String,
    /// Forget the saved key.
    pub forget_key: bool,
}
