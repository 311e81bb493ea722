//! Tests of the resilient wrapper: over the real adapter against a fake provider on loopback
//! (wiremock counts the calls), and over a fake port for failures in the middle of a stream.

use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use app::gm::{
    FinishReason, LlmChunk, LlmError, LlmPort, LlmRequest, Message, ModelInfo, TokenUsage,
};
use futures::{stream::BoxStream, StreamExt};
use serde_json::json;
use server::llm::{
    openai::{OpenAiAdapter, OpenAiSettings},
    resilient::{Resilient, RetryPolicy},
};
use wiremock::{matchers::method, Mock, MockServer, ResponseTemplate};

/// Three retries with millisecond backoff.
fn fast_policy() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(5),
        max_retry_after: Duration::from_millis(50),
    }
}

/// The real adapter for `server`, with the default (generous) timeouts: no reply on its way is
/// cut short by a busy machine, and none of these tests waits for a timeout.
fn resilient(server: &MockServer) -> Resilient<OpenAiAdapter> {
    let settings = OpenAiSettings::new(format!("{}/v1", server.uri()), "test-model");
    Resilient::new(
        Arc::new(OpenAiAdapter::new(settings).unwrap()),
        fast_policy(),
    )
}

fn request() -> LlmRequest {
    LlmRequest {
        messages: vec![Message::user("I search the room.")],
        ..LlmRequest::default()
    }
}

fn success() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": "You find a key."}, "finish_reason": "stop"}]
    }))
}

fn streamed_success() -> ResponseTemplate {
    let chunk = json!({"choices": [{"index": 0, "delta": {"content": "You find a key."}, "finish_reason": "stop"}]});
    ResponseTemplate::new(200).set_body_raw(
        format!("data: {chunk}\n\ndata: [DONE]\n\n"),
        "text/event-stream",
    )
}

/// Mounts `failure` for the first `times` calls, then `then` for the rest.
async fn fail_then(
    server: &MockServer,
    failure: ResponseTemplate,
    times: u64,
    then: ResponseTemplate,
) {
    Mock::given(method("POST"))
        .respond_with(failure)
        .up_to_n_times(times)
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .respond_with(then)
        .mount(server)
        .await;
}

async fn calls(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

#[tokio::test]
async fn two_server_errors_then_success_takes_three_calls() {
    let server = MockServer::start().await;
    fail_then(&server, ResponseTemplate::new(500), 2, success()).await;

    let reply = resilient(&server).complete(request()).await;

    assert_eq!(reply.map(|reply| reply.text), Ok("You find a key.".into()));
    assert_eq!(calls(&server).await, 3);
}

#[tokio::test]
async fn a_stream_that_fails_before_its_first_chunk_is_retried_and_says_so() {
    let server = MockServer::start().await;
    fail_then(&server, ResponseTemplate::new(502), 2, streamed_success()).await;

    let chunks: Vec<_> = resilient(&server).stream(request()).collect().await;

    let (notices, reply) = chunks.split_at(2);
    for (notice, attempt) in notices.iter().zip([2, 3]) {
        assert!(
            matches!(notice, Ok(LlmChunk::Retrying { attempt: a, attempts: 4, .. }) if *a == attempt),
            "the retry is announced before it is made: {chunks:?}"
        );
    }
    assert_eq!(
        reply,
        [
            Ok(LlmChunk::Text("You find a key.".into())),
            Ok(LlmChunk::Done {
                finish_reason: FinishReason::Stop,
                usage: None,
            }),
        ]
    );
    assert_eq!(calls(&server).await, 3);
}

#[tokio::test]
async fn a_bad_request_is_not_retried() {
    let server = MockServer::start().await;
    fail_then(&server, ResponseTemplate::new(400), 1, success()).await;

    let reply = resilient(&server).complete(request()).await;

    assert!(
        matches!(reply, Err(LlmError::BadRequest { status: 400, .. })),
        "{reply:?}"
    );
    assert_eq!(calls(&server).await, 1);
}

#[tokio::test]
async fn an_invalid_response_is_not_retried() {
    let server = MockServer::start().await;
    let garbage = ResponseTemplate::new(200).set_body_string("not json");
    fail_then(&server, garbage, 1, success()).await;

    let reply = resilient(&server).complete(request()).await;

    assert!(
        matches!(reply, Err(LlmError::InvalidResponse(_))),
        "{reply:?}"
    );
    assert_eq!(calls(&server).await, 1);
}

#[tokio::test]
async fn a_rate_limit_with_retry_after_zero_is_retried() {
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(429).insert_header("retry-after", "0");
    fail_then(&server, limited, 1, success()).await;

    let reply = resilient(&server).complete(request()).await;

    assert!(reply.is_ok(), "{reply:?}");
    assert_eq!(calls(&server).await, 2);
}

#[tokio::test]
async fn attempts_are_bounded() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503).set_body_string("overloaded"))
        .mount(&server)
        .await;
    let resilient = resilient(&server);

    let reply = resilient.complete(request()).await;
    let streamed: Vec<_> = resilient.stream(request()).collect().await;

    let overloaded = LlmError::Server {
        status: 503,
        message: "overloaded".into(),
    };
    assert_eq!(reply, Err(overloaded.clone()));
    assert_eq!(streamed.len(), 4, "three retries announced, then the error");
    assert_eq!(streamed.last(), Some(&Err(overloaded)));
    assert_eq!(calls(&server).await, 2 * 4);
}

