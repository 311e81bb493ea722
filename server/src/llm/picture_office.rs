//! The server's side of the image model's settings ([`PictureOffice`]): the images endpoint saved
//! on the settings page (kept in the database, the key too, like the text model's), read at
//! start, replaced without a restart. A saved key is kept only for the endpoint it was set for;
//! an empty endpoint turns pictures off.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use app::campaign::store::StoreError;
use app::gm::picture::ImagePort;
use app::service::game_master::OfficeError;
use app::service::pictures::PictureOffice;
use app::wire::picture_settings::{PictureSettingsForm, PictureSettingsView};
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::endpoint_settings::{bounded, invalid, typed_key};
use super::images::ImagesAdapter;
use super::openai::{ApiKey, LlmConfigError};
use crate::store::SqlStore;

/// The server setting the images endpoint is stored under.
const SAVED_SETTING: &str = "image_model";

/// The images endpoint as the database keeps it.
#[derive(Clone, Serialize, Deserialize)]
struct StoredImages {
    base_url: String,
    model: String,
    api_key: Option<String>,
}

/// An images endpoint and the adapter drawing with it.
struct Painter {
    stored: StoredImages,
    adapter: Arc<ImagesAdapter>,
}

/// The image model's office.
pub struct PictureDesk {
    store: Arc<SqlStore>,
    timeouts: (Duration, Duration),
    /// The endpoint in use, if any (saves take turns through `saving`).
    painter: RwLock<Option<Arc<Painter>>>,
    saving: tokio::sync::Mutex<()>,
}

impl PictureDesk {
    /// The office over `store`, with the endpoint saved there in use (none if it cannot be
    /// read); each call within `timeouts` (to connect, in all).
    pub async fn open(
        store: Arc<SqlStore>,
        timeouts: (Duration, Duration),
    ) -> Result<Self, StoreError> {
        let saved = store.setting(SAVED_SETTING).await?;
        let stored = saved.and_then(|json| {
            serde_json::from_str::<Option<StoredImages>>(&json)
                .inspect_err(|_| {
                    tracing::warn!("the saved image model settings cannot be read; ignored");
                })
                .ok()
                .flatten()
        });
        let painter = stored.and_then(|stored| painter(stored, timeouts).ok());
        Ok(Self {
            store,
            timeouts,
            painter: RwLock::new(painter.map(Arc::new)),
            saving: tokio::sync::Mutex::new(()),
        })
    }

    fn current(&self) -> Option<Arc<Painter>> {
        self.painter
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    async fn save_form(
        &self,
        form: PictureSettingsForm,
    ) -> Result<PictureSettingsView, OfficeError> {
        let _one_at_a_time = self.saving.lock().await;
        let stored = stored_from(&form, self.current().as_deref())?;
        let painter = stored
            .map(|stored| painter(stored, self.timeouts).map_err(config_error))
            .transpose()?;
        let json = serde_json::to_string(&painter.as_ref().map(|painter| &painter.stored))
            .map_err(|_| invalid("endpoint", "the settings cannot be written"))?;
        self.store.set_setting(SAVED_SETTING, &json).await?;
        let painter = painter.map(Arc::new);
        *self
            .painter
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = painter.clone();
        Ok(view(painter.as_deref()))
    }
}

impl PictureOffice for PictureDesk {
    fn settings(&self) -> BoxFuture<'_, Result<PictureSettingsView, OfficeError>> {
        Box::pin(async move { Ok(view(self.current().as_deref())) })
    }

    fn save(
        &self,
        form: PictureSettingsForm,
    ) -> BoxFuture<'_, Result<PictureSettingsView, OfficeError>> {
        Box::pin(self.save_form(form))
    }

    fn painter(&self) -> Option<Arc<dyn ImagePort>> {
        self.current()
            .map(|painter| painter.adapter.clone() as Arc<dyn ImagePort>)
    }
}

