//! Recovery codes over HTTP: a code made in one browser brings its player's campaigns to
//! another (whose own campaigns come along); a wrong, malformed or revoked code is refused
//! clearly and changes nothing; tries are rate limited.

use app::api::{
    HasRecoveryCode, ListCampaigns, NewRecoveryCode, RedeemRecoveryCode, RevokeRecoveryCode,
};
use app::wire::errors::AppError;
use app::wire::view::{CampaignPage, RecoveryStatus};
use leptos::server_fn::ServerFn;

use crate::support::test_app::{browser, TestApp};

const SCENARIO: &str = r#"{"cycle": true, "steps": [{"text": "A gate in the rain."}],
  "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]}"#;

/// The titles of the browser's campaigns.
async fn campaigns(app: &TestApp, client: &reqwest::Client) -> Vec<String> {
    let page: CampaignPage = app
        .post_form(client, ListCampaigns::PATH, &[("page", "0")])
        .await
        .json()
        .await
        .unwrap();
    let mut titles: Vec<String> = page.campaigns.into_iter().map(|c| c.title).collect();
    titles.sort();
    titles
}

async fn redeem(app: &TestApp, client: &reqwest::Client, code: &str) -> Result<(), AppError> {
    let response = app
        .post_form(client, RedeemRecoveryCode::PATH, &[("code", code)])
        .await;
    if response.status() == 200 {
        Ok(())
    } else {
        Err(response.json().await.unwrap())
    }
}

fn invalid_reason(refused: Result<(), AppError>) -> String {
    match refused {
        Err(AppError::Invalid { field, reason }) if field == "code" => reason,
        other => panic!("not refused as a code: {other:?}"),
    }
}

#[tokio::test]
async fn a_recovery_code_brings_a_players_campaigns_to_another_browser() {
    let app = TestApp::playing(SCENARIO).await;
    let first = browser();
    app.start_campaign(&first, "Alba").await;
    let status: RecoveryStatus = app
        .post_form(&first, HasRecoveryCode::PATH, &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(status.made, None);
    let code: String = app
        .post_form(&first, NewRecoveryCode::PATH, &[])
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(code.len(), 29, "{code}");
    let status: RecoveryStatus = app
        .post_form(&first, HasRecoveryCode::PATH, &[])
        .await
        .json()
        .await
        .unwrap();
    assert!(status.made.is_some());

    let second = browser();
    app.start_campaign(&second, "Bram").await;
    assert_eq!(campaigns(&app, &second).await, ["Bram the Ranger"]);
    let wrong = "ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2";
    assert_eq!(
        invalid_reason(redeem(&app, &second, wrong).await),
        "this recovery code is wrong, or was revoked"
    );
    assert!(invalid_reason(redeem(&app, &second, "my dog's name").await)
        .contains("25 letters and digits"));
    assert_eq!(campaigns(&app, &second).await, ["Bram the Ranger"]);

    // Typed loosely, the right code works: the second browser is now the first's player, and
    // its own campaign came along.
    let typed = code.to_lowercase().replace('-', " ");
    redeem(&app, &second, &typed).await.unwrap();
    assert_eq!(
        campaigns(&app, &second).await,
        ["Alba the Ranger", "Bram the Ranger"]
    );
    assert_eq!(
        campaigns(&app, &first).await,
        ["Alba the Ranger", "Bram the Ranger"]
    );

    // Revoked, the code opens nothing more.
    app.post_form(&first, RevokeRecoveryCode::PATH, &[]).await;
    let third = browser();
    app.start_campaign(&third, "Cato").await;
    assert_eq!(
        invalid_reason(redeem(&app, &third, &code).await),
        "this recovery code is wrong, or was revoked"
    );
    assert_eq!(campaigns(&app, &third).await, ["Cato the Ranger"]);
}

#[tokio::test]
async fn tries_of_recovery_codes_are_rate_limited() {
    let app = TestApp::playing(SCENARIO).await;
    let guesser = browser();
    guesser.get(app.url("/")).send().await.unwrap();
    for _ in 0..10 {
        let refused = redeem(&app, &guesser, "ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2").await;
        assert!(
            matches!(refused, Err(AppError::Invalid { .. })),
            "{refused:?}"
        );
    }
    let limited = redeem(&app, &guesser, "ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2").await;
    assert!(
        matches!(limited, Err(AppError::Limited { .. })),
        "{limited:?}"
    );
}
