//! Following a campaign live (`GET /api/live/{id}`, `text/event-stream`): its owner's second screen
//! gets the same updates as the tab that plays, named by kind and numbered; a reconnection with
//! `Last-Event-ID` gets what it missed; nobody else may subscribe.

use std::time::Duration;

use app::api::{NextActions, PlayTurn};
use app::wire::view::{ModelChange, TurnUpdate};
use eventsource_stream::{Event, Eventsource};
use futures::{Stream, StreamExt};
use leptos::server_fn::ServerFn;

use crate::support::test_app::{browser, updates, TestApp};

const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"text": "A gate in the rain."},
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d20+3", "reason": "Falling rocks"}}]},
    {"text": "The guard's blow goes wide."}
  ],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

/// The events of `GET /api/live/{id}`, after `last` if given.
async fn follow(
    app: &TestApp,
    client: &reqwest::Client,
    id: &str,
    last: Option<&str>,
) -> (u16, impl Stream<Item = Event>) {
    let mut request = client.get(app.url(&format!("/api/live/{id}")));
    if let Some(last) = last {
        request = request.header("last-event-id", last);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let events = response
        .bytes_stream()
        .eventsource()
        .filter_map(|event| async move { event.ok() });
    (status, events)
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

#[tokio::test]
async fn a_second_screen_gets_the_same_updates_as_the_playing_tab() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();
    let created = app.started(&client, "Mira").await;
    let id = created.id.as_str().to_owned();
    let (status, events) = follow(&app, &client, &id, None).await;
    assert_eq!(status, 200);
    let mut events = Box::pin(events);

    let played = client
        .post(app.url(PlayTurn::PATH))
        .json(
            &serde_json::json!({"id": id, "turn": 1, "input": {"kind": "text", "text": "I wait"}}),
        )
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let played = updates(&played);
    let live = next(&mut events, played.len()).await;
    let followed: Vec<TurnUpdate> = live
        .iter()
        .map(|event| serde_json::from_str(&event.data).unwrap())
        .collect();
    assert_eq!(followed, played, "the same updates, in the same order");
    // The model's working context changed by delta: the turn it now holds, then the layers of
    // the prompt that told it.
    let changes: Vec<&ModelChange> = followed
        .iter()
        .filter_map(|update| match update {
            TurnUpdate::Model { change } => Some(change),
            _ => None,
        })
        .collect();
    assert_eq!(changes.len(), 2, "{changes:?}");
    let added = changes[0].added.as_ref().expect("the turn the model holds");
    assert_eq!(added.turn, 2);
    assert!(added
        .messages
        .iter()
        .any(|message| message.content.contains("I wait")));
    assert!(changes[1]
        .layers
        .as_ref()
        .is_some_and(|layers| !layers.is_empty()));
    let kinds: Vec<&str> = live.iter().map(|event| event.event.as_str()).collect();
    assert!(
        kinds.contains(&"narrative") && kinds.contains(&"roll"),
        "{kinds:?}"
    );
    assert_eq!(kinds.last(), Some(&"done"));
    let numbers: Vec<u64> = live.iter().map(|event| event.id.parse().unwrap()).collect();
    assert_eq!(numbers, (1..=played.len() as u64).collect::<Vec<_>>());

    // The actions follow as suggestions.
    app.post_form(&client, NextActions::PATH, &[("id", id.as_str())])
        .await;
    let suggested = next(&mut events, 1).await;
    assert_eq!(suggested[0].event, "suggestions");

    // Reconnecting after the third event brings the rest back, in order.
    let last = played.len() as u64 + 1;
    let (_, again) = follow(&app, &client, &id, Some("3")).await;
    let mut again = Box::pin(again);
    let missed = next(&mut again, (last - 3) as usize).await;
    let numbers: Vec<u64> = missed
        .iter()
        .map(|event| event.id.parse().unwrap())
        .collect();
    assert_eq!(numbers, (4..=last).collect::<Vec<_>>());
    // A number the server never gave (it restarted since) asks the browser to reload.
    let (_, stale) = follow(&app, &client, &id, Some("999")).await;
    let mut stale = Box::pin(stale);
    assert_eq!(next(&mut stale, 1).await[0].event, "reload");
}

#[tokio::test]
async fn only_the_owner_may_follow_a_campaign() {
    let app = TestApp::playing(SCENARIO).await;
    let owner = browser();
    let created = app.started(&owner, "Mira").await;
    let stranger = browser();
    stranger.get(app.url("/")).send().await.unwrap();
    let (status, _) = follow(&app, &stranger, created.id.as_str(), None).await;
    assert_eq!(status, 404);
    let (status, _) = follow(&app, &owner, "not-an-id", None).await;
    assert_eq!(status, 404);
}
