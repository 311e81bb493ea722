//! What a story costs: a provider that reports cached tokens (wiremock), each phase's tokens kept
//! with the campaign, and the home page's list and the inspector showing them at the operator's
//! prices.

use app::api::{GmContext, ListCampaigns};
use app::service::prices::{Prices, Pricing};
use app::wire::view::{CampaignPage, GmContextView};
use leptos::server_fn::ServerFn;
use serde_json::json;
use server::llm::choice::LlmChoice;
use server::llm::openai::OpenAiSettings;
use wiremock::matchers::{body_partial_json, body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::sse::{delta, sse, sse_response};
use crate::support::test_app::{self, browser, TestApp};

/// The tokens every call reports: 1,000 sent (600 of them from the provider's cache), 50 written.
fn usage() -> serde_json::Value {
    json!({"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050,
        "prompt_tokens_details": {"cached_tokens": 600}})
}

async fn provider() -> MockServer {
    let server = MockServer::start().await;
    let actions = json!({"actions": [{"id": "wait", "description": "Wait",
        "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}]});
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_string_contains("json_schema"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "c",
            "object": "chat.completion", "created": 1, "model": "m", "usage": usage(),
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": actions.to_string()}}]})))
        .with_priority(1)
        .mount(&server)
        .await;
    let mut last = delta(json!({}), Some("stop"));
    last["usage"] = usage();
    let scene = sse(&[delta(json!({"content": "Rain on the gate."}), None), last]);
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_partial_json(json!({"stream": true})))
        .respond_with(sse_response(scene))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn each_phases_tokens_are_kept_and_priced_for_the_list_and_the_inspector() {
    let fake = provider().await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_app::settings(dir.path(), "{}");
    settings.llm = LlmChoice::Endpoint(OpenAiSettings::new(format!("{}/v1", fake.uri()), "m"));
    settings.pricing = Pricing(Some(Prices {
        prompt: 1.0,
        cached: 0.5,
        completion: 4.0,
    }));
    let app = TestApp::serve(dir, settings).await;
    let client = browser();
    let body = app.start_campaign(&client, "Mira").await;
    assert!(body.contains("Rain on the gate."), "{body}");

    let page: CampaignPage = app
        .post_form(&client, ListCampaigns::PATH, &[("page", "0")])
        .await
        .json()
        .await
        .unwrap();
    let spend = &page.campaigns[0].spend;
    // The opening's narration and its actions: two calls.
    assert_eq!(
        (spend.prompt, spend.cached, spend.completion),
        (2_000, 1_200, 100)
    );
    // 800 fresh tokens at $1, 1,200 cached at $0.50 and 100 written at $4, per million.
    assert_eq!(spend.cost.as_deref(), Some("$0.0018"));

    let id = page.campaigns[0].id.to_string();
    let context: GmContextView = app
        .post_form(&client, GmContext::PATH, &[("id", id.as_str())])
        .await
        .json()
        .await
        .unwrap();
    let phases: Vec<(&str, u32, u32)> = context
        .turn_spend
        .iter()
        .map(|phase| (phase.phase.as_str(), phase.spend.prompt, phase.spend.cached))
        .collect();
    assert_eq!(phases, [("narrate", 1_000, 600), ("actions", 1_000, 600)]);
    assert_eq!(context.turn_spend[0].spend.cost.as_deref(), Some("$0.0009"));
    assert_eq!(context.spend.cost.as_deref(), Some("$0.0018"));
}
