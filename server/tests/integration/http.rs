//! The running server at the wire: pages, the player cookie, the server functions of a whole
//! turn, ownership, the cross-site and host guards, body limits and the rate limits of each
//! player and each client address (behind a trusted proxy, the forwarded one).

use app::api::{ListCampaigns, LoadCampaign, PlayTurn, StartCampaign};
use app::service::LimitSettings;
use app::wire::errors::AppError;
use app::wire::view::{CampaignPage, CampaignSummary, CampaignView, StoryEntry, TurnUpdate};
use leptos::server_fn::ServerFn;
use server::config::Settings;
use server::error_status::status_of;
use server::llm::bounds::Spend;
use server::startup::Application;

use crate::support::logs::Captured;
use crate::support::test_app::{self, browser, TestApp};

const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"text": "A gate in the rain."},
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d20+3", "reason": "Falling rocks"}}]},
    {"text": "The guard's blow goes wide."}
  ],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

async fn spawn_app() -> TestApp {
    spawn_app_with(Spend::default()).await
}

/// The app on a random port within these spending bounds (`example.test` is a public host).
async fn spawn_app_with(spend: Spend) -> TestApp {
    spawn_app_playing(SCENARIO, spend).await
}

/// The app on a random port, its model playing `scenario`.
async fn spawn_app_playing(scenario: &str, spend: Spend) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let settings = settings_playing(dir.path(), scenario, spend);
    TestApp::serve(dir, settings).await
}

/// The app on a random port behind `proxies` (`DICEBOUND_TRUSTED_PROXIES`).
async fn spawn_app_trusting(proxies: &str, spend: Spend) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path(), spend);
    settings.trusted_proxies = proxies.parse().unwrap();
    TestApp::serve(dir, settings).await
}

/// The settings of a test app keeping its files in `dir`.
fn settings(dir: &std::path::Path, spend: Spend) -> Settings {
    settings_playing(dir, SCENARIO, spend)
}

/// The settings of a test app keeping its files in `dir`, its model playing `scenario`.
fn settings_playing(dir: &std::path::Path, scenario: &str, spend: Spend) -> Settings {
    let mut settings = test_app::settings(dir, scenario);
    settings.spend = spend;
    settings.public_hosts = vec!["example.test".to_owned()];
    settings
}

/// The campaign a streamed start answered with, after its opening scene streamed.
fn created(body: &str) -> CampaignSummary {
    let updates: Vec<TurnUpdate> = body
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(
        updates
            .iter()
            .any(|update| matches!(update, TurnUpdate::Narrative { .. })),
        "the opening streams: {body}"
    );
    match updates.last() {
        Some(TurnUpdate::Created { summary }) => summary.clone(),
        other => panic!("ends with the campaign: {other:?}"),
    }
}

/// A browser whose every request says, in `X-Forwarded-For`, that it was forwarded for `hops`.
fn browser_forwarded_for(hops: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-forwarded-for", hops.parse().unwrap());
    reqwest::Client::builder()
        .cookie_store(true)
        .default_headers(headers)
        .build()
        .unwrap()
}

impl TestApp {
    /// Starts a campaign as `client`: the server's answer.
    async fn start(&self, client: &reqwest::Client) -> reqwest::Response {
        client
            .post(self.url(StartCampaign::PATH))
            .json(&serde_json::json!({"form": {"premise": "A gate", "name": "Mira", "class": "Ranger"}}))
            .send()
            .await
            .unwrap()
    }

