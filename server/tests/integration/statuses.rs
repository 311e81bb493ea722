//! Each kind of a server function's error leaves the running server with its own HTTP status
//! (the body still the error the page reads): a campaign not found 404, a title too long 422, an
//! old turn 409, a move past the rate limit 429 with `Retry-After`, a campaign another instance
//! is playing 409, the model failing 502, the settings of a server others reach without the admin
//! token 403; and a request the server cannot read 400, saying it was malformed.

use std::net::SocketAddr;

use app::api::{
    AskTheGm, LoadCampaign, ModelSettings, PlayTurn, RenameCampaign, StartCampaign, UndoTurn,
};
use app::service::operator::AdminToken;
use app::service::LimitSettings;
use app::wire::errors::AppError;
use app::wire::view::{CampaignSummary, TurnUpdate, MAX_TITLE_CHARS};
use app::wire::CampaignId;
use leptos::server_fn::ServerFn;
use rand::{rngs::StdRng, SeedableRng};
use secrecy::SecretString;
use server::llm::bounds::Spend;
use server::security::identity::CookieSecret;
use server::security::keys::CookieSecrets;
use server::startup::Application;
use server::store::{Backend, SqlStore};

use crate::support::databases;
use crate::support::test_app::{self, browser, updates, TestApp};

/// A scene each call, actions each scene, and a question's answer that the provider refuses.
const SCENARIO: &str = r#"{"cycle": true,
  "steps": [{"text": "A gate in the rain."}],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}],
  "answers": [{"error": "bad_request"}]}"#;

/// The error an answer carries, and its status.
async fn refused(response: reqwest::Response) -> (u16, AppError) {
    let status = response.status().as_u16();
    let body = response.text().await.unwrap();
    let error = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not an error: {body}"));
    (status, error)
}

/// A campaign started by `client` on the server at `addr`.
async fn start(client: &reqwest::Client, addr: SocketAddr) -> CampaignSummary {
    let form =
        serde_json::json!({"form": {"premise": "A gate", "name": "Mira", "class": "Ranger"}});
    let response = client
        .post(format!("http://{addr}{}", StartCampaign::PATH))
        .json(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    match updates(&response.text().await.unwrap()).pop() {
        Some(TurnUpdate::Created { summary }) => summary,
        other => panic!("ends with the campaign: {other:?}"),
    }
}

/// Plays "I wait" at `turn` of campaign `id`: the answer.
async fn play(
    client: &reqwest::Client,
    app: &TestApp,
    id: &CampaignId,
    turn: u32,
) -> reqwest::Response {
    client
        .post(app.url(PlayTurn::PATH))
        .json(&serde_json::json!({"id": id, "turn": turn, "input": {"kind": "text", "text": "I wait"}}))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_campaign_that_does_not_exist_is_a_404() {
    let app = TestApp::playing(SCENARIO).await;
    let nowhere = CampaignId::random(&mut StdRng::seed_from_u64(45));

    let response = app
        .post_form(&browser(), LoadCampaign::PATH, &[("id", nowhere.as_str())])
        .await;

    assert_eq!(refused(response).await, (404, AppError::NotFound));
}

#[tokio::test]
async fn a_title_too_long_is_a_422() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();
    let campaign = start(&client, app.addr).await;
    let long = "x".repeat(MAX_TITLE_CHARS + 1);

    let response = app
        .post_form(
            &client,
            RenameCampaign::PATH,
            &[("id", campaign.id.as_str()), ("title", &long)],
        )
        .await;

    let (status, error) = refused(response).await;
    assert_eq!(status, 422, "{error:?}");
    assert!(
        matches!(&error, AppError::Invalid { field, .. } if field == "title"),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_old_turn_is_a_409() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();
    let campaign = start(&client, app.addr).await;
    play(&client, &app, &campaign.id, 1)
        .await
        .text()
        .await
        .unwrap();

    let response = app
        .post_form(
            &client,
            UndoTurn::PATH,
            &[("id", campaign.id.as_str()), ("turn", "1")],
        )
        .await;

    assert_eq!(
        refused(response).await,
        (409, AppError::Stale { current: 2 })
    );
}

#[tokio::test]
async fn a_move_past_the_rate_limit_is_a_429_saying_when_to_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_app::settings(dir.path(), SCENARIO);
    settings.spend = Spend {
        limits: LimitSettings::per_player(1.try_into().unwrap(), 20.try_into().unwrap(), 200),
        ..Spend::default()
    };
    let app = TestApp::serve(dir, settings).await;
    let client = browser();
    let campaign = start(&client, app.addr).await;
    let first = play(&client, &app, &campaign.id, 1).await;
    assert_eq!(first.status(), 200);
    first.text().await.unwrap();

    let response = play(&client, &app, &campaign.id, 2).await;

    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let (status, error) = refused(response).await;
    assert_eq!(status, 429, "{error:?}");
    assert_eq!(
        error,
        AppError::Limited {
            retry_after_secs: retry_after
        },
        "the header says what the page reads"
    );
    assert!((1..=60).contains(&retry_after), "{retry_after}");
}

/// The cookie secret of a server on PostgreSQL.
fn secret() -> CookieSecrets {
    CookieSecrets {
        current: Some(CookieSecret::new(SecretString::from("s".repeat(64))).unwrap()),
        ..CookieSecrets::default()
    }
}

#[tokio::test]
async fn a_campaign_another_instance_is_playing_is_a_409() {
    let database = databases::fresh(Backend::Postgres).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_app::settings(dir.path(), SCENARIO);
    settings.database_url = database.url.clone().into();
    let server = Application::build_with_secrets(settings, &secret())
        .await
        .expect("the server starts");
    let addr = server.local_addr();
    tokio::spawn(server.run_until_stopped(std::future::pending()));
    let client = browser();
    let campaign = start(&client, addr).await;
    // Another instance on the same database holds the campaign's lease, as while it plays a turn.
    let other = SqlStore::open(&database.url).await.unwrap();
    let _playing = other.turns_in_flight().take(&campaign.id).await.unwrap();

    let response = client
        .post(format!("http://{addr}{}", UndoTurn::PATH))
        .form(&[("id", campaign.id.as_str()), ("turn", "1")])
        .send()
        .await
        .unwrap();

    assert_eq!(refused(response).await, (409, AppError::Busy));
}

#[tokio::test]
async fn a_model_that_fails_is_a_502() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();
    let campaign = start(&client, app.addr).await;

    let response = app
        .post_form(
            &client,
            AskTheGm::PATH,
            &[
                ("id", campaign.id.as_str()),
                ("question", "How high is the gate?"),
            ],
        )
        .await;

    let (status, error) = refused(response).await;
    assert_eq!(status, 502, "{error:?}");
    assert!(
        matches!(error, AppError::GameMasterUnavailable { .. }),
        "{error:?}"
    );
}

