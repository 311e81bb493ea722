//! The settings page's server functions against a fake OpenAI-compatible endpoint (wiremock):
//! its models listed, a bad key refused, a bad URL and an unlisted model refused, a test call,
//! the game master switched without a restart and kept across one; the key never in an answer,
//! a page or a log line; and on a server others can reach, nothing without the admin token.

use std::net::SocketAddr;

use app::api::{EndpointModels, ModelSettings, SaveModelSettings, StartCampaign, TestConnection};
use app::service::operator::AdminToken;
use app::wire::errors::AppError;
use app::wire::model_settings::{ConnectionReport, ModelSettingsView};
use leptos::server_fn::ServerFn;
use serde_json::{json, Value};
use server::config::Settings;
use server::startup::Application;
use wiremock::matchers::{body_partial_json, body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::logs::Captured;
use crate::support::sse::{delta, sse, sse_response};
use crate::support::test_app::{self, browser};

/// The fake endpoint's key: it must never come back out of the server.
const KEY: &str = "sk-good-SECRET-7f3a9c";

const SCENARIO: &str = r#"{"steps": [{"text": "The first model's gate."}],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

/// A fake OpenAI-compatible endpoint that wants [`KEY`]: two models, a one-word answer, scenes
/// streamed, action lists whole.
async fn endpoint() -> MockServer {
    let server = MockServer::start().await;
    let bearer = format!("Bearer {KEY}");
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .and(header("authorization", bearer.as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"object": "list", "data": [{"id": "m-beta"}, {"id": "m-alpha"}]}),
        ))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(401).set_body_json(
            json!({"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}}),
        ))
        .mount(&server)
        .await;
    let completion = |content: &str| {
        ResponseTemplate::new(200).set_body_json(json!({"id": "c", "object": "chat.completion",
            "created": 1, "model": "m-alpha", "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": content}}]}))
    };
    let actions = json!({"actions": [{"id": "lantern", "description": "Raise the lantern",
        "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}]});
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", bearer.as_str()))
        .and(body_string_contains("json_schema"))
        .respond_with(completion(&actions.to_string()))
        .with_priority(1)
        .mount(&server)
        .await;
    let scene = sse(&[
        delta(
            json!({"content": "The second model tells of a lantern in the fog."}),
            None,
        ),
        delta(json!({}), Some("stop")),
    ]);
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", bearer.as_str()))
        .and(body_partial_json(json!({"stream": true})))
        .respond_with(sse_response(scene))
        .with_priority(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", bearer.as_str()))
        .respond_with(completion("ready"))
        .with_priority(3)
        .mount(&server)
        .await;
    server
}

/// Serves `settings`; its address.
async fn serve(settings: Settings) -> SocketAddr {
    let app = Application::build(settings)
        .await
        .expect("the server starts");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    addr
}

/// The settings form for `endpoint`'s `model` with `key`.
fn form(endpoint: &str, model: &str, key: &str) -> Value {
    json!({"endpoint": endpoint, "model": model, "api_key": key, "forget_key": false,
        "tools": "native", "context_tokens": 16000})
}

/// Posts `form` with the admin `token` to the server function at `fn_path`; the status and
/// the body.
async fn call(
    client: &reqwest::Client,
    addr: SocketAddr,
    fn_path: &str,
    token: Option<&str>,
    form: Value,
) -> (u16, String) {
    let response = client
        .post(format!("http://{addr}{fn_path}"))
        .json(&json!({"admin_token": token, "form": form}))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// The settings in effect, read with `token`.
async fn read(client: &reqwest::Client, addr: SocketAddr, token: Option<&str>) -> (u16, String) {
    let mut fields = Vec::new();
    if let Some(token) = token {
        fields.push(("admin_token", token));
    }
    let response = client
        .post(format!("http://{addr}{}", ModelSettings::PATH))
        .form(&fields)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

fn refusal(body: &str) -> AppError {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not an error: {body}"))
}

fn invalid_field(body: &str) -> String {
    match refusal(body) {
        AppError::Invalid { field, reason } => format!("{field}: {reason}"),
        other => panic!("not invalid: {other:?}"),
    }
}

#[tokio::test]
async fn the_settings_page_lists_tests_and_refuses_what_it_cannot_use() {
    let fake = endpoint().await;
    let base = format!("{}/v1", fake.uri());
    let dir = tempfile::tempdir().unwrap();
    let addr = serve(test_app::settings(dir.path(), SCENARIO)).await;
    let client = browser();

    let (status, before) = read(&client, addr, None).await;
    assert_eq!(status, 200, "{before}");
    let before: ModelSettingsView = serde_json::from_str(&before).unwrap();
    assert!(!before.saved && !before.key_set);
    assert_eq!(before.in_use.source, "a scripted scenario, not a model");

    // A bad key, a bad URL, an unlisted model: each refused clearly.
    let (_, body) = call(
        &client,
        addr,
        EndpointModels::PATH,
        None,
        form(&base, "", "sk-wrong"),
    )
    .await;
    assert_eq!(
        invalid_field(&body),
        "api_key: the endpoint refused the API key (HTTP 401)"
    );
    let (_, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        None,
        form("not a url", "m-alpha", KEY),
    )
    .await;
    assert!(
        invalid_field(&body).starts_with("endpoint: must be an http"),
        "{body}"
    );
    let (_, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        None,
        form(&base, "gpt-9", KEY),
    )
    .await;
    assert_eq!(
        invalid_field(&body),
        "model: the endpoint does not list \"gpt-9\"; it lists m-alpha, m-beta"
    );
    let (status, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        None,
        form(&base, "m-alpha", &"k".repeat(10_000)),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        invalid_field(&body),
        "api_key: is longer than 500 characters"
    );

    // Listed and tested.
    let (status, body) = call(
        &client,
        addr,
        EndpointModels::PATH,
        None,
        form(&base, "", KEY),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Vec<String>>(&body).unwrap(),
        ["m-alpha", "m-beta"]
    );
    let (status, body) = call(
        &client,
        addr,
        TestConnection::PATH,
        None,
        form(&base, "m-alpha", KEY),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let report: ConnectionReport = serde_json::from_str(&body).unwrap();
    assert_eq!(report.reply, "ready");
    assert!(!body.contains(KEY));
}

// One thread: the server's tasks run where this test's subscriber is the default.
#[tokio::test(flavor = "current_thread")]
async fn the_settings_page_switches_the_game_master_without_a_restart() {
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt().with_writer(logs.clone()).finish();
    let _default = tracing::subscriber::set_default(subscriber);
    let fake = endpoint().await;
    let base = format!("{}/v1", fake.uri());
    let dir = tempfile::tempdir().unwrap();
    let settings = test_app::settings(dir.path(), SCENARIO);
    let addr = serve(settings.clone()).await;
    let client = browser();
    let mut answers = Vec::new();
    let (status, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        None,
        form(&base, "m-alpha", KEY),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let saved: ModelSettingsView = serde_json::from_str(&body).unwrap();
    assert!(saved.saved && saved.key_set);
    assert_eq!(saved.in_use.model, "m-alpha");
    assert_eq!(saved.context_tokens, 16_000);
    answers.push(body);

    // The next campaign is told by the endpoint, not the scripted model.
    let started = client
        .post(format!("http://{addr}{}", StartCampaign::PATH))
        .json(&json!({"form": {"premise": "A fog", "name": "Mira", "class": "Ranger"}}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(started.contains("lantern in the fog"), "{started}");
    assert!(!started.contains("first model"), "{started}");
    answers.push(started);

    // Kept across a restart (a second server on the same database).
    let again = serve(settings).await;
    let (_, body) = read(&client, again, None).await;
    let kept: ModelSettingsView = serde_json::from_str(&body).unwrap();
    assert!(kept.saved && kept.key_set);
    assert_eq!(
        (kept.endpoint.as_str(), kept.in_use.model.as_str()),
        (base.as_str(), "m-alpha")
    );
    answers.push(body);

    for page in ["/", "/settings"] {
        answers.push(
            client
                .get(format!("http://{addr}{page}"))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap(),
        );
    }
    for answer in &answers {
        assert!(!answer.contains(KEY), "the key in an answer: {answer}");
    }
    let logged = String::from_utf8(logs.bytes()).unwrap();
    assert!(
        logged.contains("the game master's model settings changed"),
        "{logged}"
    );
    assert!(!logged.contains(KEY), "the key in the log: {logged}");
}

#[tokio::test]
async fn a_server_others_can_reach_takes_its_settings_only_with_the_admin_token() {
    let token = "a-long-enough-admin-token";
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_app::settings(dir.path(), SCENARIO);
    settings.leptos.site_addr = SocketAddr::from(([0, 0, 0, 0], 0));
    settings.admin_token = AdminToken::new(token);
    let addr = serve(settings).await;
    let addr = SocketAddr::from(([127, 0, 0, 1], addr.port()));
    let client = browser();
    let fake = endpoint().await;
    let base = format!("{}/v1", fake.uri());

    let (status, body) = read(&client, addr, None).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        matches!(refusal(&body), AppError::NotAllowed { .. }),
        "{body}"
    );
    let (_, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        None,
        form(&base, "m-alpha", KEY),
    )
    .await;
    assert!(
        matches!(refusal(&body), AppError::NotAllowed { .. }),
        "{body}"
    );
    let (_, body) = call(
        &client,
        addr,
        SaveModelSettings::PATH,
        Some("not-the-admin-token"),
        form(&base, "m-alpha", KEY),
    )
    .await;
    assert_eq!(
        refusal(&body),
        AppError::NotAllowed {
            reason: "That admin token is not this server's.".into()
        }
    );
    // Nothing was saved or asked of the endpoint.
    assert!(fake.received_requests().await.unwrap().is_empty());
    let (status, body) = read(&client, addr, Some(token)).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        !serde_json::from_str::<ModelSettingsView>(&body)
            .unwrap()
            .saved
    );

    // Wrong tokens make the next attempts wait, the right one included.
    for _ in 0..3 {
        read(&client, addr, Some("guess-guess-guess")).await;
    }
    let (_, body) = read(&client, addr, Some(token)).await;
    assert!(matches!(refusal(&body), AppError::Limited { .. }), "{body}");

    // Without a token configured, only the environment sets the model.
    let closed_dir = tempfile::tempdir().unwrap();
    let mut closed = test_app::settings(closed_dir.path(), SCENARIO);
    closed.public_hosts = vec!["dice.example.org".to_owned()];
    let closed = serve(closed).await;
    let (_, body) = read(&client, closed, Some(token)).await;
    match refusal(&body) {
        AppError::NotAllowed { reason } => {
            assert!(reason.contains("DICEBOUND_ADMIN_TOKEN"), "{reason}")
        }
        other => panic!("allowed: {other:?}"),
    }
}