    /// Starts a campaign as `client`: the campaign, loaded.
    async fn create(&self, client: &reqwest::Client) -> CampaignView {
        let response = self.start(client).await;
        assert_eq!(response.status(), 200);
        let created = created(&response.text().await.unwrap());
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
async fn pages_and_answers_go_out_compressed_but_streamed_turns_do_not() {
    let app = spawn_app().await;
    let client = browser();
    let plain = client.get(app.url("/")).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.text().await.unwrap();

    let zipped = client
        .get(app.url("/"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    let bytes = zipped.bytes().await.unwrap();
    assert!(
        bytes.len() * 2 < plain.len(),
        "{} of {}",
        bytes.len(),
        plain.len()
    );
    let mut html = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut html)
        .unwrap();
    assert!(html.contains("Begin the adventure"), "{html}");

    let streamed = client
        .post(app.url(StartCampaign::PATH))
        .header("accept-encoding", "gzip, br")
        .json(
            &serde_json::json!({"form": {"premise": "A gate", "name": "Mira", "class": "Ranger"}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.status(), 200);
    assert!(
        streamed.headers().get("content-encoding").is_none(),
        "a streamed answer goes out as it is written"
    );
    assert!(created(&streamed.text().await.unwrap()).turn >= 1);
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

    let listed: CampaignPage = client
        .post(app.url(ListCampaigns::PATH))
        .form(&[("page", "0")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed.campaigns.len(), 1);
    assert_eq!(listed.campaigns[0].turn, 2);
    assert!(!listed.more);
}

// One thread: the server's tasks run where this test's subscriber is the default.
#[tokio::test(flavor = "current_thread")]
async fn a_turns_log_lines_carry_its_request_and_its_phase() {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_span_list(true)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(captured.clone())
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);
    let app = spawn_app().await;
    let client = browser();
    client.get(app.url("/")).send().await.unwrap();
    let created = app.create(&client).await;
    // Another test's server may have first met the request's span while no subscriber of this
    // thread existed, and tracing caches that answer per callsite: ask again now that this
    // test's subscriber is in place (once seen here, a test of this file failed without it).
    tracing::callsite::rebuild_interest_cache();
    let played = client
        .post(app.url(PlayTurn::PATH))
        .json(&serde_json::json!({"id": created.summary.id, "turn": 1, "input": {"kind": "text", "text": "I wait"}}))
        .send()
        .await
        .unwrap();
    let cookie = played.headers().get("set-cookie").cloned();
    played.text().await.unwrap();

    let logs = String::from_utf8(captured.bytes()).unwrap();
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // The line of the saved move: within the narration phase of its campaign, within the
    // request that played it.
    let narrated = lines
        .iter()
        .find(|line| line["fields"]["message"] == "the move is narrated and saved")
        .unwrap_or_else(|| panic!("no saved move in\n{logs}"));
    assert_eq!(narrated["fields"]["turn"], 2);
    assert_eq!(narrated["span"]["name"], "phase");
    assert_eq!(narrated["span"]["phase"], "narrate");
    assert_eq!(narrated["span"]["campaign"], created.summary.id.to_string());
    let request = narrated["spans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|span| span["name"] == "request")
        .unwrap_or_else(|| panic!("no request span around {narrated} in\n{logs}"));
    assert_eq!(request["path"], PlayTurn::PATH);
    assert_eq!(request["method"], "POST");
    assert_eq!(request["id"].as_str().unwrap().len(), 12);
    let player = request["player"].as_str().unwrap();
    assert_eq!(player.chars().count(), 8, "a short player id: {player}");
    assert!(
        cookie.is_none(),
        "the player kept the cookie of the home page"
    );
    assert!(!logs.contains("dicebound_player="), "no cookie in the logs");
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

    assert_eq!(response.status(), 404);
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

fn limits(turns_per_minute: u32, campaigns_per_hour: u32, campaigns_per_player: u32) -> Spend {
    Spend {
        limits: LimitSettings::per_player(
            turns_per_minute.try_into().unwrap(),
            campaigns_per_hour.try_into().unwrap(),
            campaigns_per_player,
        ),
        ..Spend::default()
    }
}

/// A generous allowance for each player; for each client address, `turns` model requests a
/// minute and `campaigns` new campaigns an hour.
fn address_limits(turns: u32, campaigns: u32) -> Spend {
    let mut spend = limits(60, 60, 200);
    spend.limits.turns_per_minute_per_address = turns.try_into().unwrap();
    spend.limits.campaigns_per_hour_per_address = campaigns.try_into().unwrap();
    spend
}

/// The campaigns `client` keeps.
async fn campaigns_of(app: &TestApp, client: &reqwest::Client) -> usize {
    let listed: CampaignPage = client
        .post(app.url(ListCampaigns::PATH))
        .form(&[("page", "0")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    listed.campaigns.len()
}

/// The error a server function answered with, sent with its kind's HTTP status.
async fn refusal(response: reqwest::Response) -> AppError {
    let status = response.status().as_u16();
    let error: AppError = response.json().await.unwrap();
    assert_eq!(status, status_of(&error).as_u16(), "refused: {error:?}");
    error
}

#[tokio::test]
async fn moves_past_the_rate_limit_are_refused_clearly_and_change_nothing() {
    let app = spawn_app_with(limits(1, 20, 200)).await;
    let client = browser();
    let created = app.create(&client).await;
    let play = |turn: u32| {
        client
            .post(app.url(PlayTurn::PATH))
            .json(&serde_json::json!({"id": created.summary.id, "turn": turn, "input": {"kind": "text", "text": "I wait"}}))
            .send()
    };

    play(1).await.unwrap().text().await.unwrap();
    let refused = refusal(play(2).await.unwrap()).await;

    let AppError::Limited { retry_after_secs } = &refused else {
        panic!("{refused:?}");
    };
    assert!((1..=60).contains(retry_after_secs), "{refused:?}");
    assert!(refused.to_string().contains("try again in"), "{refused}");
    let after: CampaignView = app
        .load(&client, created.summary.id.as_str())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        after.summary.turn, 2,
        "the campaign is as the last move left it"
    );
    let other = browser();
    app.create(&other).await;
}

#[tokio::test]
async fn new_campaigns_are_bounded_per_hour_and_per_player() {
    let app = spawn_app_with(limits(60, 2, 200)).await;
    let client = browser();
    app.create(&client).await;
    app.create(&client).await;
    let refused = refusal(app.start(&client).await).await;
    assert!(matches!(refused, AppError::Limited { .. }), "{refused:?}");

    let app = spawn_app_with(limits(60, 20, 1)).await;
    app.create(&client).await;
    let refused = refusal(app.start(&client).await).await;
    assert!(
        matches!(&refused, AppError::Invalid { field, .. } if field == "campaigns"),
        "{refused:?}"
    );
    assert!(refused.to_string().contains("delete one"), "{refused}");
}

#[tokio::test]
async fn a_client_that_drops_its_cookie_still_spends_its_addresss_moves() {
    let app = spawn_app_with(address_limits(2, 60)).await;
    let play = |client: &reqwest::Client, campaign: &CampaignView| {
        client
            .post(app.url(PlayTurn::PATH))
            .json(&serde_json::json!({"id": campaign.summary.id, "turn": 1, "input": {"kind": "text", "text": "I wait"}}))
            .send()
    };
    // Each time a new player: a browser without the cookie the last one was given.
    for _ in 0..2 {
        let client = browser();
        let campaign = app.create(&client).await;
        let answer = play(&client, &campaign).await.unwrap();
        assert_eq!(answer.status(), 200);
        answer.text().await.unwrap();
    }
    let client = browser();
    let campaign = app.create(&client).await;
    let refused = refusal(play(&client, &campaign).await.unwrap()).await;

    assert!(matches!(refused, AppError::Limited { .. }), "{refused:?}");
    let after: CampaignView = app
        .load(&client, campaign.summary.id.as_str())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(after.summary.turn, 1, "the refused move changed nothing");
}

#[tokio::test]
async fn a_client_that_drops_its_cookie_still_spends_its_addresss_new_campaigns() {
    let app = spawn_app_with(address_limits(60, 2)).await;
    app.create(&browser()).await;
    app.create(&browser()).await;
    let client = browser();
    let refused = refusal(app.start(&client).await).await;

    assert!(matches!(refused, AppError::Limited { .. }), "{refused:?}");
    assert_eq!(campaigns_of(&app, &client).await, 0, "nothing was saved");
}

#[tokio::test]
async fn a_forwarded_address_is_ignored_without_a_trusted_proxy() {
    let app = spawn_app_with(address_limits(60, 1)).await;
    app.create(&browser_forwarded_for("203.0.113.1")).await;
    let spoofing = browser_forwarded_for("203.0.113.2");
    let refused = refusal(app.start(&spoofing).await).await;
    assert!(matches!(refused, AppError::Limited { .. }), "{refused:?}");
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    // The test's requests come from loopback, as from a proxy on the same machine.
    let app = spawn_app_trusting("127.0.0.1", address_limits(60, 1)).await;
    app.create(&browser_forwarded_for("203.0.113.1")).await;
    app.create(&browser_forwarded_for("203.0.113.2")).await;
    app.create(&browser_forwarded_for("2001:db8:0:1::1")).await;
    // A client that names itself another address in front of the one the proxy saw, and another
    // address of the same IPv6 /64, are the clients already counted.
    for same in ["198.51.100.9, 203.0.113.1", "2001:db8:0:1::2"] {
        let refused = refusal(app.start(&browser_forwarded_for(same)).await).await;
        assert!(
            matches!(refused, AppError::Limited { .. }),
            "{same}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn a_request_for_a_foreign_host_name_is_refused() {
    let app = spawn_app().await;
    let port = app.addr.port();
    let get = |host: String| {
        reqwest::Client::new()
            .get(app.url("/"))
            .header("host", host)
            .send()
    };

    let rebound = get(format!("attacker.example:{port}")).await.unwrap();
    assert_eq!(rebound.status(), 421);
    assert_eq!(rebound.headers()["x-content-type-options"], "nosniff");
    for served in [format!("localhost:{port}"), "example.test".to_owned()] {
        assert_eq!(get(served.clone()).await.unwrap().status(), 200, "{served}");
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_with_a_clear_error() {
    let app = spawn_app().await;
    let client = browser();
    let premise = "a".repeat(100 * 1024);

    let response = client
        .post(app.url(StartCampaign::PATH))
        .json(&serde_json::json!({"form": {"premise": premise, "name": "Mira", "class": "Ranger"}}))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), 413);
    let error: AppError = response.json().await.unwrap();
    assert!(
        error
            .to_string()
            .contains("larger than this server accepts"),
        "{error}"
    );
}

#[tokio::test]
async fn a_long_campaign_file_imports_and_one_past_the_limit_is_refused_naming_it() {
    use app::api::{ExportCampaign, ImportCampaign};
    let app = spawn_app().await;
    let client = browser();
    let id = app.create(&client).await.summary.id;
    let export = client
        .post(app.url(ExportCampaign::PATH))
        .form(&[("id", id.to_string())])
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);
    let file: String = export.json().await.unwrap();
    let import = |file: String| {
        client
            .post(app.url(ImportCampaign::PATH))
            .json(&serde_json::json!({ "file": file }))
            .send()
    };
    // Past axum's own 2 MiB default: measured before, such a file was cut and the page read
    // "an answer this page cannot read".
    let long = format!("{file}{}", " ".repeat(3 * 1024 * 1024));
    let imported = import(long).await.unwrap();
    assert_eq!(imported.status(), 200, "{}", imported.text().await.unwrap());
    let copy: CampaignSummary = imported.json().await.unwrap();
    assert_ne!(copy.id, id);

    let huge = format!("{file}{}", " ".repeat(33 * 1024 * 1024));
    let refused = import(huge).await.unwrap();
    assert_eq!(refused.status(), 413);
    let error: AppError = refused.json().await.unwrap();
    assert!(
        error
            .to_string()
            .contains("larger than this server imports (32 MiB)"),
        "{error}"
    );
}

#[tokio::test]
async fn a_database_moved_without_its_key_file_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_owned();
    let app = TestApp::serve(dir, settings(&folder, Spend::default())).await;
    app.create(&browser()).await;
    let key_file = folder.join("game.cookie-key");
    let kept = std::fs::read(&key_file).unwrap();

    std::fs::remove_file(&key_file).unwrap();
    let refused = Application::build(settings(&folder, Spend::default())).await;

    let Err(error) = refused else {
        panic!("a start with another key is refused");
    };
    let message = error.to_string();
    for advice in [
        key_file.display().to_string(),
        "DICEBOUND_ACCEPT_NEW_COOKIE_KEY".to_owned(),
    ] {
        assert!(message.contains(&advice), "{message}");
    }
    std::fs::write(&key_file, kept).unwrap();
    assert!(
        Application::build(settings(&folder, Spend::default()))
            .await
            .is_ok(),
        "the key put back, the server starts"
    );
}

/// The play page is rendered, so the test runs on the server's stack.
#[test]
fn markup_the_model_writes_reaches_the_page_as_text() {
    test_app::on_server_stack(markup_reaches_the_page_as_text());
}

async fn markup_reaches_the_page_as_text() {
    let scenario = r#"{"cycle": true, "steps": [
        {"text": "<script>alert(1)</script>\n\n**Rain** <img src=x onerror=alert(2)> [run](javascript:alert(3))"}],
      "actions": [{"json": {"actions": [
        {"id": "flee", "description": "<b onmouseover=alert(4)>Flee</b> the crypt"}]}}]}"#;
    let app = spawn_app_playing(scenario, Spend::default()).await;
    let client = browser();
    let created = app.create(&client).await;

    let page = client
        .get(app.url(&format!("/play/{}", created.summary.id)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();

    assert!(page.contains("<strong>Rain</strong>"), "Markdown renders");
    for raw in [
        "<script>alert",
        "<img src=x",
        "href=\"javascript",
        "<b onmouseover",
    ] {
        assert!(!page.contains(raw), "{raw} in the page");
    }
    assert!(
        page.contains("&lt;b onmouseover=alert(4)&gt;Flee&lt;/b&gt; the crypt"),
        "the label as text"
    );
}

// One thread, so that the server's connections run on this test's clock, which is paused once
// the server is up: it stands still while anything can run and, once every task waits, jumps to
// the next timer. The slow client never finishes its headers, so only a timer can end its
// connection, and no answer races the clock: the connection is still open halfway through the
// server's header-read timeout and closed by the server within one more. Nothing reads how long
// it took.
#[tokio::test(flavor = "current_thread")]
async fn a_client_too_slow_or_too_large_with_its_headers_is_cut_off() {
    use server::serve::HEADER_READ_TIMEOUT;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    tokio::time::pause();

    let mut slow = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let mut first = [0; 1];
    let halfway = tokio::time::timeout(HEADER_READ_TIMEOUT / 2, slow.read(&mut first)).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(HEADER_READ_TIMEOUT, slow.read_to_end(&mut answer)).await;
    tokio::time::resume();
    assert!(
        halfway.is_err(),
        "still open halfway through the header-read timeout of {HEADER_READ_TIMEOUT:?}: {halfway:?}"
    );
    assert!(
        read.is_ok(),
        "the connection is closed by the server at its header-read timeout of {HEADER_READ_TIMEOUT:?}"
    );
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));

    let huge = "a".repeat(server::serve::MAX_HEADER_BYTES * 2);
    let response = reqwest::Client::new()
        .get(app.url("/"))
        .header("x-padding", huge)
        .send()
        .await;
    match response {
        Ok(response) => assert_eq!(response.status(), 431),
        Err(error) => assert!(!error.is_timeout(), "{error}"),
    }
}

#[tokio::test]
async fn built_assets_are_sent_precompressed_to_browsers_that_accept_it() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("dicebound.js"), "console.log('dicebound');").unwrap();
    // What the build wrote beside it (the bytes are the server's to pass on, not to read).
    std::fs::write(pkg.join("dicebound.js.gz"), b"\x1f\x8b precompressed").unwrap();
    std::fs::write(pkg.join("dicebound.js.br"), b"brotli precompressed").unwrap();
    let settings = settings(dir.path(), Spend::default());
    let app = TestApp::serve(dir, settings).await;
    let url = app.url("/pkg/dicebound.js");

    let gzipped = reqwest::Client::new()
        .get(&url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    let plain = reqwest::Client::new().get(&url).send().await.unwrap();
    let brotli = reqwest::Client::new()
        .get(&url)
        .header("accept-encoding", "gzip, deflate, br")
        .send()
        .await
        .unwrap();
    assert_eq!(brotli.headers()["content-encoding"], "br");
    assert_eq!(&brotli.bytes().await.unwrap()[..], b"brotli precompressed");

    assert_eq!(gzipped.status(), 200);
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    assert!(gzipped.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
    assert!(
        !gzipped.headers().contains_key("cache-control"),
        "assets are cacheable"
    );
    assert_eq!(
        &gzipped.bytes().await.unwrap()[..],
        b"\x1f\x8b precompressed"
    );
    assert!(!plain.headers().contains_key("content-encoding"));
    assert_eq!(plain.text().await.unwrap(), "console.log('dicebound');");

    // A release build's name carries the content's hash: browsers may keep it for a year,
    // but for the main JS module, rewritten after its name was hashed (asked for again).
    std::fs::write(pkg.join("dicebound.8smBAXeDwtzEEsvhZmpSHQ.wasm"), "wasm").unwrap();
    std::fs::write(
        pkg.join("dicebound.8smBAXeDwtzEEsvhZmpSHQ.js"),
        "console.log(1);",
    )
    .unwrap();
    let hashed = reqwest::get(app.url("/pkg/dicebound.8smBAXeDwtzEEsvhZmpSHQ.wasm"))
        .await
        .unwrap();
    assert_eq!(hashed.status(), 200);
    assert_eq!(
        hashed.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let module = reqwest::get(app.url("/pkg/dicebound.8smBAXeDwtzEEsvhZmpSHQ.js"))
        .await
        .unwrap();
    assert_eq!(module.status(), 200);
    assert_eq!(module.headers()["cache-control"], "no-cache");
}
