//! The OpenAI-compatible adapter of [`LlmPort`]: OpenAI, Ollama, llama.cpp's `llama-server`,
//! vLLM, LM Studio, OpenRouter — anything that speaks `POST {base}/chat/completions`.
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

use std::{
    collections::{BTreeMap, VecDeque},
    fmt,
    time::Duration,
};

use app::gm::{
    FinishReason, JsonSchemaFormat, LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, Message,
    ModelInfo, TokenUsage, ToolCall, ToolChoice, ToolDefinition,
};
use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls,
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionStreamOptions, ChatCompletionTool,
    ChatCompletionToolChoiceOption, ChatCompletionTools, CreateChatCompletionRequest, FunctionCall,
    FunctionObject, ResponseFormat, ResponseFormatJsonSchema, ToolChoiceOptions,
};
use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{
    future::BoxFuture,
    stream::{self, BoxStream},
    Stream, StreamExt, TryStreamExt,
};
use reqwest::{
    header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER},
    Response, StatusCode, Url,
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::Value;
use tokio::time::{timeout, timeout_at, Instant};

/// The longest error message (in characters) kept from a provider's error body.
const MAX_ERROR_CHARS: usize = 500;

/// An API key. Never printed: its `Debug` is `[redacted]` and it has no `Display`; the
/// memory it held is zeroed when it is dropped.
#[derive(Clone)]
pub struct ApiKey(SecretString);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        Self(SecretString::from(key.into()))
    }

    fn expose(&self) -> &str {
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
fn is_loopback(url: &Url) -> bool {
    url.host_str().is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost")
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    })
}

/// Parses a positive number of seconds (fractions allowed).
fn seconds(name: &'static str, value: String) -> Result<Duration, LlmConfigError> {
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
fn token_count(name: &'static str, value: String) -> Result<u32, LlmConfigError> {
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
        let tools: Vec<_> = request.tools.into_iter().map(wire_tool).collect();
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

/// The earlier of "one idle timeout from now" and the overall deadline.
fn idle_deadline(idle: Duration, deadline: Instant) -> Instant {
    (Instant::now() + idle).min(deadline)
}

/// What a streamed reply's connection gave next.
enum Next {
    /// An event with data.
    Event(Event),
    /// The `[DONE]` marker: the provider has said all it will.
    Done,
    /// The connection closed.
    Closed,
}

/// Reads a streamed reply's events, with timeouts, into [`LlmChunk`]s.
struct Reader {
    events: BoxStream<'static, Result<Event, LlmError>>,
    idle: Duration,
    deadline: Instant,
    assembler: Assembler,
    pending: VecDeque<Result<LlmChunk, LlmError>>,
    finished: bool,
}

impl Reader {
    fn new(
        events: BoxStream<'static, Result<Event, LlmError>>,
        idle: Duration,
        deadline: Instant,
    ) -> Self {
        Self {
            events,
            idle,
            deadline,
            assembler: Assembler::default(),
            pending: Default::default(),
            finished: false,
        }
    }

    /// The next chunk (or error), and the reader for the rest; `None` at the end.
    async fn step(mut self) -> Option<(Result<LlmChunk, LlmError>, Self)> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some((item, self));
            }
            if self.finished {
                return None;
            }
            let outcome = match self.next_event().await {
                Ok(Next::Event(event)) => self.assembler.absorb(&event.data),
                Ok(Next::Done) => self.finish(),
                // The connection closed before the provider said it had finished: the reply was
                // cut (a sentence cut mid-way must not become the story).
                Ok(Next::Closed) if self.assembler.finish_reason.is_none() => {
                    self.finished = true;
                    Err(LlmError::Cut)
                }
                Ok(Next::Closed) => self.finish(),
                // A provider that stops sending after its finish reason has said all it will.
                Err(LlmError::Timeout) if self.assembler.finish_reason.is_some() => self.finish(),
                Err(error) => Err(error),
            };
            match outcome {
                Ok(chunks) => self.pending.extend(chunks.into_iter().map(Ok)),
                Err(error) => {
                    self.finished = true;
                    self.pending.push_back(Err(error));
                }
            }
        }
    }

    /// The next event worth reading, within the idle and overall timeouts.
    async fn next_event(&mut self) -> Result<Next, LlmError> {
        loop {
            let until = idle_deadline(self.idle, self.deadline);
            let event = timeout_at(until, self.events.next())
                .await
                .map_err(|_| LlmError::Timeout)?
                .transpose()?;
            match event {
                None => return Ok(Next::Closed),
                Some(event) if event.data == "[DONE]" => return Ok(Next::Done),
                Some(event) if event.data.trim().is_empty() || event.event == "keepalive" => {}
                Some(event) => return Ok(Next::Event(event)),
            }
        }
    }

    /// The tool calls and `Done` that end the reply.
    fn finish(&mut self) -> Result<Vec<LlmChunk>, LlmError> {
        self.finished = true;
        std::mem::take(&mut self.assembler).finish()
    }
}

