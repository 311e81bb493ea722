//! Wire-level tests of the OpenAI-compatible adapter against a fake provider on loopback
//! (wiremock, or a raw TCP server where a reply must stall or come late). The timeout tests run
//! on paused time with their fake provider a task of the same runtime, or against a provider that
//! is slower than a timeout which must not end the call; none measures how long a call took.

use crate::support::silent::silent_server;
use std::{future::Future, time::Duration};

use crate::support::sse::{delta, sse, sse_response};
use app::gm::{
    FinishReason, JsonSchemaFormat, LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, Message,
    TokenUsage, ToolCall, ToolDefinition,
};
use futures::StreamExt;
use serde_json::{json, Value};
use server::llm::openai::{ApiKey, LlmConfigError, OpenAiAdapter, OpenAiSettings};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpListener,
};
use wiremock::{
    matchers::{header, method, path},
    Mock, MockServer, ResponseTemplate,
};

const KEY: &str = "sk-dicebound-test-KEY-0123456789";
const CHAT: &str = "/v1/chat/completions";

/// The idle timeout of the timeout tests. They run on paused time (`start_paused`) against a fake
/// provider that is a task of the same runtime: the clock stands still while anything can run
/// and, once every task waits, jumps to the next timer. No test reads how long a call took:
/// which timeout ended a call is told by the timeouts it was given (the other one out of reach)
/// and by what the call returned.
const IDLE: Duration = Duration::from_millis(300);

/// The overall timeout of the timeout tests (see [`IDLE`]).
const OVERALL: Duration = Duration::from_millis(1500);

/// A timeout no test reaches: a day (of paused time, no real day; [`within_the_hour`] ends a
/// test that would wait for it).
const NEVER: Duration = Duration::from_secs(24 * 3600);

/// Settings for the fake provider at `uri`, with the default (generous) timeouts: a reply on its
/// way is never cut short by a busy machine.
fn settings(uri: &str) -> OpenAiSettings {
    OpenAiSettings {
        api_key: Some(ApiKey::new(KEY)),
        ..OpenAiSettings::new(format!("{uri}/v1"), "test-model")
    }
}

fn adapter(uri: &str) -> OpenAiAdapter {
    OpenAiAdapter::new(settings(uri)).expect("valid settings")
}

/// The adapter for the fake provider at `uri`, with these idle and overall timeouts.
fn timed_adapter(uri: &str, idle: Duration, overall: Duration) -> OpenAiAdapter {
    OpenAiAdapter::new(OpenAiSettings {
        idle_timeout: idle,
        overall_timeout: overall,
        ..settings(uri)
    })
    .expect("valid settings")
}

/// What `work` gave, once no timer of an hour or more ended it: on paused time, a guard that
/// fails a call which only a [`NEVER`] timeout could end (it is an order of the test's own
/// timers, no real hour, and never a measure of the machine).
async fn within_the_hour<T>(work: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(3600), work)
        .await
        .expect("a timeout shorter than an hour ended the call")
}

/// A request using every feature: all four roles, a tool call and its answer, tools, a strict
/// schema, temperature and a token limit.
fn full_request() -> LlmRequest {
    LlmRequest {
        messages: vec![
            Message::system("You are the GM."),
            Message::user("I open the door."),
            Message::Assistant {
                content: None,
                tool_calls: vec![ToolCall {
                    id: "call_1".into(),
                    name: "roll_dice".into(),
                    arguments: r#"{"notation":"1d20"}"#.into(),
                }],
            },
            Message::tool("call_1", "17"),
        ],
        tools: vec![ToolDefinition {
            name: "roll_dice".into(),
            description: "Rolls dice.".into(),
            parameters: json!({"type": "object", "properties": {"notation": {"type": "string"}}}),
        }]
        .into(),
        response_format: Some(JsonSchemaFormat {
            name: "actions".into(),
            schema: json!({"type": "object", "properties": {"actions": {"type": "array"}}}),
            strict: true,
        }),
        temperature: Some(0.5),
        max_tokens: Some(256),
        ..LlmRequest::default()
    }
}

/// A non-streamed completion body with `message`.
fn completion(message: Value, finish_reason: &str) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17,
                  "prompt_tokens_details": {"cached_tokens": 8}}
    })
}

fn text_completion(text: &str) -> Value {
    completion(json!({"role": "assistant", "content": text}), "stop")
}

async fn collect_stream(
    adapter: &OpenAiAdapter,
    request: LlmRequest,
) -> Vec<Result<LlmChunk, LlmError>> {
    adapter.stream(request).collect().await
}

