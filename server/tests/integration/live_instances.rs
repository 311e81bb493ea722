//! The live stream across instances on one PostgreSQL database (`server/src/live_relay.rs`): a
//! second screen following a campaign through instance B gets the turn played through instance
//! A, under the same numbers as a follower on A, and a browser that reconnects through the other
//! instance gets what it missed. (On SQLite the hub stays in the process: `live.rs`.)

use std::net::SocketAddr;
use std::time::Duration;

use app::wire::view::TurnUpdate;
use eventsource_stream::{Event, Eventsource};
use futures::{Stream, StreamExt};
use server::store::Backend;

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
