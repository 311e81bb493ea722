//! The OpenAI-compatible adapter of [`LlmPort`]: OpenAI, Ollama, llama.cpp's `llama-server`,
//! vLLM, LM Studio, OpenRouter — anything that speaks `POST {base}/chat/completions`.
//!
//! Its parts: the settings and the key (`settings`), the request and the lenient reply types on
//! the wire (`wire`), the endpoint's model list (`models`), the streamed events read against the deadlines (`events`), the reply put
//! together from them (`assembly`), and the provider's errors as the port's (`errors`); this
//! file holds the adapter that sends a request and reads its reply.
//!
//! # Configuration
//!
//! [`OpenAiSettings::from_lookup`] reads, from the variables `config` read at start:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `DICEBOUND_LLM_BASE_URL` | the API's base URL, up to and including `/v1` | `https://api.openai.com/v1` |
//! | `DICEBOUND_LLM_API_KEY` | the API key, sent as `Authorization: Bearer …` | `OPENAI_API_KEY`, else none |
//! | `OPENAI_API_KEY` | fallback for the API key | none |
//! | `DICEBOUND_LLM_MODEL` | the model's name | `gpt-4o-mini` |
//! | `DICEBOUND_LLM_TIMEOUT_SECS` | idle timeout: the longest wait for the reply to start or for its next streamed piece | `30` |
//! | `DICEBOUND_LLM_TOTAL_TIMEOUT_SECS` | the longest a whole call may take | `120` |
//! | `DICEBOUND_LLM_MAX_TOKENS` | reply length limit, when a request sets none | none |
//!
//! Empty values count as unset. The API key never appears in `Debug` output, errors or logs:
//! [`ApiKey`] is a `secrecy` secret that prints as `[redacted]`, and every error message is scrubbed of the key (a proxy may
//! echo the `Authorization` header back in an error body).
//!
//! # Wire
//!
//! The request is async-openai's [`CreateChatCompletionRequest`], sent with `reqwest` rather than
//! with async-openai's client: that client drops the `Retry-After` header, loses the HTTP status of
//! any error body that is not OpenAI's JSON shape (plain-text 429s from proxies, for instance), and
//! logs raw error bodies, which may echo the key. Replies are read into small lenient structs that
//! accept what compatible servers actually send (unknown finish reasons, missing `created`/`object`
//! fields, tool arguments as a JSON object) instead of async-openai's strict response types.
//!
//! The length limit is sent as `max_tokens`: llama.cpp, Ollama, vLLM and LM Studio honour it, and
//! OpenAI still accepts it for its chat models; `max_completion_tokens` is ignored by Ollama.
//! (OpenAI's reasoning models want `max_completion_tokens`: leave the limit unset for them.)
//!
//! # Timeouts
//!
//! [`LlmPort::stream`] fails with [`LlmError::Timeout`] when the reply does not start, or its next
//! piece does not arrive, within the idle timeout, and when the whole reply takes longer than the
//! overall timeout. [`LlmPort::complete`] uses the non-streaming endpoint, where nothing arrives
//! until the reply is written, so only the overall timeout applies.

mod assembly;
mod errors;
mod events;
mod models;
mod settings;
mod wire;

pub use models::MAX_LISTED_MODELS;
pub use settings::{ApiKey, LlmConfigError, OpenAiSettings};

use app::gm::{LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, ModelInfo, ToolChoice};
use async_openai::types::chat::{
    ChatCompletionStreamOptions, ChatCompletionToolChoiceOption, CreateChatCompletionRequest,
    ToolChoiceOptions,
};
use errors::{
    describe, error_message, event_error, retry_after, status_error, transport_error, truncate,
};
use events::{idle_deadline, Reader};
use eventsource_stream::{Event, Eventsource};
use futures::{
    future::BoxFuture,
    stream::{self, BoxStream},
    Stream, StreamExt, TryStreamExt,
};
use reqwest::{
    header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE},
    Response, Url,
};
pub(crate) use settings::bearer;
pub(crate) use settings::is_loopback;
use settings::{chat_endpoint, public_endpoint};
use tokio::time::{timeout, timeout_at, Instant};
use wire::{wire_format, wire_message, wire_tool, WireResponse};

/// The OpenAI-compatible adapter: one HTTP client, one endpoint, one model.
#[derive(Debug)]
pub struct OpenAiAdapter {
    http: reqwest::Client,
    endpoint: Url,
    authorization: Option<HeaderValue>,
    settings: OpenAiSettings,
}