/// Assembles a streamed reply: text passes through, tool calls are put together from their deltas.
#[derive(Default)]
struct Assembler {
    calls: BTreeMap<u32, PartialCall>,
    finish_reason: Option<String>,
    usage: Option<TokenUsage>,
    text_seen: bool,
}

/// A tool call being streamed: the id and name come once, the arguments in pieces.
#[derive(Default)]
struct PartialCall {
    id: Option<String>,
    name: Option<String>,
    arguments: String,
}

impl Assembler {
    /// Takes in one event's data; returns the text to pass on.
    fn absorb(&mut self, data: &str) -> Result<Vec<LlmChunk>, LlmError> {
        let chunk: WireChunk = serde_json::from_str(data).map_err(|error| {
            LlmError::InvalidResponse(format!("a streamed chunk is not valid JSON: {error}"))
        })?;
        if let Some(error) = chunk.error {
            return Err(provider_error(&error));
        }
        if let Some(usage) = chunk.usage {
            self.usage = Some(usage.into());
        }
        let mut text = Vec::new();
        for choice in chunk.choices.into_iter().filter(|choice| choice.index == 0) {
            if let Some(content) = choice.delta.content.filter(|content| !content.is_empty()) {
                self.text_seen = true;
                text.push(LlmChunk::Text(content));
            }
            for delta in choice.delta.tool_calls.unwrap_or_default() {
                self.merge(delta);
            }
            if let Some(reason) = choice.finish_reason {
                self.finish_reason = Some(reason);
            }
        }
        Ok(text)
    }

    /// Adds a tool-call delta to the call at its index.
    fn merge(&mut self, delta: WireToolCallDelta) {
        let call = self.calls.entry(delta.index).or_default();
        if call.id.is_none() {
            call.id = delta.id.filter(|id| !id.is_empty());
        }
        if let Some(function) = delta.function {
            if call.name.is_none() {
                call.name = function.name.filter(|name| !name.is_empty());
            }
            call.arguments
                .push_str(function.arguments.as_deref().unwrap_or_default());
        }
    }

    /// The assembled tool calls, then `Done`.
    fn finish(self) -> Result<Vec<LlmChunk>, LlmError> {
        let calls = self
            .calls
            .into_iter()
            .map(|(index, call)| call.complete(index))
            .collect::<Result<Vec<_>, _>>()?;
        let finish_reason = settle_finish(self.finish_reason, !calls.is_empty(), self.text_seen)?;
        Ok(calls
            .into_iter()
            .map(LlmChunk::ToolCall)
            .chain([LlmChunk::Done {
                finish_reason,
                usage: self.usage,
            }])
            .collect())
    }
}

impl PartialCall {
    /// The finished call; a call without a name is unreadable, one without an id gets one.
    fn complete(self, index: u32) -> Result<ToolCall, LlmError> {
        let name = self.name.ok_or_else(|| {
            LlmError::InvalidResponse(format!("streamed tool call {index} has no name"))
        })?;
        Ok(ToolCall {
            id: self.id.unwrap_or_else(|| format!("call_{index}")),
            name,
            arguments: self.arguments,
        })
    }
}

/// The finish reason the provider gave or, if it gave none, the one its reply implies.
fn settle_finish(
    reason: Option<String>,
    has_tool_calls: bool,
    has_text: bool,
) -> Result<FinishReason, LlmError> {
    match reason {
        Some(reason) => Ok(finish_reason(&reason)),
        None if has_tool_calls => Ok(FinishReason::ToolCalls),
        None if has_text => Ok(FinishReason::Stop),
        None => Err(LlmError::InvalidResponse(
            "the reply ended without a finish reason or any content".into(),
        )),
    }
}

