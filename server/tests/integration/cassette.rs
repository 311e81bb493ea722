//! Recorded model exchanges: a short campaign recorded against the bundled model
//! (`examples/record_cassette.rs`) replays from its cassette with the same ledger of rolls and
//! state changes; a request the cassette does not hold fails loudly.

use crate::support::recorded_game;

use std::path::PathBuf;

use app::gm::{GmSettings, LlmPort, LlmRequest, Message};
use server::llm::cassette::{Cassette, Replaying};

fn fixture() -> Cassette {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundled.cassette.json");
    Cassette::load(&path).expect("the recorded cassette is in the checkout")
}

#[tokio::test]
async fn a_campaign_recorded_against_the_bundled_model_replays_with_the_same_ledger() {
    let cassette = fixture();
    assert_eq!(cassette.model, "SmolLM2-135M-Instruct");
    assert!(
        !cassette.ledger.is_empty(),
        "the recording changed something"
    );
    let replaying = Replaying::new(cassette.clone());
    let ledger = recorded_game::play(&replaying, &GmSettings::small_model())
        .await
        .expect("every request is on the cassette");
    assert_eq!(ledger, cassette.ledger);
}

#[tokio::test]
async fn a_request_the_cassette_does_not_hold_fails_loudly() {
    let replaying = Replaying::new(fixture());
    let request = LlmRequest {
        messages: vec![Message::user("Something never recorded.")],
        ..LlmRequest::default()
    };
    let error = replaying.complete(request).await.unwrap_err();
    assert!(
        error.to_string().contains("cassette holds no answer"),
        "{error}"
    );
}