impl OpenAiAdapter {
    /// An adapter for `settings`; fails if the base URL or the key cannot be used.
    pub fn new(settings: OpenAiSettings) -> Result<Self, LlmConfigError> {
        let endpoint = chat_endpoint(&settings.base_url)?;
        let authorization = settings
            .api_key
            .as_ref()
            .filter(|key| !key.expose().is_empty())
            .map(bearer)
            .transpose()?;
        let mut http = reqwest::Client::builder().connect_timeout(settings.idle_timeout);
        if is_loopback(&endpoint) {
            // A model on this computer is never reached through a proxy.
            http = http.no_proxy();
        }
        let http = http
            .build()
            .map_err(|error| LlmConfigError::Client(describe(error)))?;
        Ok(Self {
            http,
            endpoint,
            authorization,
            settings,
        })
    }

    /// The settings this adapter was built with.
    pub fn settings(&self) -> &OpenAiSettings {
        &self.settings
    }

    /// The wire request for `request` (its JSON is the request body).
    #[allow(deprecated)] // `max_tokens`: see the module documentation.
    pub fn wire_request(&self, request: LlmRequest, stream: bool) -> CreateChatCompletionRequest {
        let tools: Vec<_> = request.tools.iter().cloned().map(wire_tool).collect();
        // Tools the model may not call are still sent, with `tool_choice: none`: a provider
        // renders them ahead of the messages, so every call of a campaign keeps the same front
        // for its prompt cache.
        let tool_choice = match request.tool_choice {
            ToolChoice::None if !tools.is_empty() => Some(ChatCompletionToolChoiceOption::Mode(
                ToolChoiceOptions::None,
            )),
            _ => None,
        };
        CreateChatCompletionRequest {
            model: self.settings.model.clone(),
            messages: request.messages.into_iter().map(wire_message).collect(),
            tools: (!tools.is_empty()).then_some(tools),
            tool_choice,
            response_format: request.response_format.map(wire_format),
            temperature: request.temperature,
            max_tokens: request.max_tokens.or(self.settings.max_tokens),
            frequency_penalty: self.settings.frequency_penalty,
            stream: stream.then_some(true),
            stream_options: stream.then_some(ChatCompletionStreamOptions {
                include_usage: Some(true),
                include_obfuscation: None,
            }),
            ..Default::default()
        }
    }

    /// Sends `body` and returns the response if its status is a success, else the error it means.
    async fn send(
        &self,
        body: &CreateChatCompletionRequest,
        accept: &'static str,
    ) -> Result<Response, LlmError> {
        let json = serde_json::to_vec(body).map_err(|error| LlmError::BadRequest {
            status: 0, // never sent
            message: format!("the request cannot be encoded: {error}"),
        })?;
        let mut builder = self
            .http
            .post(self.endpoint.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, accept)
            .body(json);
        if let Some(authorization) = &self.authorization {
            builder = builder.header(AUTHORIZATION, authorization.clone());
        }
        let response = builder.send().await.map_err(transport_error)?;
        if response.status().is_success() {
            Ok(response)
        } else {
            Err(self.status_error(response).await)
        }
    }

    /// The error an unsuccessful response means, its message taken from the body.
    async fn status_error(&self, response: Response) -> LlmError {
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let body = match response.text().await {
            Ok(body) => body,
            Err(error) => return transport_error(error),
        };
        let message = truncate(&self.redact(&error_message(&body)));
        status_error(status, retry_after, message)
    }

    /// The whole reply from the non-streaming endpoint (no overall timeout).
    async fn complete_unbounded(&self, request: LlmRequest) -> Result<LlmResponse, LlmError> {
        let body = self.wire_request(request, false);
        let response = self.send(&body, "application/json").await?;
        let bytes = response.bytes().await.map_err(transport_error)?;
        serde_json::from_slice::<WireResponse>(&bytes)
            .map_err(|error| {
                LlmError::InvalidResponse(format!("the reply is not a chat completion: {error}"))
            })?
            .into_response()
    }