/// The JSON body of the only request the server received.
async fn sent_body(server: &MockServer) -> Value {
    let requests = server.received_requests().await.expect("recording is on");
    assert_eq!(requests.len(), 1);
    serde_json::from_slice(&requests[0].body).expect("a JSON body")
}

#[tokio::test]
async fn the_request_carries_model_messages_tools_strict_schema_and_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(CHAT))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(text_completion("ok")))
        .expect(1)
        .mount(&server)
        .await;

    adapter(&server.uri())
        .complete(full_request())
        .await
        .expect("a reply");

    let body = sent_body(&server).await;
    assert_eq!(body["model"], "test-model");
    let roles: Vec<_> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].clone())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
    assert_eq!(body["messages"][0]["content"], "You are the GM.");
    let call = &body["messages"][2]["tool_calls"][0];
    assert_eq!(call["id"], "call_1");
    assert_eq!(call["type"], "function");
    assert_eq!(call["function"]["name"], "roll_dice");
    assert_eq!(call["function"]["arguments"], r#"{"notation":"1d20"}"#);
    assert_eq!(body["messages"][3]["tool_call_id"], "call_1");
    assert_eq!(body["messages"][3]["content"], "17");
    let tool = &body["tools"][0];
    assert_eq!(tool["type"], "function");
    assert_eq!(tool["function"]["name"], "roll_dice");
    assert_eq!(tool["function"]["description"], "Rolls dice.");
    assert_eq!(
        tool["function"]["parameters"]["properties"]["notation"]["type"],
        "string"
    );
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["name"], "actions");
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    assert_eq!(
        body["response_format"]["json_schema"]["schema"]["type"],
        "object"
    );
    assert_eq!(body["temperature"], 0.5);
    assert_eq!(body["max_tokens"], 256);
    assert!(body.get("stream").is_none(), "{body}");
}

#[tokio::test]
async fn a_plain_request_sends_no_tools_format_or_limits_and_no_key_if_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(ResponseTemplate::new(200).set_body_json(text_completion("ok")))
        .mount(&server)
        .await;
    let settings = OpenAiSettings {
        api_key: None,
        ..settings(&server.uri())
    };
    let request = LlmRequest {
        messages: vec![Message::user("hi")],
        ..LlmRequest::default()
    };

    OpenAiAdapter::new(settings)
        .unwrap()
        .complete(request)
        .await
        .expect("a reply");

    let requests = server.received_requests().await.unwrap();
    assert!(requests[0].headers.get("authorization").is_none());
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    for absent in [
        "tools",
        "response_format",
        "temperature",
        "max_tokens",
        "max_completion_tokens",
    ] {
        assert!(body.get(absent).is_none(), "{absent} in {body}");
    }
}

#[tokio::test]
async fn a_streamed_request_asks_for_a_stream_with_usage() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(sse_response(sse(&[delta(
            json!({"content": "ok"}),
            Some("stop"),
        )])))
        .mount(&server)
        .await;

    collect_stream(&adapter(&server.uri()), full_request()).await;

    let body = sent_body(&server).await;
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
}

#[tokio::test]
async fn a_tool_call_reply_is_parsed_from_a_json_body() {
    let server = MockServer::start().await;
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "roll_dice", "arguments": "{\"notation\":\"2d6\"}"}},
            {"id": "call_b", "type": "function", "function": {"name": "apply_delta", "arguments": "{}"}}
        ]
    });
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(message, "tool_calls")))
        .mount(&server)
        .await;

    let reply = adapter(&server.uri()).complete(full_request()).await;

    assert_eq!(
        reply,
        Ok(LlmResponse {
            text: String::new(),
            tool_calls: vec![
                ToolCall {
                    id: "call_a".into(),
                    name: "roll_dice".into(),
                    arguments: r#"{"notation":"2d6"}"#.into(),
                },
                ToolCall {
                    id: "call_b".into(),
                    name: "apply_delta".into(),
                    arguments: "{}".into(),
                },
            ],
            finish_reason: FinishReason::ToolCalls,
            usage: Some(TokenUsage {
                prompt_tokens: 12,
                completion_tokens: 5,
                cached_tokens: 8,
            }),
        })
    );
}