/// The port's finish reason for the provider's.
fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "stop" => FinishReason::Stop,
        "length" => FinishReason::Length,
        "tool_calls" | "function_call" => FinishReason::ToolCalls,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_owned()),
    }
}

/// One streamed chunk, as leniently as compatible servers need.
#[derive(Deserialize)]
struct WireChunk {
    #[serde(default)]
    choices: Vec<WireStreamChoice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Deserialize)]
struct WireStreamChoice {
    #[serde(default)]
    index: u32,
    #[serde(default)]
    delta: WireDelta,
    finish_reason: Option<String>,
}

#[derive(Default, Deserialize)]
struct WireDelta {
    content: Option<String>,
    tool_calls: Option<Vec<WireToolCallDelta>>,
}

#[derive(Deserialize)]
struct WireToolCallDelta {
    #[serde(default)]
    index: u32,
    id: Option<String>,
    function: Option<WireFunctionDelta>,
}

#[derive(Deserialize)]
struct WireFunctionDelta {
    name: Option<String>,
    arguments: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
    prompt_tokens_details: Option<WirePromptDetails>,
}

/// What OpenAI (and servers that follow it) say of the request's tokens.
#[derive(Deserialize)]
struct WirePromptDetails {
    cached_tokens: Option<u32>,
}

impl From<WireUsage> for TokenUsage {
    fn from(usage: WireUsage) -> Self {
        Self {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            cached_tokens: usage
                .prompt_tokens_details
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
        }
    }
}

/// A non-streamed reply.
#[derive(Deserialize)]
struct WireResponse {
    #[serde(default)]
    choices: Vec<WireChoice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Deserialize)]
struct WireChoice {
    message: WireMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireMessage {
    content: Option<String>,
    tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Deserialize)]
struct WireToolCall {
    id: Option<String>,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    /// A JSON string per OpenAI; some servers send the object itself.
    arguments: Option<Value>,
}

impl WireResponse {
    /// The port's response: the first choice's text and tool calls.
    fn into_response(self) -> Result<LlmResponse, LlmError> {
        if let Some(error) = self.error {
            return Err(provider_error(&error));
        }
        let choice = self
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| LlmError::InvalidResponse("the reply has no choices".into()))?;
        let tool_calls: Vec<_> = choice
            .message
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(index, call)| call.into_call(index))
            .collect();
        let text = choice.message.content.unwrap_or_default();
        let finish_reason = settle_finish(
            choice.finish_reason,
            !tool_calls.is_empty(),
            !text.is_empty(),
        )?;
        Ok(LlmResponse {
            text,
            tool_calls,
            finish_reason,
            usage: self.usage.map(Into::into),
        })
    }
}

impl WireToolCall {
    /// The port's tool call; one without an id gets one from its position.
    fn into_call(self, index: usize) -> ToolCall {
        let arguments = match self.function.arguments {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text,
            Some(object) => object.to_string(),
        };
        ToolCall {
            id: self.id.unwrap_or_else(|| format!("call_{index}")),
            name: self.function.name,
            arguments,
        }
    }
}

/// The wire form of one message.
fn wire_message(message: Message) -> ChatCompletionRequestMessage {
    match message {
        Message::System { content } => {
            ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(content),
                name: None,
            })
        }
        Message::User { content } => {
            ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
                content: ChatCompletionRequestUserMessageContent::Text(content),
                name: None,
            })
        }
        Message::Assistant {
            content,
            tool_calls,
        } => ChatCompletionRequestMessage::Assistant(wire_assistant(content, tool_calls)),
        Message::Tool {
            tool_call_id,
            content,
        } => ChatCompletionRequestMessage::Tool(ChatCompletionRequestToolMessage {
            content: ChatCompletionRequestToolMessageContent::Text(content),
            tool_call_id,
        }),
    }
}