    /// Opens the event stream of a streamed reply, within `until`.
    async fn open_stream(
        &self,
        request: LlmRequest,
        until: Instant,
    ) -> Result<impl Stream<Item = Result<Event, LlmError>> + Send + 'static, LlmError> {
        let body = self.wire_request(request, true);
        let response = timeout_at(until, self.send(&body, "text/event-stream"))
            .await
            .map_err(|_| LlmError::Timeout)??;
        Ok(response.bytes_stream().eventsource().map_err(event_error))
    }

    /// Replaces the API key, wherever it appears in `text`, with `[redacted]`.
    fn redact(&self, text: &str) -> String {
        match self.settings.api_key.as_ref().map(ApiKey::expose) {
            Some(key) if !key.is_empty() => text.replace(key, "[redacted]"),
            _ => text.to_owned(),
        }
    }

    /// `error` with the API key scrubbed from its message.
    fn scrub(&self, error: LlmError) -> LlmError {
        match error {
            LlmError::Server { status, message } => LlmError::Server {
                status,
                message: self.redact(&message),
            },
            LlmError::BadRequest { status, message } => LlmError::BadRequest {
                status,
                message: self.redact(&message),
            },
            LlmError::Connect(message) => LlmError::Connect(self.redact(&message)),
            LlmError::InvalidResponse(message) => LlmError::InvalidResponse(self.redact(&message)),
            LlmError::Timeout | LlmError::RateLimited { .. } | LlmError::Cut => error,
        }
    }
}

impl LlmPort for OpenAiAdapter {
    fn model_info(&self) -> ModelInfo {
        ModelInfo {
            model: self.settings.model.clone(),
            endpoint: public_endpoint(&self.endpoint),
        }
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let deadline = Instant::now() + self.settings.overall_timeout;
        let idle = self.settings.idle_timeout;
        let opening = self.open_stream(request, idle_deadline(idle, deadline));
        stream::once(async move {
            let events = opening.await?;
            Ok(stream::unfold(
                Reader::new(Box::pin(events), idle, deadline),
                Reader::step,
            ))
        })
        .try_flatten()
        .map_err(|error| self.scrub(error))
        .boxed()
    }

    fn complete(&self, request: LlmRequest) -> BoxFuture<'_, Result<LlmResponse, LlmError>> {
        Box::pin(async move {
            timeout(
                self.settings.overall_timeout,
                self.complete_unbounded(request),
            )
            .await
            .unwrap_or(Err(LlmError::Timeout))
            .map_err(|error| self.scrub(error))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use app::gm::FinishReason;
    use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};

    use super::errors::{retry_after, MAX_ERROR_CHARS};
    use super::wire::finish_reason;
    use super::*;

    #[test]
    fn loopback_endpoints_are_recognised() {
        let loopback = |url: &str| is_loopback(&Url::parse(url).unwrap());
        assert!(loopback("http://127.0.0.1:8080/v1"));
        assert!(loopback("http://LOCALHOST:11434/v1"));
        assert!(loopback("http://[::1]:8080/v1"));
        assert!(!loopback("https://api.openai.com/v1"));
        assert!(!loopback("http://10.0.0.2:8000/v1"));
    }

    #[test]
    fn finish_reasons_map_and_unknown_ones_are_kept() {
        assert_eq!(finish_reason("stop"), FinishReason::Stop);
        assert_eq!(finish_reason("function_call"), FinishReason::ToolCalls);
        assert_eq!(finish_reason("abort"), FinishReason::Other("abort".into()));
    }

    #[test]
    fn retry_after_reads_seconds_and_ignores_dates() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(2)));
        headers.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn error_messages_come_from_openai_shaped_bodies_or_the_body_itself() {
        assert_eq!(
            error_message(r#"{"error":{"message":"no such model"}}"#),
            "no such model"
        );
        assert_eq!(error_message(r#"{"error":"overloaded"}"#), "overloaded");
        assert_eq!(error_message(" upstream down \n"), "upstream down");
    }

    #[test]
    fn long_messages_are_cut_on_a_char_boundary() {
        let long = "é".repeat(MAX_ERROR_CHARS + 10);
        assert_eq!(truncate(&long).chars().count(), MAX_ERROR_CHARS + 1);
    }

    #[test]
    fn the_public_endpoint_drops_credentials() {
        let url = chat_endpoint("http://user:pw@127.0.0.1:8080/v1/").unwrap();
        assert_eq!(public_endpoint(&url), "http://127.0.0.1:8080/v1");
    }

    #[test]
    fn only_http_base_urls_are_accepted() {
        assert!(chat_endpoint("ftp://example.com/v1").is_err());
        assert!(chat_endpoint("not a url").is_err());
    }
}
