//! Streamed OpenAI-compatible replies for fake providers (wiremock), shared by the tests.

use serde_json::{json, Value};
use wiremock::ResponseTemplate;

/// An SSE body of `chunks` (each a chunk's JSON), ending with `[DONE]`.
pub fn sse(chunks: &[Value]) -> String {
    chunks
        .iter()
        .map(|chunk| format!("data: {chunk}\n\n"))
        .chain(["data: [DONE]\n\n".to_owned()])
        .collect()
}

/// One streamed chunk with `delta` and, optionally, a finish reason.
pub fn delta(delta: Value, finish_reason: Option<&str>) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]
    })
}

/// A 200 response streaming `body`.
pub fn sse_response(body: String) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body, "text/event-stream")
}