#[tokio::test]
async fn lenient_replies_are_read_arguments_as_object_unknown_finish_reason_no_usage() {
    let server = MockServer::start().await;
    let body = json!({
        "choices": [{
            "message": {
                "role": "assistant",
                "content": "Roll!",
                "tool_calls": [{"function": {"name": "roll_dice", "arguments": {"notation": "1d4"}}}]
            },
            "finish_reason": "eos"
        }]
    });
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;

    let reply = adapter(&server.uri())
        .complete(full_request())
        .await
        .expect("a reply");

    assert_eq!(reply.text, "Roll!");
    assert_eq!(reply.finish_reason, FinishReason::Other("eos".into()));
    assert_eq!(reply.usage, None);
    assert_eq!(
        reply.tool_calls,
        [ToolCall {
            id: "call_0".into(),
            name: "roll_dice".into(),
            arguments: r#"{"notation":"1d4"}"#.into(),
        }]
    );
}

#[tokio::test]
async fn a_stream_passes_text_on_and_reassembles_split_tool_calls() {
    let server = MockServer::start().await;
    let call = |index: u32, id: Option<&str>, name: Option<&str>, arguments: &str| {
        let mut function = json!({"arguments": arguments});
        if let Some(name) = name {
            function["name"] = json!(name);
        }
        let mut call = json!({"index": index, "function": function});
        if let Some(id) = id {
            call["id"] = json!(id);
            call["type"] = json!("function");
        }
        delta(json!({"tool_calls": [call]}), None)
    };
    let body = sse(&[
        delta(json!({"role": "assistant", "content": ""}), None),
        delta(json!({"content": "The door "}), None),
        delta(json!({"content": "creaks."}), None),
        call(0, Some("call_x"), Some("roll_dice"), ""),
        call(0, None, None, "{\"nota"),
        call(1, Some("call_y"), Some("apply_delta"), "{}"),
        call(0, None, None, "tion\":\"1d20\"}"),
        delta(json!({}), Some("tool_calls")),
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
               "choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39}}),
    ]);
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(sse_response(body))
        .mount(&server)
        .await;

    let chunks = collect_stream(&adapter(&server.uri()), full_request()).await;

    assert_eq!(
        chunks,
        [
            Ok(LlmChunk::Text("The door ".into())),
            Ok(LlmChunk::Text("creaks.".into())),
            Ok(LlmChunk::ToolCall(ToolCall {
                id: "call_x".into(),
                name: "roll_dice".into(),
                arguments: r#"{"notation":"1d20"}"#.into(),
            })),
            Ok(LlmChunk::ToolCall(ToolCall {
                id: "call_y".into(),
                name: "apply_delta".into(),
                arguments: "{}".into(),
            })),
            Ok(LlmChunk::Done {
                finish_reason: FinishReason::ToolCalls,
                usage: Some(TokenUsage {
                    prompt_tokens: 30,
                    completion_tokens: 9,
                    cached_tokens: 0,
                }),
            }),
        ]
    );
}

#[tokio::test]
async fn a_stream_without_a_finish_reason_stops_at_done_and_is_cut_without_it() {
    let server = MockServer::start().await;
    let text = sse(&[delta(json!({"content": "Hi"}), None)]);
    let cut = text.trim_end_matches("data: [DONE]\n\n").to_owned();
    for body in [text, cut] {
        Mock::given(method("POST"))
            .and(path(CHAT))
            .respond_with(sse_response(body))
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(sse_response(sse(&[delta(
            json!({"role": "assistant"}),
            None,
        )])))
        .mount(&server)
        .await;
    let adapter = adapter(&server.uri());

    let with_done = collect_stream(&adapter, full_request()).await;
    let cut_mid_way = collect_stream(&adapter, full_request()).await;
    let without = collect_stream(&adapter, full_request()).await;

    assert_eq!(
        with_done,
        [
            Ok(LlmChunk::Text("Hi".into())),
            Ok(LlmChunk::Done {
                finish_reason: FinishReason::Stop,
                usage: None,
            }),
        ]
    );
    assert_eq!(
        cut_mid_way,
        [Ok(LlmChunk::Text("Hi".into())), Err(LlmError::Cut)],
        "a connection closed before its end marker is a cut reply, not a finished one"
    );
    assert!(
        matches!(without[..], [Err(LlmError::InvalidResponse(_))]),
        "{without:?}"
    );
}

#[tokio::test]
async fn http_429_is_rate_limited_with_retry_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "7")
                .set_body_string("slow down"),
        )
        .mount(&server)
        .await;
    let adapter = adapter(&server.uri());

    let limited = LlmError::RateLimited {
        retry_after: Some(Duration::from_secs(7)),
    };
    assert_eq!(adapter.complete(full_request()).await, Err(limited.clone()));
    assert_eq!(
        collect_stream(&adapter, full_request()).await,
        [Err(limited)]
    );
}