/// A port whose stream yields `script` and counts how often it was called.
struct Scripted {
    script: Vec<Result<LlmChunk, LlmError>>,
    calls: AtomicUsize,
}

impl Scripted {
    fn new(script: Vec<Result<LlmChunk, LlmError>>) -> Arc<Self> {
        Arc::new(Self {
            script,
            calls: AtomicUsize::new(0),
        })
    }
}

impl LlmPort for Scripted {
    fn model_info(&self) -> ModelInfo {
        ModelInfo {
            model: "scripted".into(),
            endpoint: "test".into(),
        }
    }

    fn stream(&self, _: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        futures::stream::iter(self.script.clone()).boxed()
    }
}

#[tokio::test]
async fn a_stream_that_fails_after_its_first_chunk_is_not_retried() {
    let lost = LlmError::Connect("connection reset".into());
    let port = Scripted::new(vec![
        Ok(LlmChunk::Text("The orc".into())),
        Err(lost.clone()),
    ]);
    let resilient = Resilient::new(port.clone(), fast_policy());

    let chunks: Vec<_> = resilient.stream(request()).collect().await;

    assert_eq!(chunks, [Ok(LlmChunk::Text("The orc".into())), Err(lost)]);
    assert_eq!(port.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_wrapped_trait_object_retries_too() {
    let port = Scripted::new(vec![Err(LlmError::Timeout)]);
    let dynamic: Arc<dyn LlmPort> = port.clone();
    let resilient = Resilient::new(dynamic, fast_policy());

    let reply = resilient.complete(request()).await;

    assert_eq!(reply, Err(LlmError::Timeout));
    assert_eq!(port.calls.load(Ordering::SeqCst), 4);
    assert_eq!(resilient.model_info().model, "scripted");
}

// Paused time: the clock stands still while anything can run and, once every task waits, jumps
// to the next timer; the time a call took on it is the pauses it made, not the machine's speed.
#[tokio::test(start_paused = true)]
async fn a_providers_retry_after_is_waited_out_before_the_next_attempt() {
    let after = Duration::from_secs(20);
    let port = Scripted::new(vec![Err(LlmError::RateLimited {
        retry_after: Some(after),
    })]);
    let policy = RetryPolicy {
        max_retries: 1,
        max_retry_after: Duration::from_secs(60),
        ..fast_policy()
    };
    let resilient = Resilient::new(port.clone(), policy);

    let started = tokio::time::Instant::now();
    let streamed: Vec<_> = resilient.stream(request()).collect().await;
    let took = started.elapsed();

    assert_eq!(
        streamed.first(),
        Some(&Ok(LlmChunk::Retrying {
            attempt: 2,
            attempts: 2,
            wait_ms: 20_000,
        })),
        "the player is told of the provider's wait"
    );
    assert_eq!(port.calls.load(Ordering::SeqCst), 2);
    assert_eq!(
        took, after,
        "the second attempt waited the provider's Retry-After"
    );
}

#[tokio::test]
async fn a_successful_stream_passes_through_unchanged() {
    let done = LlmChunk::Done {
        finish_reason: FinishReason::Stop,
        usage: Some(TokenUsage {
            prompt_tokens: 1,
            completion_tokens: 2,
            cached_tokens: 0,
        }),
    };
    let port = Scripted::new(vec![Ok(LlmChunk::Text("Hi".into())), Ok(done.clone())]);

    let chunks: Vec<_> = Resilient::new(port.clone(), fast_policy())
        .stream(request())
        .collect()
        .await;

    assert_eq!(chunks, [Ok(LlmChunk::Text("Hi".into())), Ok(done)]);
    assert_eq!(port.calls.load(Ordering::SeqCst), 1);
}