#[tokio::test]
async fn settings_read_without_the_admin_token_are_a_403() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_app::settings(dir.path(), SCENARIO);
    settings.leptos.site_addr = SocketAddr::from(([0, 0, 0, 0], 0));
    settings.admin_token = AdminToken::new("a-long-enough-admin-token");
    let app = TestApp::serve(dir, settings).await;
    let local = SocketAddr::from(([127, 0, 0, 1], app.addr.port()));

    let response = browser()
        .post(format!("http://{local}{}", ModelSettings::PATH))
        .send()
        .await
        .unwrap();

    let (status, error) = refused(response).await;
    assert_eq!(status, 403, "{error:?}");
    assert!(matches!(error, AppError::NotAllowed { .. }), "{error:?}");
}

/// Whether `error` is the server's word that it could not read the request.
fn is_malformed(error: &AppError) -> bool {
    matches!(error, AppError::Transport { message }
        if message.starts_with("The request was malformed: ")
            && message.ends_with("; reload the page and try again."))
}

#[tokio::test]
async fn a_request_the_server_cannot_read_is_a_400_saying_it_was_malformed() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();

    let broken = client
        .post(app.url(StartCampaign::PATH))
        .header("content-type", "application/json")
        .body(r#"{"form": {"premise": "A gate", "#)
        .send()
        .await
        .unwrap();
    let (status, error) = refused(broken).await;
    assert_eq!(status, 400, "{error:?}");
    assert!(is_malformed(&error), "{error:?}");

    let missing = app.post_form(&client, LoadCampaign::PATH, &[]).await;
    let (status, error) = refused(missing).await;
    assert_eq!(status, 400, "{error:?}");
    assert!(is_malformed(&error), "{error:?}");
    assert_eq!(
        app.post_form(&client, StartCampaign::PATH, &[])
            .await
            .status(),
        400,
        "a form where JSON is expected"
    );
}
