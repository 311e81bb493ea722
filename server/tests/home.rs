//! Wire-level tests of the running server: the home page and the `new_adventure` server function.

use std::net::SocketAddr;

use app::api::{AdventureHook, NewAdventure};
use leptos::{prelude::LeptosOptions, server_fn::ServerFn};
use server::{config::Settings, startup::Application};

/// Starts the application on a free loopback port and returns its address.
async fn spawn_app() -> SocketAddr {
    let leptos = LeptosOptions::builder()
        .output_name("dicebound")
        .site_addr(SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    let app = Application::build(Settings { leptos })
        .await
        .expect("the server binds a free port");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    addr
}

#[tokio::test]
async fn home_page_is_server_rendered_with_the_title_and_the_button() {
    let addr = spawn_app().await;

    let response = reqwest::get(format!("http://{addr}/")).await.unwrap();

    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    assert!(
        html.contains("<h1 class=\"title\">Dicebound</h1>"),
        "{html}"
    );
    assert!(html.contains("New adventure"), "{html}");
    assert!(
        html.contains("/pkg/dicebound.js"),
        "hydration script missing: {html}"
    );
}

#[tokio::test]
async fn new_adventure_answers_with_one_of_the_premises() {
    let addr = spawn_app().await;

    let response = reqwest::Client::new()
        .post(format!("http://{addr}{}", NewAdventure::PATH))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("")
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), 200);
    let hook: AdventureHook = response.json().await.unwrap();
    assert!(
        app::api::new_adventure::PREMISES.contains(&hook.premise.as_str()),
        "unexpected premise {:?}",
        hook.premise
    );
}

#[tokio::test]
async fn unknown_page_is_a_404() {
    let addr = spawn_app().await;

    let response = reqwest::get(format!("http://{addr}/no-such-page"))
        .await
        .unwrap();

    assert_eq!(response.status(), 404);
}
