//! The running server at the wire: pages, the player cookie, the server functions of a whole
//! turn, ownership and the cross-site guard.

use std::net::SocketAddr;

use app::api::{CreateCampaign, ListCampaigns, LoadCampaign, PlayTurn};
use app::campaign::view::{CampaignSummary, CampaignView, StoryEntry, TurnUpdate};
use app::errors::AppError;
use leptos::{prelude::LeptosOptions, server_fn::ServerFn};
use server::config::{LlmChoice, PromptLimits, Settings};
use server::startup::Application;

const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"text": "A gate in the rain."},
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d20+3", "reason": "Guard attack"}}]},
    {"text": "The guard's blow goes wide."}
  ],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

struct TestApp {
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

async fn spawn_app() -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenario.json");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let leptos = LeptosOptions::builder()
        .output_name("dicebound")
        .site_addr(SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    let settings = Settings {
        leptos,
        database_url: format!("sqlite://{}", dir.path().join("game.db").display()),
        llm: LlmChoice::Scripted(scenario),
        tools: None,
        prompt: PromptLimits::default(),
        secure_cookies: false,
    };
    let app = Application::build(settings)
        .await
        .expect("the server starts");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    TestApp { addr, _dir: dir }
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap()
}

impl TestApp {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn create(&self, client: &reqwest::Client) -> CampaignView {
        let response = client
            .post(self.url(CreateCampaign::PATH))
            .json(&serde_json::json!({"form": {"premise": "A gate", "name": "Mira", "class": "Ranger"}}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let created: CampaignSummary = response.json().await.unwrap();
        let loaded = self.load(client, created.id.as_str()).await;
        assert_eq!(loaded.status(), 200);
        loaded.json().await.unwrap()
    }

    async fn load(&self, client: &reqwest::Client, id: &str) -> reqwest::Response {
        client
            .post(self.url(LoadCampaign::PATH))
            .form(&[("id", id)])
            .send()
            .await
            .unwrap()
    }
}

#[tokio::test]
async fn the_home_page_is_server_rendered_and_sets_the_player_cookie() {
    let app = spawn_app().await;

    let response = reqwest::get(app.url("/")).await.unwrap();

    assert_eq!(response.status(), 200);
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("cache-control", "no-store"),
    ] {
        assert_eq!(response.headers()[name], value, "{name}");
    }
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cookie.starts_with("dicebound_player="), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let html = response.text().await.unwrap();
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("the policy names a nonce");
    assert!(
        policy.contains("default-src 'self'") && policy.contains("object-src 'none'"),
        "{policy}"
    );
    assert!(
        html.contains(&format!("nonce=\"{nonce}\"")),
        "the hydration script carries the policy's nonce"
    );
    assert!(
        html.contains("<h1 class=\"title\">Dicebound</h1>"),
        "{html}"
    );
    assert!(html.contains("Begin the adventure"), "{html}");
    assert!(
        html.contains("/pkg/dicebound.js"),
        "hydration script missing: {html}"
    );
}

#[tokio::test]
async fn a_whole_turn_over_the_server_functions() {
    let app = spawn_app().await;
    let client = browser();
    client.get(app.url("/")).send().await.unwrap();

    let created = app.create(&client).await;
    assert_eq!(created.summary.turn, 1);
    assert_eq!(created.actions.len(), 1);

    let response = client
        .post(app.url(PlayTurn::PATH))
        .json(&serde_json::json!({"id": created.summary.id, "turn": 1, "input": {"kind": "text", "text": "I wait"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["cache-control"],
        "no-store",
        "a turn's answer is never cached"
    );
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    let body = response.text().await.unwrap();
    let updates: Vec<TurnUpdate> = body
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(updates
        .iter()
        .any(|u| matches!(u, TurnUpdate::Narrative { .. })));
    let Some(TurnUpdate::Done { turn, .. }) = updates.last() else {
        panic!("ends with done: {body}")
    };
    assert_eq!(*turn, 2);
    assert!(
        updates.iter().any(|u| matches!(
            u,
            TurnUpdate::Entry {
                index: 1,
                entry: StoryEntry::Move { .. }
            }
        )),
        "the move follows the opening scene: {body}"
    );
    assert!(
        !body.contains("A gate in the rain"),
        "the earlier story is not sent again: {body}"
    );

    let listed: Vec<CampaignSummary> = client
        .post(app.url(ListCampaigns::PATH))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].turn, 2);
}

#[tokio::test]
async fn a_stale_turn_is_refused_with_a_clear_message() {
    let app = spawn_app().await;
    let client = browser();
    let created = app.create(&client).await;
    let play = || {
        client
            .post(app.url(PlayTurn::PATH))
            .json(&serde_json::json!({"id": created.summary.id, "turn": 1, "input": {"kind": "text", "text": "I wait"}}))
            .send()
    };

    play().await.unwrap().text().await.unwrap();
    let second = play().await.unwrap().text().await.unwrap();

    let last: TurnUpdate = serde_json::from_str(second.lines().last().unwrap()).unwrap();
    assert!(
        matches!(
            &last,
            TurnUpdate::Error {
                error: AppError::Stale { current: 2 }
            }
        ),
        "{last:?}"
    );
}

#[tokio::test]
async fn another_player_gets_not_found() {
    let app = spawn_app().await;
    let created = app.create(&browser()).await;

    let response = app.load(&browser(), created.summary.id.as_str()).await;

    assert_eq!(response.status(), 500);
    let error: AppError = response.json().await.unwrap();
    assert_eq!(error, AppError::NotFound);
}

#[tokio::test]
async fn a_cross_site_write_is_refused() {
    let app = spawn_app().await;

    let response = browser()
        .post(app.url(ListCampaigns::PATH))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn an_unknown_page_is_a_404() {
    let app = spawn_app().await;
    let response = reqwest::get(app.url("/no-such-page")).await.unwrap();
    assert_eq!(response.status(), 404);
}
