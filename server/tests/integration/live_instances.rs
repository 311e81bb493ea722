//! The live stream across instances on one PostgreSQL database (`server/src/live_relay.rs`): a
//! second screen following a campaign through instance B gets the turn played through instance
//! A, under the same numbers as a follower on A, and a browser that reconnects through the other
//! instance gets what it missed; an instance whose listening connection is cut listens again and
//! misses nothing; an update far over `NOTIFY`'s 8,000 bytes crosses whole; a table with its host
//! on one instance and a friend on the other sees one round stream to both seats. (On SQLite the
//! hub stays in the process: `live.rs`.)

use std::net::SocketAddr;
use std::time::Duration;

use app::wire::view::TurnUpdate;
use app::wire::CampaignId;
use eventsource_stream::{Event, Eventsource};
use futures::{Stream, StreamExt};
use server::live_relay::relayed_hub;
use server::store::Backend;
use sqlx::{Connection, PgConnection};

use crate::instances::{instance, play, start, two_browsers, url};
use crate::support::databases;

/// The events of `GET /api/live/{id}` on the instance at `addr`, after `last` if given.
async fn follow(
    client: &reqwest::Client,
    addr: SocketAddr,
    id: &str,
    last: Option<u64>,
) -> impl Stream<Item = Event> + Unpin {
    let mut request = client.get(url(addr, &format!("/api/live/{id}")));
    if let Some(last) = last {
        request = request.header("last-event-id", last.to_string());
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "the owner follows through {addr}");
    Box::pin(
        response
            .bytes_stream()
            .eventsource()
            .filter_map(|event| async move { event.ok() }),
    )
}

/// The next `count` events, each within a minute (a guard against hanging, not a measure).
async fn next(events: &mut (impl Stream<Item = Event> + Unpin), count: usize) -> Vec<Event> {
    let mut got = Vec::new();
    while got.len() < count {
        let event = tokio::time::timeout(Duration::from_secs(60), events.next())
            .await
            .expect("an event in time")
            .expect("the stream stays open");
        got.push(event);
    }
    got
}

fn numbers(events: &[Event]) -> Vec<u64> {
    events
        .iter()
        .map(|event| event.id.parse().unwrap())
        .collect()
}

#[tokio::test]
async fn a_follower_on_one_instance_gets_the_turn_played_through_another() {
    let database = databases::fresh(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = instance(dir_a.path(), &database.url).await;
    let b = instance(dir_b.path(), &database.url).await;
    let (on_a, on_b) = two_browsers(a).await;
    let id = start(&on_a, a).await;
    let mut on_b_events = follow(&on_b, b, &id, None).await;
    let mut on_a_events = follow(&on_a, a, &id, None).await;

    let played = play(&on_a, a, &id, 1).await;
    assert!(
        matches!(played.last(), Some(TurnUpdate::Done { turn: 2, .. })),
        "{played:?}"
    );
    let from_b = next(&mut on_b_events, played.len()).await;
    let followed: Vec<TurnUpdate> = from_b
        .iter()
        .map(|event| serde_json::from_str(&event.data).unwrap())
        .collect();
    assert_eq!(followed, played, "B's follower gets A's turn, in order");
    let kinds: Vec<&str> = from_b.iter().map(|event| event.event.as_str()).collect();
    assert!(kinds.contains(&"narrative"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"done"));
    let numbered = numbers(&from_b);
    assert_eq!(
        numbered,
        (1..=played.len() as u64).collect::<Vec<_>>(),
        "numbered by the database, one after another"
    );
    let from_a = next(&mut on_a_events, played.len()).await;
    assert_eq!(
        numbers(&from_a),
        numbered,
        "the same numbers on either instance"
    );

    // B's follower loses its connection after the third update and comes back through A.
    let mut again = follow(&on_b, a, &id, Some(3)).await;
    let missed = next(&mut again, played.len() - 3).await;
    assert_eq!(numbers(&missed), numbered[3..]);
    assert_eq!(
        missed.last().map(|event| event.event.as_str()),
        Some("done")
    );
}

/// Cuts every instance's listening connection to the database at `url`; how many were cut.
async fn cut_listeners(url: &str) -> usize {
    let mut admin = PgConnection::connect(url).await.unwrap();
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query = 'LISTEN \"dicebound_live\"'",
    )
    .fetch_all(&mut admin)
    .await
    .unwrap();
    cut.into_iter().filter(|cut| *cut).count()
}

