//! Finding a model server already running on this computer, against fakes on loopback.

use crate::support::silent::silent_server;
use std::time::Duration;

use serde_json::json;
use server::llm::discover::{find_running, LocalServer};
use wiremock::{
    matchers::{method, path},
    Mock, MockServer, ResponseTemplate,
};

/// How long the servers that answer are given: generous, as they all answer at once (a hanging
/// server has a test of its own, on paused time).
const WAIT: Duration = Duration::from_secs(30);

async fn listing(models: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    let data: Vec<_> = models
        .iter()
        .map(|id| json!({"id": id, "object": "model", "owned_by": "me"}))
        .collect();
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"object": "list", "data": data})),
        )
        .mount(&server)
        .await;
    server
}

fn candidate(name: &'static str, uri: &str) -> LocalServer {
    LocalServer {
        name,
        base_url: format!("{uri}/v1"),
    }
}

/// A loopback port with nothing listening.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

#[tokio::test]
async fn the_first_server_listing_a_model_is_used_in_order_of_preference() {
    let ollama = listing(&["nomic-embed-text:latest", "llama3.2:3b", "qwen2.5:7b"]).await;
    let llama_cpp = listing(&["local-model"]).await;
    let found = find_running(
        &[
            candidate("Ollama", &ollama.uri()),
            candidate("llama.cpp server", &llama_cpp.uri()),
        ],
        WAIT,
    )
    .await
    .expect("a server answers");
    assert_eq!(found.server.name, "Ollama");
    assert_eq!(found.model, "llama3.2:3b");
    assert_eq!(found.server.base_url, format!("{}/v1", ollama.uri()));
}

#[tokio::test]
async fn servers_without_models_or_not_answering_a_model_list_are_passed_over() {
    let empty = listing(&[]).await;
    let stranger = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>my web app</html>"))
        .mount(&stranger)
        .await;
    let llama_cpp = listing(&["SmolLM2"]).await;
    let found = find_running(
        &[
            candidate("closed", &closed_port()),
            candidate("empty Ollama", &empty.uri()),
            candidate("some web app", &stranger.uri()),
            candidate("llama.cpp server", &llama_cpp.uri()),
        ],
        WAIT,
    )
    .await
    .expect("the llama.cpp server answers");
    assert_eq!(found.server.name, "llama.cpp server");
    assert_eq!(found.model, "SmolLM2");

    let nothing = find_running(
        &[
            candidate("closed", &closed_port()),
            candidate("empty", &empty.uri()),
        ],
        WAIT,
    )
    .await;
    assert_eq!(nothing, None);
}

// Paused time: this test's clock stands still while anything can run and, once every task
// waits, jumps to the next timer. The server never answers, so only a timer can end the search,
// and no answer can race the clock: the search's wait, or else the guard's, set at twice the
// wait. Nothing reads how long the search took.
#[tokio::test(start_paused = true)]
async fn a_server_that_hangs_is_given_up_on_in_time() {
    let candidates = [candidate("hanging", &silent_server().await)];
    let wait = Duration::from_millis(300);

    let search = find_running(&candidates, wait);
    let found = tokio::time::timeout(wait * 2, search)
        .await
        .expect("the hanging server is given up on when its wait runs out");

    assert_eq!(found, None);
}
