//! Many instances on one PostgreSQL database: two app processes' worth of servers (each its own
//! pool, leases and rate limits) serve the same player's campaign from two browsers, turn after
//! turn, one turn at a time, and an old move is refused on either. A shared database without a
//! shared cookie secret is refused at start.

use std::net::SocketAddr;

use app::api::{LoadCampaign, PlayTurn, StartCampaign};
use app::wire::errors::AppError;
use app::wire::view::{CampaignView, StoryEntry, TurnUpdate};
use leptos::server_fn::ServerFn;
use secrecy::SecretString;
use server::config::Settings;
use server::security::identity::CookieSecret;
use server::security::keys::{CookieSecrets, KeyError};
use server::startup::{Application, StartupError};
use server::store::Backend;

use crate::support::{databases, test_app};

/// A model that takes 300 ms before each reply, so that two moves sent at once overlap.
const SCENARIO: &str = r#"{"cycle": true, "latency_ms": 300,
  "steps": [{"text": "A bridge in the fog."}],
  "actions": [{"json": {"actions": [{"id": "cross", "description": "Cross the bridge"}]}}]}"#;

/// The secret every instance derives the cookie key from.
fn shared_secret() -> CookieSecrets {
    CookieSecrets {
        current: Some(CookieSecret::new(SecretString::from("s".repeat(64))).unwrap()),
        ..CookieSecrets::default()
    }
}

fn settings(dir: &std::path::Path, database_url: &str) -> Settings {
    let mut settings = test_app::settings(dir, SCENARIO);
    settings.database_url = database_url.to_owned().into();
    settings
}

/// An instance serving `database_url` on a random port; its address.
pub(crate) async fn instance(dir: &std::path::Path, database_url: &str) -> SocketAddr {
    let app = Application::build_with_secrets(settings(dir, database_url), &shared_secret())
        .await
        .expect("the instance starts");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    addr
}

/// `path` on the instance at `addr`.
pub(crate) fn url(addr: SocketAddr, path: &str) -> String {
    format!("http://{addr}{path}")
}

/// The updates of a streamed answer.
async fn updates(response: reqwest::Response) -> Vec<TurnUpdate> {
    assert_eq!(response.status(), 200);
    test_app::updates(&response.text().await.unwrap())
}

/// Plays a move at `turn` on campaign `id` through the instance at `addr`; its updates.
pub(crate) async fn play(
    client: &reqwest::Client,
    addr: SocketAddr,
    id: &str,
    turn: u32,
) -> Vec<TurnUpdate> {
    let move_ = serde_json::json!({"id": id, "turn": turn, "input": {"kind": "text", "text": "I cross the bridge"}});
    updates(
        client
            .post(url(addr, PlayTurn::PATH))
            .json(&move_)
            .send()
            .await
            .unwrap(),
    )
    .await
}

async fn load(client: &reqwest::Client, addr: SocketAddr, id: &str) -> CampaignView {
    let response = client
        .post(url(addr, LoadCampaign::PATH))
        .form(&[("id", id)])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{id} loads");
    response.json().await.unwrap()
}

/// The same player in two browsers: the second carries the first one's cookie.
pub(crate) async fn two_browsers(first_page: SocketAddr) -> (reqwest::Client, reqwest::Client) {
    let first = test_app::browser();
    let page = first.get(url(first_page, "/")).send().await.unwrap();
    let cookie = page.headers()["set-cookie"].to_str().unwrap();
    let (pair, _) = cookie.split_once(';').unwrap();
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::COOKIE, pair.parse().unwrap());
    let second = reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .unwrap();
    (first, second)
}

fn done_turn(updates: &[TurnUpdate]) -> Option<u32> {
    match updates.last() {
        Some(TurnUpdate::Done { turn, .. }) => Some(*turn),
        _ => None,
    }
}

/// Of two moves sent at once, the one not played ends with why: busy, or stale.
fn assert_the_other_is_told_why(from_a: &[TurnUpdate], from_b: &[TurnUpdate]) {
    let refused = [from_a, from_b]
        .into_iter()
        .find(|updates| done_turn(updates).is_none())
        .and_then(|updates| updates.last())
        .unwrap();
    assert!(
        matches!(
            refused,
            TurnUpdate::Error {
                error: AppError::Busy | AppError::Stale { .. }
            }
        ),
        "the other is told why: {refused:?}"
    );
}

/// Starts a campaign through the instance at `addr`; its id.
pub(crate) async fn start(client: &reqwest::Client, addr: SocketAddr) -> String {
    let form =
        serde_json::json!({"form": {"premise": "A bridge", "name": "Mira", "class": "Ranger"}});
    let started = updates(
        client
            .post(url(addr, StartCampaign::PATH))
            .json(&form)
            .send()
            .await
            .unwrap(),
    )
    .await;
    let Some(TurnUpdate::Created { summary }) = started.last() else {
        panic!("the campaign starts: {started:?}")
    };
    summary.id.as_str().to_owned()
}

#[tokio::test]
async fn two_instances_on_one_postgres_database_play_the_same_campaign() {
    let database = databases::fresh(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = instance(dir_a.path(), &database.url).await;
    let b = instance(dir_b.path(), &database.url).await;
    let (on_a, on_b) = two_browsers(a).await;

    let id = start(&on_a, a).await;
    assert_eq!(
        load(&on_b, b, &id).await.summary.turn,
        1,
        "B sees A's campaign"
    );

    assert_eq!(
        done_turn(&play(&on_b, b, &id, 1).await),
        Some(2),
        "a turn on B"
    );
    assert_eq!(load(&on_a, a, &id).await.summary.turn, 2, "A sees B's turn");
    assert_eq!(
        done_turn(&play(&on_a, a, &id, 2).await),
        Some(3),
        "the next on A"
    );

    let (from_a, from_b) = tokio::join!(play(&on_a, a, &id, 3), play(&on_b, b, &id, 3));
    let outcomes = [done_turn(&from_a), done_turn(&from_b)];
    assert_eq!(
        outcomes.iter().flatten().collect::<Vec<_>>(),
        [&4],
        "one of two moves sent at once to two instances is played: {from_a:?} {from_b:?}"
    );
    assert_the_other_is_told_why(&from_a, &from_b);

    let old_move = play(&on_a, a, &id, 3).await;
    assert!(
        matches!(
            old_move.last(),
            Some(TurnUpdate::Error {
                error: AppError::Stale { current: 4 }
            })
        ),
        "{old_move:?}"
    );
    let view = load(&on_b, b, &id).await;
    assert_eq!(view.summary.turn, 4);
    let player_moves = view
        .story
        .entries
        .iter()
        .filter(|entry| matches!(entry, StoryEntry::Move { .. }))
        .count();
    assert_eq!(
        player_moves, 3,
        "three moves saved, none twice: {:?}",
        view.story
    );
}

#[tokio::test]
async fn a_shared_database_without_a_shared_cookie_secret_is_refused() {
    let database = databases::fresh(Backend::Postgres).await;
    let dir = tempfile::tempdir().unwrap();

    let refused = Application::build(settings(dir.path(), &database.url)).await;

    let Err(StartupError::CookieKey(error @ KeyError::Shared)) = refused else {
        panic!("a start without DICEBOUND_COOKIE_SECRET is refused")
    };
    assert!(
        error.to_string().contains("DICEBOUND_COOKIE_SECRET"),
        "{error}"
    );
}
