//! The image model: an OpenAI-compatible images endpoint (`POST {base}/images/generations`:
//! OpenAI, LocalAI, or any bridge to a local Stable Diffusion) behind the app's [`ImagePort`].
//!
//! The request is async-openai's [`CreateImageRequest`] (one picture, as `b64_json`), sent with
//! `reqwest` as the text adapter sends its own (see `openai/mod.rs`): the key is a sensitive
//! header and never appears in an error, and the provider's error body is never passed on. The
//! answer is read within bounds: the whole call within the overall timeout, its body within
//! [`MAX_ANSWER_BYTES`]; whether its bytes are a picture is the app's to check.

use std::time::Duration;

use app::campaign::picture::MAX_PICTURE_BYTES;
use app::gm::picture::{ImageError, ImagePort};
use async_openai::types::images::{CreateImageRequest, ImageModel, ImageResponseFormat};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use futures::future::BoxFuture;
use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{StatusCode, Url};
use serde::Deserialize;

use super::openai::{bearer, is_loopback, ApiKey, LlmConfigError};

/// The largest answer read: a picture of [`MAX_PICTURE_BYTES`] in base64, with room for the JSON
/// around it.
pub const MAX_ANSWER_BYTES: usize = (MAX_PICTURE_BYTES as usize).div_ceil(3) * 4 + 64 * 1024;

/// The images endpoint's answer, leniently: the first picture's base64 is all that is read.
#[derive(Deserialize)]
struct Answer {
    data: Vec<AnswerImage>,
}

/// One picture of an answer.
#[derive(Deserialize)]
struct AnswerImage {
    b64_json: Option<String>,
}

/// The images endpoint adapter: one HTTP client, one endpoint, one model.
#[derive(Debug)]
pub struct ImagesAdapter {
    http: reqwest::Client,
    endpoint: Url,
    authorization: Option<HeaderValue>,
    model: String,
    overall_timeout: Duration,
}

impl ImagesAdapter {
    /// An adapter for the endpoint at `base_url` (up to and including `/v1`) and its `model`;
    /// refused when the URL is not an http(s) one or the key cannot be sent.
    pub fn new(
        base_url: &str,
        model: &str,
        key: Option<&ApiKey>,
        (connect_timeout, overall_timeout): (Duration, Duration),
    ) -> Result<Self, LlmConfigError> {
        let invalid = || LlmConfigError::BaseUrl(base_url.to_owned());
        let endpoint = Url::parse(&format!(
            "{}/images/generations",
            base_url.trim().trim_end_matches('/')
        ))
        .map_err(|_| invalid())?;
        if !matches!(endpoint.scheme(), "http" | "https") || !endpoint.has_host() {
            return Err(invalid());
        }
        let authorization = key
            .filter(|key| !key.expose().is_empty())
            .map(bearer)
            .transpose()?;
        let mut http = reqwest::Client::builder().connect_timeout(connect_timeout);
        if is_loopback(&endpoint) {
            http = http.no_proxy();
        }
        let http = http
            .build()
            .map_err(|_| LlmConfigError::Client("the HTTP client cannot be built".to_owned()))?;
        Ok(Self {
            http,
            endpoint,
            authorization,
            model: model.to_owned(),
            overall_timeout,
        })
    }

    /// The request for `prompt`: one picture, as base64 (OpenAI's `gpt-image` models always
    /// answer so, and refuse being asked).
    #[allow(deprecated)] // `response_format`: LocalAI and Stable Diffusion bridges still want it.
    fn request(&self, prompt: &str) -> CreateImageRequest {
        let base64 = !self.model.starts_with("gpt-image");
        CreateImageRequest {
            prompt: prompt.to_owned(),
            model: ImageModel::Other(self.model.clone()),
            n: Some(1),
            response_format: base64.then_some(ImageResponseFormat::B64Json),
            ..CreateImageRequest::default()
        }
    }

    /// One picture, without the overall timeout.
    async fn draw_unbounded(&self, prompt: &str) -> Result<Vec<u8>, ImageError> {
        let json = serde_json::to_vec(&self.request(prompt)).map_err(|_| ImageError::NotAnImage)?;
        let mut builder = self
            .http
            .post(self.endpoint.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(json);
        if let Some(authorization) = &self.authorization {
            builder = builder.header(AUTHORIZATION, authorization.clone());
        }
        let mut response = builder.send().await.map_err(transport_error)?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
            if body.len() + chunk.len() > MAX_ANSWER_BYTES {
                return Err(ImageError::TooLarge {
                    max_bytes: MAX_PICTURE_BYTES,
                });
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            return Err(status_error(status, &body));
        }
        let answer: Answer = serde_json::from_slice(&body).map_err(|_| ImageError::NotAnImage)?;
        let base64 = answer
            .data
            .into_iter()
            .find_map(|image| image.b64_json)
            .ok_or(ImageError::NotAnImage)?;
        STANDARD
            .decode(base64.trim())
            .map_err(|_| ImageError::NotAnImage)
    }
}

impl ImagePort for ImagesAdapter {
    fn draw<'a>(&'a self, prompt: &'a str) -> BoxFuture<'a, Result<Vec<u8>, ImageError>> {
        Box::pin(async move {
            tokio::time::timeout(self.overall_timeout, self.draw_unbounded(prompt))
                .await
                .unwrap_or(Err(ImageError::Timeout))
        })
    }
}

/// The error a failed request means (never the provider's words, which may echo the key).
fn transport_error(error: reqwest::Error) -> ImageError {
    if error.is_timeout() {
        ImageError::Timeout
    } else {
        ImageError::Unreachable
    }
}

/// The error an unsuccessful status means: a refused key, a refused prompt (a 400 that names
/// the provider's content or safety policy), or another failure.
fn status_error(status: StatusCode, body: &[u8]) -> ImageError {
    let status_code = status.as_u16();
    let text = String::from_utf8_lossy(body).to_lowercase();
    match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => ImageError::KeyRefused {
            status: status_code,
        },
        StatusCode::BAD_REQUEST if text.contains("policy") || text.contains("safety") => {
            ImageError::PromptRefused {
                status: status_code,
            }
        }
        _ => ImageError::Failed {
            status: status_code,
        },
    }
}