#[tokio::test]
async fn http_429_without_retry_after_has_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429))
        .mount(&server)
        .await;

    let reply = adapter(&server.uri()).complete(full_request()).await;

    assert_eq!(reply, Err(LlmError::RateLimited { retry_after: None }));
}

#[tokio::test]
async fn http_5xx_is_a_server_error_with_the_body_as_message() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503).set_body_string("model is loading"))
        .mount(&server)
        .await;
    let adapter = adapter(&server.uri());

    let expected = LlmError::Server {
        status: 503,
        message: "model is loading".into(),
    };
    assert_eq!(
        adapter.complete(full_request()).await,
        Err(expected.clone())
    );
    assert_eq!(
        collect_stream(&adapter, full_request()).await,
        [Err(expected)]
    );
}

#[tokio::test]
async fn http_4xx_is_a_bad_request_with_openais_message() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "error": {"message": "Invalid schema for response_format", "type": "invalid_request_error"}
        })))
        .mount(&server)
        .await;

    let reply = adapter(&server.uri()).complete(full_request()).await;

    assert_eq!(
        reply,
        Err(LlmError::BadRequest {
            status: 400,
            message: "Invalid schema for response_format".into(),
        })
    );
}

#[tokio::test]
async fn a_malformed_body_is_an_invalid_response() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("<html>oops</html>", "text/html"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(sse_response("data: {\"choices\": [\n\n".into()))
        .mount(&server)
        .await;
    let adapter = adapter(&server.uri());

    let complete = adapter.complete(full_request()).await;
    let streamed = collect_stream(&adapter, full_request()).await;

    assert!(
        matches!(complete, Err(LlmError::InvalidResponse(_))),
        "{complete:?}"
    );
    assert!(
        matches!(streamed[..], [Err(LlmError::InvalidResponse(_))]),
        "{streamed:?}"
    );
}

#[tokio::test]
async fn an_error_inside_a_stream_is_mapped_by_its_code() {
    let server = MockServer::start().await;
    let body = format!(
        "{}data: {}\n\n",
        sse(&[delta(json!({"content": "Once"}), None)]).trim_end_matches("data: [DONE]\n\n"),
        json!({"error": {"code": 502, "message": "upstream went away"}})
    );
    Mock::given(method("POST"))
        .respond_with(sse_response(body))
        .mount(&server)
        .await;

    let chunks = collect_stream(&adapter(&server.uri()), full_request()).await;

    assert_eq!(
        chunks,
        [
            Ok(LlmChunk::Text("Once".into())),
            Err(LlmError::Server {
                status: 502,
                message: "upstream went away".into(),
            }),
        ]
    );
}

#[tokio::test]
async fn an_unreachable_provider_is_a_connect_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let adapter = adapter(&uri);

    let complete = adapter.complete(full_request()).await;
    let streamed = collect_stream(&adapter, full_request()).await;

    assert!(
        matches!(complete, Err(LlmError::Connect(_))),
        "{complete:?}"
    );
    assert!(
        matches!(streamed[..], [Err(LlmError::Connect(_))]),
        "{streamed:?}"
    );
}

// The stream's overall timeout and the whole reply's idle timeout are out of reach, so only the
// stream's idle timeout and the whole reply's overall timeout can end them (the next test shows
// that the idle timeout does not cut a whole reply short). Nothing ever answers, so no reply can
// race the paused clock.
#[tokio::test(start_paused = true)]
async fn a_stalled_provider_times_out_within_the_timeouts() {
    let uri = silent_server().await;

    let streamed = within_the_hour(collect_stream(
        &timed_adapter(&uri, IDLE, NEVER),
        full_request(),
    ))
    .await;
    let complete =
        within_the_hour(timed_adapter(&uri, NEVER, OVERALL).complete(full_request())).await;

    assert_eq!(
        streamed,
        [Err(LlmError::Timeout)],
        "a stream gives up after one idle timeout"
    );
    assert_eq!(
        complete,
        Err(LlmError::Timeout),
        "a whole reply is given up on at the overall timeout"
    );
}

/// A provider on loopback that answers one request with the whole reply `body`, as JSON, after
/// `delay` (a task of the test's runtime).
async fn slow_provider(delay: Duration, body: Value) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0; 64 * 1024];
        let _ = socket.read(&mut request).await;
        tokio::time::sleep(delay).await;
        let body = body.to_string();
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = socket.write_all(reply.as_bytes()).await;
        let _ = socket.flush().await;
    });
    uri
}

