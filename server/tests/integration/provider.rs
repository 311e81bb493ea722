//! Choosing the game master when no endpoint is configured: a model server already running on
//! this computer wins over the bundled model; with neither, the error says how to install it.

use std::time::Duration;

use app::gm::GmSettings;
use serde_json::json;
use server::llm::bundled::BundledSettings;
use server::llm::choice::LlmChoice;
use server::llm::discover::LocalServer;
use server::llm::provider::Provider;
use wiremock::{
    matchers::{method, path},
    Mock, MockServer, ResponseTemplate,
};

#[tokio::test]
async fn a_running_local_server_is_used_before_the_bundled_model() {
    let ollama = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"data": [{"id": "llama3.2"}]})),
        )
        .mount(&ollama)
        .await;
    // No bundled install at all: it must not be needed.
    let empty = tempfile::tempdir().unwrap();
    let choice = LlmChoice::Local {
        probe: vec![LocalServer {
            name: "Ollama",
            base_url: format!("{}/v1", ollama.uri()),
        }],
        bundled: BundledSettings::in_dir(empty.path()),
    };
    let provider = Provider::start(&choice, None)
        .await
        .expect("the running server is used");
    assert!(provider.bundled.is_none());
    assert_eq!(provider.master.model, "llama3.2");
    assert_eq!(provider.master.source, "Ollama on this computer");
    assert_eq!(provider.master.advice, None);
    assert_eq!(provider.gm, GmSettings::local_server());
    let info = provider.llm.model_info();
    assert_eq!(info.model, "llama3.2");
    assert!(
        info.endpoint.starts_with(&ollama.uri()),
        "{}",
        info.endpoint
    );
}

#[tokio::test]
async fn with_nothing_running_and_nothing_installed_the_error_says_what_to_do() {
    let empty = tempfile::tempdir().unwrap();
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!(
            "http://127.0.0.1:{}/v1",
            listener.local_addr().unwrap().port()
        )
    };
    let choice = LlmChoice::Local {
        probe: vec![LocalServer {
            name: "Ollama",
            base_url: closed,
        }],
        bundled: BundledSettings {
            startup_timeout: Duration::from_secs(1),
            ..BundledSettings::in_dir(empty.path())
        },
    };
    let error = match Provider::start(&choice, None).await {
        Ok(_) => panic!("nothing can tell the story"),
        Err(error) => error.to_string(),
    };
    assert!(error.contains("not installed"), "{error}");
    assert!(error.contains("make setup"), "{error}");
    assert!(error.contains("DICEBOUND_LLM_BASE_URL"), "{error}");
}