/// The adapter for `stored`.
fn painter(
    stored: StoredImages,
    timeouts: (Duration, Duration),
) -> Result<Painter, LlmConfigError> {
    let key = stored.api_key.clone().map(ApiKey::new);
    let adapter = ImagesAdapter::new(&stored.base_url, &stored.model, key.as_ref(), timeouts)?;
    Ok(Painter {
        stored,
        adapter: Arc::new(adapter),
    })
}

/// The page's view of `painter` (never the key).
fn view(painter: Option<&Painter>) -> PictureSettingsView {
    painter.map_or_else(PictureSettingsView::default, |painter| {
        PictureSettingsView {
            endpoint: painter.stored.base_url.clone(),
            model: painter.stored.model.clone(),
            key_set: painter.stored.api_key.is_some(),
        }
    })
}

/// The form's endpoint (none when its endpoint is empty); a key left empty is the saved one,
/// kept only for the same endpoint.
fn stored_from(
    form: &PictureSettingsForm,
    saved: Option<&Painter>,
) -> Result<Option<StoredImages>, OfficeError> {
    let base_url = form.endpoint.trim().trim_end_matches('/');
    if base_url.is_empty() {
        return Ok(None);
    }
    let base_url = bounded("endpoint", base_url)?.to_owned();
    let model = bounded("model", &form.model)?.to_owned();
    let typed = typed_key(&form.api_key)?;
    let api_key = if !typed.is_empty() {
        Some(typed.to_owned())
    } else if form.forget_key {
        None
    } else {
        saved
            .filter(|saved| saved.stored.base_url == base_url)
            .and_then(|saved| saved.stored.api_key.clone())
    };
    Ok(Some(StoredImages {
        base_url,
        model,
        api_key,
    }))
}

/// The adapter's refusal as the page's.
fn config_error(error: LlmConfigError) -> OfficeError {
    match error {
        LlmConfigError::ApiKey => invalid("api_key", "cannot be sent in an HTTP header"),
        _ => invalid(
            "endpoint",
            "must be an http:// or https:// URL, such as http://127.0.0.1:8080/v1",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(endpoint: &str, key: &str) -> PictureSettingsForm {
        PictureSettingsForm {
            endpoint: endpoint.into(),
            model: "sd-turbo".into(),
            api_key: key.into(),
            forget_key: false,
        }
    }

    fn field(form: &PictureSettingsForm) -> &'static str {
        let made = stored_from(form, None).and_then(|stored| {
            stored
                .map(|stored| painter(stored, (Duration::from_secs(1), Duration::from_secs(1))))
                .transpose()
                .map_err(config_error)
        });
        match made {
            Err(OfficeError::Invalid { field, .. }) => field,
            _ => panic!("accepted: {form:?}"),
        }
    }

    #[test]
    fn a_form_becomes_an_images_endpoint_within_bounds() {
        assert!(stored_from(&form("", ""), None).unwrap().is_none());
        assert_eq!(field(&form("not a url", "")), "endpoint");
        assert_eq!(field(&form("ftp://example.org/v1", "")), "endpoint");
        assert_eq!(field(&form("http://x/v1", "bad\nkey")), "api_key");
        assert_eq!(
            field(&PictureSettingsForm {
                model: " ".into(),
                ..form("http://x/v1", "")
            }),
            "model"
        );
    }

    #[test]
    fn a_saved_key_is_kept_only_for_its_own_endpoint() {
        let timeouts = (Duration::from_secs(1), Duration::from_secs(1));
        let stored = stored_from(&form("https://img.example.org/v1", "sk-1"), None)
            .unwrap()
            .unwrap();
        let saved = painter(stored, timeouts).unwrap();
        let same = stored_from(&form("https://img.example.org/v1/", ""), Some(&saved)).unwrap();
        assert_eq!(same.unwrap().api_key.as_deref(), Some("sk-1"));
        let elsewhere =
            stored_from(&form("https://evil.example.com/v1", ""), Some(&saved)).unwrap();
        assert_eq!(elsewhere.unwrap().api_key, None);
        assert!(!format!("{:?}", view(Some(&saved))).contains("sk-1"));
    }
}
