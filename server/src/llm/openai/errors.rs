//! A provider's errors as the port's: HTTP statuses, `Retry-After`, error bodies (cut to a
//! bound), transport and stream failures.

use std::time::Duration;

use app::gm::LlmError;
use eventsource_stream::EventStreamError;
use reqwest::{
    header::{HeaderMap, RETRY_AFTER},
    StatusCode,
};
use serde_json::Value;

/// The longest error message (in characters) kept from a provider's error body.
pub(super) const MAX_ERROR_CHARS: usize = 500;

/// The `Retry-After` header, in seconds (an HTTP date is ignored).
pub(super) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
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
pub(super) fn status_error(
    status: StatusCode,
    retry_after: Option<Duration>,
    message: String,
) -> LlmError {
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
pub(super) fn provider_error(error: &Value) -> LlmError {
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
pub(super) fn error_message(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|json| json.get("error").map(error_text))
        .unwrap_or_else(|| body.trim().to_owned())
}

/// The text of an `error` value: its `message`, or the value itself.
pub(super) fn error_text(error: &Value) -> String {
    match error.get("message").and_then(Value::as_str) {
        Some(message) => message.to_owned(),
        None => error
            .as_str()
            .map_or_else(|| error.to_string(), str::to_owned),
    }
}

/// `text`, cut to [`MAX_ERROR_CHARS`].
pub(super) fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_ERROR_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// The error a failed HTTP exchange means.
pub(super) fn transport_error(error: reqwest::Error) -> LlmError {
    if error.is_timeout() {
        LlmError::Timeout
    } else if error.is_decode() {
        LlmError::InvalidResponse(describe(error))
    } else {
        LlmError::Connect(describe(error))
    }
}

/// The error a broken event stream means.
pub(super) fn event_error(error: EventStreamError<reqwest::Error>) -> LlmError {
    match error {
        EventStreamError::Transport(error) => transport_error(error),
        other => LlmError::InvalidResponse(format!("the event stream is malformed: {other}")),
    }
}

/// An error and its causes on one line, without the URL (which may carry credentials).
pub(super) fn describe(error: reqwest::Error) -> String {
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
