//! A character card brought to a new campaign through the game service: its companion and lore
//! in the journal from the start, carried by an exported file and checked on import; more
//! entries than the journal holds refused.

use app::game::journal::MAX_ENTRIES;
use app::game::JournalKind;
use app::gm::scripted::Scenario;
use app::service::card::read_card;
use app::service::ServiceError;
use app::wire::view::{BroughtEntry, NewCampaign};
use base64::Engine;

use crate::support::table::{Seat, Table};

const CARD: &str = include_str!("../../../end2end/fixtures/seraphine.card.json");

fn scenario() -> Scenario {
    serde_json::from_value(serde_json::json!({
        "cycle": true,
        "steps": [{"text": "The inn's lantern burns."}],
        "actions": [{"json": {"actions": [{"id": "wait", "description": "Wait"}]}}]
    }))
    .unwrap()
}

#[tokio::test]
async fn a_cards_companion_and_lore_are_in_the_journal_from_the_start_and_travel_with_a_file() {
    let mut seat = Seat::new(Table::playing(scenario()).await, 41);
    let card = read_card(&base64::engine::general_purpose::STANDARD.encode(CARD)).unwrap();
    let form = NewCampaign {
        premise: card.premise.clone(),
        brought: card.entries.clone(),
        ..NewCampaign::new("", "Corin", "Fighter")
    };
    let id = seat.create(&form).await;
    let state = seat.state(&id).await;
    let journal: Vec<(&str, JournalKind)> = state
        .journal
        .entries()
        .iter()
        .map(|entry| (entry.name.as_str(), entry.kind))
        .collect();
    assert!(
        journal.contains(&("Seraphine", JournalKind::Person)),
        "{journal:?}"
    );
    assert!(
        journal.contains(&("The Salt Guild", JournalKind::Thread)),
        "{journal:?}"
    );
    assert!(state
        .premise
        .starts_with("Seraphine meets you at the salt road's last inn"));

    let file = serde_json::to_string(&seat.game().export(&seat.owner, &id).await.unwrap()).unwrap();
    let copy = seat
        .table
        .game()
        .import(&seat.owner, &file, 3, &mut seat.rng)
        .await
        .unwrap();
    assert_eq!(seat.state(&copy.id).await.journal, state.journal);
    // A file whose brought entries are not plain notes is refused.
    let tampered = file.replacen("\"change\":\"note\"", "\"change\":\"close\"", 1);
    assert_ne!(tampered, file);
    assert!(seat
        .table
        .game()
        .import(&seat.owner, &tampered, 3, &mut seat.rng)
        .await
        .is_err());

    let crowded = NewCampaign {
        brought: (0..=MAX_ENTRIES)
            .map(|n| BroughtEntry {
                kind: JournalKind::Thread,
                name: format!("Lore {n}"),
                note: "Something.".into(),
            })
            .collect(),
        ..NewCampaign::new("A road", "Corin", "Fighter")
    };
    let refused = seat
        .table
        .game()
        .create(&seat.owner, &crowded, 1, &mut seat.rng, &mut |_| {})
        .await;
    assert!(
        matches!(
            refused,
            Err(ServiceError::Invalid {
                field: "brought",
                ..
            })
        ),
        "{refused:?}"
    );
}