#[tokio::test]
async fn a_follower_misses_nothing_while_its_instance_listens_again() {
    let database = databases::fresh(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = instance(dir_a.path(), &database.url).await;
    let b = instance(dir_b.path(), &database.url).await;
    let (on_a, on_b) = two_browsers(a).await;
    let id = start(&on_a, a).await;
    let mut on_b_events = follow(&on_b, b, &id, None).await;
    let first = play(&on_a, a, &id, 1).await;
    let first_numbers = numbers(&next(&mut on_b_events, first.len()).await);

    assert_eq!(
        cut_listeners(&database.url).await,
        2,
        "both instances listened"
    );
    // Played at once: its first updates are notified while B is not listening.
    let second = play(&on_a, a, &id, 2).await;
    assert!(
        matches!(second.last(), Some(TurnUpdate::Done { turn: 3, .. })),
        "{second:?}"
    );
    let from_b = next(&mut on_b_events, second.len()).await;
    let followed: Vec<TurnUpdate> = from_b
        .iter()
        .map(|event| serde_json::from_str(&event.data).unwrap())
        .collect();
    assert_eq!(followed, second, "every update of the turn, in order, once");
    let after = first_numbers.last().unwrap() + 1;
    assert_eq!(
        numbers(&from_b),
        (after..after + second.len() as u64).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn an_update_bigger_than_a_notification_crosses_whole_and_an_unknown_campaigns_none() {
    let database = databases::fresh(Backend::Postgres).await;
    let dir = tempfile::tempdir().unwrap();
    let a = instance(dir.path(), &database.url).await;
    let (on_a, _) = two_browsers(a).await;
    let id: CampaignId = start(&on_a, a).await.parse().unwrap();
    let (here, there) = (
        relayed_hub(&database.url).await.unwrap(),
        relayed_hub(&database.url).await.unwrap(),
    );
    let mut followed_there = there.subscribe(&id, None);
    let mut followed_here = here.subscribe(&id, None);

    // Written before the long one, refused: the writer goes on.
    let unknown: CampaignId = "0".repeat(32).parse().unwrap();
    here.publish(
        &unknown,
        &TurnUpdate::Narrative {
            text: "lost".to_owned(),
        },
    );
    let long = TurnUpdate::Narrative {
        text: "A long scene. ".repeat(2_000),
    };
    assert!(serde_json::to_string(&long).unwrap().len() > 20_000);
    here.publish(&id, &long);
    for followed in [&mut followed_there, &mut followed_here] {
        let event = tokio::time::timeout(Duration::from_secs(60), followed.receiver.recv())
            .await
            .expect("an event in time")
            .unwrap();
        assert_eq!(event.update, long);
        assert_eq!(event.id, 1, "the campaign's first live update");
    }
    let mut admin = PgConnection::connect(&database.url).await.unwrap();
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM live_sequences WHERE campaign_id = $1")
            .bind(unknown.as_str())
            .fetch_one(&mut admin)
            .await
            .unwrap();
    assert_eq!(stored, 0, "nothing kept for a campaign not stored");
}

/// A friend's browser: its own cookie, taken from a first page of the instance at `addr`.
async fn friends_browser(addr: SocketAddr) -> reqwest::Client {
    let browser = crate::support::test_app::browser();
    browser.get(url(addr, "/")).send().await.unwrap();
    browser
}

/// Plays `input` as the caller's move of the round at `turn`; the last update.
async fn move_at(
    client: &reqwest::Client,
    addr: SocketAddr,
    id: &str,
    turn: u32,
    text: &str,
) -> TurnUpdate {
    use app::api::PlayTurn;
    use leptos::server_fn::ServerFn;
    let body = serde_json::json!({"id": id, "turn": turn, "input": {"kind": "text", "text": text}});
    let response = client
        .post(url(addr, PlayTurn::PATH))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    crate::support::test_app::updates(&text)
        .pop()
        .expect("a last update")
}

#[tokio::test]
async fn a_seat_on_each_instance_sees_the_same_story_stream() {
    use app::api::{InviteFriend, JoinTable};
    use app::wire::view::InvitationView;
    use leptos::server_fn::ServerFn;

    let database = databases::fresh(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = instance(dir_a.path(), &database.url).await;
    let b = instance(dir_b.path(), &database.url).await;
    let (host, _) = two_browsers(a).await;
    let id = start(&host, a).await;
    // The host invites on A; the friend joins on B with a hero of their own.
    let invitation: InvitationView = host
        .post(url(a, InviteFriend::PATH))
        .form(&[("id", id.as_str())])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let code = invitation.path.trim_start_matches("/join/");
    let friend = friends_browser(b).await;
    let join = serde_json::json!({"code": code, "character": {"name": "Bran", "class": "Fighter"}});
    let joined = friend
        .post(url(b, JoinTable::PATH))
        .json(&join)
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200, "{:?}", joined.text().await);
    // A stranger on either instance is refused the stream.
    let stranger = friends_browser(a).await;
    let refused = stranger
        .get(url(a, &format!("/api/live/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 404);

    let mut on_a = follow(&host, a, &id, None).await;
    let mut on_b = follow(&friend, b, &id, None).await;
    // The host's move waits for the friend's; the friend's, on the other instance, tells the
    // round, and both seats see it stream.
    let waiting = move_at(&host, a, &id, 1, "I hold the bridge").await;
    assert!(
        matches!(waiting, TurnUpdate::RoundWaiting { .. }),
        "{waiting:?}"
    );
    let told = move_at(&friend, b, &id, 1, "I scout the far bank").await;
    assert!(matches!(told, TurnUpdate::Done { turn: 2, .. }), "{told:?}");
    for events in [&mut on_a, &mut on_b] {
        let mut seen = Vec::new();
        while !seen.iter().any(|event: &Event| event.event == "done") {
            seen.extend(next(events, 1).await);
        }
        let moves: Vec<String> = seen
            .iter()
            .filter_map(|event| serde_json::from_str::<TurnUpdate>(&event.data).ok())
            .filter_map(|update| match update {
                TurnUpdate::Entry {
                    entry: app::wire::view::StoryEntry::Move { text, by },
                    ..
                } => Some(format!("{}: {text}", by.unwrap_or_else(|| "host".into()))),
                _ => None,
            })
            .collect();
        assert_eq!(
            moves,
            ["host: I hold the bridge", "Bran: I scout the far bank"],
            "both seats see the round"
        );
    }
}