/// The wire form of an assistant message; one with neither text nor calls gets empty text.
fn wire_assistant(
    content: Option<String>,
    tool_calls: Vec<ToolCall>,
) -> ChatCompletionRequestAssistantMessage {
    let content = match content {
        None if tool_calls.is_empty() => Some(String::new()),
        content => content,
    };
    let calls: Vec<_> = tool_calls
        .into_iter()
        .map(|call| {
            ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
                id: call.id,
                function: FunctionCall {
                    name: call.name,
                    arguments: call.arguments,
                },
            })
        })
        .collect();
    ChatCompletionRequestAssistantMessage {
        content: content.map(ChatCompletionRequestAssistantMessageContent::Text),
        tool_calls: (!calls.is_empty()).then_some(calls),
        ..Default::default()
    }
}

/// The wire form of a tool definition.
fn wire_tool(tool: ToolDefinition) -> ChatCompletionTools {
    ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: tool.name,
            description: Some(tool.description),
            parameters: Some(tool.parameters),
            strict: None,
        },
    })
}

/// The wire form of a JSON schema the reply must follow.
fn wire_format(format: JsonSchemaFormat) -> ResponseFormat {
    ResponseFormat::JsonSchema {
        json_schema: ResponseFormatJsonSchema {
            description: None,
            name: format.name,
            schema: format.schema,
            strict: Some(format.strict),
        },
    }
}

/// `{base}/chat/completions`, if `base` is an http(s) URL.
fn chat_endpoint(base: &str) -> Result<Url, LlmConfigError> {
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
fn public_endpoint(endpoint: &Url) -> String {
    let base = endpoint.path().trim_end_matches("/chat/completions");
    format!("{}{base}", endpoint.origin().ascii_serialization())
}

/// The `Authorization` header for `key`, marked sensitive so that it is never printed.
fn bearer(key: &ApiKey) -> Result<HeaderValue, LlmConfigError> {
    let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
        .map_err(|_| LlmConfigError::ApiKey)?;
    value.set_sensitive(true);
    Ok(value)
}

/// The `Retry-After` header, in seconds (an HTTP date is ignored).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let secs: f64 = headers
        .get(RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Duration::try_from_secs_f64(secs).ok()
}

/// The error an unsuccessful HTTP status means.
fn status_error(status: StatusCode, retry_after: Option<Duration>, message: String) -> LlmError {
    match status.as_u16() {
        429 => LlmError::RateLimited { retry_after },
        code @ 500..=599 => LlmError::Server {
            status: code,
            message,
        },
        code @ 400..=499 => LlmError::BadRequest {
            status: code,
            message,
        },
        code => LlmError::InvalidResponse(format!("unexpected HTTP status {code}: {message}")),
    }
}

/// The error a provider reported in a body (`{"error": …}`), by its numeric code if it has one.
fn provider_error(error: &Value) -> LlmError {
    let message = truncate(&error_text(error));
    match error
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|code| StatusCode::from_u16(u16::try_from(code).ok()?).ok())
    {
        Some(status) if status.is_client_error() || status.is_server_error() => {
            status_error(status, None, message)
        }
        _ => LlmError::InvalidResponse(format!("the provider reported an error: {message}")),
    }
}

/// The message of an error body: OpenAI's `{"error": {"message": …}}`, else the body itself.
fn error_message(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|json| json.get("error").map(error_text))
        .unwrap_or_else(|| body.trim().to_owned())
}

/// The text of an `error` value: its `message`, or the value itself.
fn error_text(error: &Value) -> String {
    match error.get("message").and_then(Value::as_str) {
        Some(message) => message.to_owned(),
        None => error
            .as_str()
            .map_or_else(|| error.to_string(), str::to_owned),
    }
}

/// `text`, cut to [`MAX_ERROR_CHARS`].
fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_ERROR_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// The error a failed HTTP exchange means.
fn transport_error(error: reqwest::Error) -> LlmError {
    if error.is_timeout() {
        LlmError::Timeout
    } else if error.is_decode() {
        LlmError::InvalidResponse(describe(error))
    } else {
        LlmError::Connect(describe(error))
    }
}

/// The error a broken event stream means.
fn event_error(error: EventStreamError<reqwest::Error>) -> LlmError {
    match error {
        EventStreamError::Transport(error) => transport_error(error),
        other => LlmError::InvalidResponse(format!("the event stream is malformed: {other}")),
    }
}

/// An error and its causes on one line, without the URL (which may carry credentials).
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
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
