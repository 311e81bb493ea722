//! The storybook download (`GET /api/storybook/{id}`): one HTML page with the story and its dice,
//! sent as an attachment with a safe name, to the campaign's table only: a friend's has their
//! own hero at the end, never the host's.

use app::api::{InviteFriend, JoinTable, PlayTurn};
use app::wire::view::InvitationView;
use leptos::server_fn::ServerFn;

use crate::support::test_app::{browser, TestApp};

const SCENARIO: &str = r#"{"cycle": true,
  "steps": [
    {"text": "A gate in the rain."},
    {"tool_calls": [{"name": "roll_dice", "arguments": {"dice": "1d20+3", "reason": "Falling rocks"}}]},
    {"text": "The guard's blow goes wide."}
  ],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

#[tokio::test]
async fn the_storybook_downloads_as_one_page_for_its_player_only() {
    let app = TestApp::playing(SCENARIO).await;
    let client = browser();
    let id = app.started(&client, "Mira").await.id.as_str().to_owned();
    let move_typed = "<script>alert(1)</script> I wait";
    let played = client
        .post(app.url(PlayTurn::PATH))
        .json(&serde_json::json!({"id": id, "turn": 1, "input": {"kind": "text", "text": move_typed}}))
        .send()
        .await
        .unwrap();
    assert_eq!(played.status().as_u16(), 200);
    played.text().await.unwrap();

    let response = client
        .get(app.url(&format!("/api/storybook/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(header("content-type"), "text/html; charset=utf-8");
    let disposition = header("content-disposition");
    assert!(
        disposition.starts_with("attachment; filename=\"")
            && disposition.ends_with(".storybook.html\""),
        "{disposition}"
    );
    assert!(header("content-security-policy").contains("default-src 'none'"));
    let page = response.text().await.unwrap();
    assert!(page.contains("A gate in the rain."), "{page}");
    assert!(page.contains("The guard"), "{page}");
    assert!(page.contains("Falling rocks"), "the roll's line");
    assert!(page.contains("class=\"die\""), "the roll's dice");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; I wait"));
    assert!(!page.contains("<script"));
    assert!(
        page.contains("<footer><h2>Mira</h2>"),
        "the hero at the end"
    );
    assert!(!page.contains(&id), "no ids");

    // Another player, or an id that is none, learns nothing.
    let stranger = browser();
    for path in [
        format!("/api/storybook/{id}"),
        "/api/storybook/nothing".to_owned(),
    ] {
        let refused = stranger.get(app.url(&path)).send().await.unwrap();
        assert_eq!(refused.status().as_u16(), 404, "{path}");
        let body = refused.text().await.unwrap();
        assert!(!body.contains("A gate in the rain."));
    }

    // A friend seated at the table gets the same story with their own hero, not the host's.
    let invitation: InvitationView = client
        .post(app.url(InviteFriend::PATH))
        .form(&[("id", id.as_str())])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let code = invitation.path.trim_start_matches("/join/");
    let friend = browser();
    let join = serde_json::json!({"code": code, "character": {"name": "Bran", "class": "Fighter"}});
    let joined = friend
        .post(app.url(JoinTable::PATH))
        .json(&join)
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status().as_u16(), 200);
    let theirs = friend
        .get(app.url(&format!("/api/storybook/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(theirs.status().as_u16(), 200);
    let theirs = theirs.text().await.unwrap();
    assert!(theirs.contains("A gate in the rain."));
    assert!(theirs.contains("<footer><h2>Bran</h2>"), "{theirs}");
    assert!(!theirs.contains("<footer><h2>Mira</h2>"));
}