// Real time, and nothing to measure: the provider answers four idle timeouts after the request,
// and the overall timeout is out of reach. A whole reply that the idle timeout cut short would
// fail here; one that is waited for passes however slow the machine is.
#[tokio::test]
async fn a_whole_reply_slower_than_the_idle_timeout_is_waited_for() {
    let idle = Duration::from_millis(50);
    let reply = json!({
        "choices": [{"message": {"role": "assistant", "content": "At last."}, "finish_reason": "stop"}]
    });
    let uri = slow_provider(idle * 4, reply).await;

    let complete = timed_adapter(&uri, idle, NEVER)
        .complete(full_request())
        .await
        .expect("the whole reply arrives");

    assert_eq!(complete.text, "At last.");
}

/// A provider on loopback that answers one request with SSE `events`, each sent after its delay,
/// then holds the connection open for `hold` (a task of the test's runtime: on paused time, its
/// delays pass on the test's clock).
async fn trickling_provider(events: Vec<(Duration, String)>, hold: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = vec![0; 64 * 1024];
        let _ = socket.read(&mut request).await;
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
        socket.write_all(head.as_bytes()).await.unwrap();
        for (delay, event) in events {
            tokio::time::sleep(delay).await;
            if socket
                .write_all(format!("data: {event}\n\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
        tokio::time::sleep(hold).await;
    });
    uri
}

// The overall timeout is out of reach and the provider holds the connection open for as long:
// only the idle timeout can end the stream after its first piece.
#[tokio::test(start_paused = true)]
async fn a_stream_that_stalls_half_way_times_out_by_the_idle_timeout() {
    let first = delta(json!({"content": "The"}), None).to_string();
    let uri = trickling_provider(vec![(Duration::ZERO, first)], NEVER).await;

    let adapter = timed_adapter(&uri, IDLE, NEVER);
    let chunks = within_the_hour(collect_stream(&adapter, full_request())).await;

    assert_eq!(
        chunks,
        [Ok(LlmChunk::Text("The".into())), Err(LlmError::Timeout)]
    );
}

// A piece every third of an idle timeout: the stream never goes idle, yet it is cut while the
// provider still has pieces to send, which only the overall timeout does. More pieces arrive
// than fit in one idle timeout, so each piece started the idle timeout again.
#[tokio::test(start_paused = true)]
async fn a_stream_that_trickles_forever_times_out_by_the_overall_timeout() {
    let piece = delta(json!({"content": "."}), None).to_string();
    let sent = 100;
    let events = vec![(IDLE / 3, piece); sent];
    let uri = trickling_provider(events, Duration::ZERO).await;

    let adapter = timed_adapter(&uri, IDLE, OVERALL);
    let chunks = within_the_hour(collect_stream(&adapter, full_request())).await;

    assert_eq!(chunks.last(), Some(&Err(LlmError::Timeout)));
    assert!(
        chunks.len() > 5,
        "more pieces than one idle timeout holds: {chunks:?}"
    );
    assert!(
        chunks.len() <= sent,
        "cut before the provider was done: {chunks:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_stream_that_goes_quiet_after_its_finish_reason_ends_normally() {
    let events = vec![(
        Duration::ZERO,
        delta(json!({"content": "Done."}), Some("stop")).to_string(),
    )];
    let uri = trickling_provider(events, NEVER).await;

    let adapter = timed_adapter(&uri, IDLE, OVERALL);
    let chunks = within_the_hour(collect_stream(&adapter, full_request())).await;

    assert_eq!(
        chunks,
        [
            Ok(LlmChunk::Text("Done.".into())),
            Ok(LlmChunk::Done {
                finish_reason: FinishReason::Stop,
                usage: None,
            }),
        ]
    );
}

#[tokio::test]
async fn the_api_key_never_shows_in_errors_or_settings() {
    let server = MockServer::start().await;
    let echo = format!("rejected header Authorization: Bearer {KEY}");
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error": {"message": echo}})))
        .up_to_n_times(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(502).set_body_string(format!("{echo} {}", "x".repeat(2000))),
        )
        .up_to_n_times(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(sse_response(format!("data: {{\"error\": \"{echo}\"}}\n\n")))
        .mount(&server)
        .await;
    let adapter = adapter(&server.uri());

    let mut errors = Vec::new();
    for _ in 0..2 {
        errors.push(adapter.complete(full_request()).await.unwrap_err());
        errors.extend(
            collect_stream(&adapter, full_request())
                .await
                .into_iter()
                .filter_map(Result::err),
        );
    }
    errors.extend(
        collect_stream(&adapter, full_request())
            .await
            .into_iter()
            .filter_map(Result::err),
    );

    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(
        errors.iter().any(|e| e.to_string().contains("[redacted]")),
        "{errors:?}"
    );
    for error in &errors {
        assert!(!error.to_string().contains(KEY), "{error}");
        assert!(!format!("{error:?}").contains(KEY), "{error:?}");
    }
    assert!(!format!("{:?}", adapter.settings()).contains(KEY));
    assert!(!format!("{adapter:?}").contains(KEY));
    assert_eq!(format!("{:?}", ApiKey::new(KEY)), "[redacted]");
}

#[test]
fn settings_come_from_the_environment_with_defaults_and_a_key_fallback() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    };

    let defaults = OpenAiSettings::from_lookup(env(&[("DICEBOUND_LLM_MODEL", "")])).unwrap();
    assert_eq!(
        defaults,
        OpenAiSettings::new(
            OpenAiSettings::DEFAULT_BASE_URL,
            OpenAiSettings::DEFAULT_MODEL
        )
    );

    let full = OpenAiSettings::from_lookup(env(&[
        ("DICEBOUND_LLM_BASE_URL", "http://127.0.0.1:11434/v1"),
        ("DICEBOUND_LLM_API_KEY", "sk-dicebound"),
        ("OPENAI_API_KEY", "sk-openai"),
        ("DICEBOUND_LLM_MODEL", "qwen2.5:7b"),
        ("DICEBOUND_LLM_TIMEOUT_SECS", "5"),
        ("DICEBOUND_LLM_TOTAL_TIMEOUT_SECS", "2.5"),
        ("DICEBOUND_LLM_MAX_TOKENS", "800"),
    ]))
    .unwrap();
    assert_eq!(
        full,
        OpenAiSettings {
            base_url: "http://127.0.0.1:11434/v1".into(),
            api_key: Some(ApiKey::new("sk-dicebound")),
            model: "qwen2.5:7b".into(),
            idle_timeout: Duration::from_secs(5),
            overall_timeout: Duration::from_millis(2500),
            max_tokens: Some(800),
            frequency_penalty: None,
        }
    );

    let fallback = OpenAiSettings::from_lookup(env(&[("OPENAI_API_KEY", "sk-openai")])).unwrap();
    assert_eq!(fallback.api_key, Some(ApiKey::new("sk-openai")));

    let invalid = OpenAiSettings::from_lookup(env(&[("DICEBOUND_LLM_TIMEOUT_SECS", "soon")]));
    assert!(
        matches!(
            invalid,
            Err(LlmConfigError::Invalid {
                name: "DICEBOUND_LLM_TIMEOUT_SECS",
                ..
            })
        ),
        "{invalid:?}"
    );
}

#[test]
fn unusable_urls_and_keys_are_refused_without_echoing_the_key() {
    let bad_url = OpenAiAdapter::new(OpenAiSettings::new("localhost:8080", "m"));
    assert!(
        matches!(bad_url, Err(LlmConfigError::BaseUrl(_))),
        "{bad_url:?}"
    );

    let bad_key = OpenAiAdapter::new(OpenAiSettings {
        api_key: Some(ApiKey::new("sk-line\nbreak")),
        ..OpenAiSettings::new("http://127.0.0.1:1/v1", "m")
    });
    let error = bad_key.unwrap_err();
    assert!(matches!(error, LlmConfigError::ApiKey));
    assert!(!error.to_string().contains("sk-line"));
}

#[tokio::test]
async fn tools_the_model_may_not_call_are_still_listed_with_tool_choice_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(CHAT))
        .respond_with(ResponseTemplate::new(200).set_body_json(text_completion("ok")))
        .mount(&server)
        .await;
    let request = LlmRequest {
        tool_choice: app::gm::ToolChoice::None,
        ..full_request()
    };
    adapter(&server.uri())
        .complete(request)
        .await
        .expect("a reply");
    let requests = server.received_requests().await.unwrap();
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(body["tool_choice"], json!("none"), "{body}");
    assert_eq!(body["tools"][0]["function"]["name"], json!("roll_dice"));
    assert_eq!(body["messages"].as_array().map(Vec::len), Some(4));
}
