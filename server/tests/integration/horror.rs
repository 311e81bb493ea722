//! Sanity with teeth, through the service: in a game that tracks sanity the narrator is offered
//! `sanity_check` (and not in one that does not); the rules roll the save and the loss, the
//! ledger lists both, and a file with the check imports again while one whose loss was made
//! lighter is refused naming the event.

use crate::support::table::{Seat, Table};
use app::gm::scripted::{Scenario, Step};
use app::wire::view::{LedgerRow, MoveInput, NewCampaign};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

/// Every scene: a dire horror, then its telling.
fn scenario() -> Scenario {
    Scenario {
        steps: vec![
            Step::call(
                "sanity_check",
                json!({"severity": "dire", "reason": "The room that goes on forever"}),
            ),
            Step::text("The yellow walls hum; the corridor has no end."),
        ],
        actions: vec![Step::json(json!({"actions": [
            {"id": "walk", "description": "Walk on", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        cycle: true,
        ..Scenario::default()
    }
}

async fn lost(sanity: bool) -> (Seat, CampaignId) {
    let mut seat = Seat::new(Table::playing(scenario()).await, 44);
    let mut form = NewCampaign::new("Level 0 of the endless rooms.", "Ada", "Wizard");
    form.character.sanity = sanity;
    let id = seat.create(&form).await;
    (seat, id)
}

#[tokio::test]
async fn only_a_game_that_tracks_sanity_is_offered_the_check() {
    for sanity in [true, false] {
        let (seat, _) = lost(sanity).await;
        let offered = seat.table.llm.requests()[0]
            .tools
            .iter()
            .any(|tool| tool.name == "sanity_check");
        assert_eq!(offered, sanity);
    }
}

#[tokio::test]
async fn the_rules_roll_the_save_and_the_loss_and_a_lighter_loss_is_refused_on_import() {
    let (mut seat, id) = lost(true).await;
    for turn in 2..5 {
        seat.play(&id, turn, MoveInput::Action { id: "walk".into() })
            .await;
    }
    let state = seat.state(&id).await;
    let sanity = state.sheet.sanity().expect("tracked").value();
    let ledger = seat.game().ledger(&seat.owner, &id, None).await.unwrap();
    let saves = ledger
        .rows
        .iter()
        .filter(|row| matches!(row, LedgerRow::Roll { reason, dc: Some(16), .. } if reason.starts_with("Player sanity save")))
        .count();
    assert_eq!(saves, 4, "the opening and three turns each met the horror");
    let losses = ledger
        .rows
        .iter()
        .filter(
            |row| matches!(row, LedgerRow::Roll { reason, .. } if reason == "Rules: sanity lost"),
        )
        .count();
    assert!(
        sanity < 100 || losses == 0,
        "sanity {sanity} after {losses} losses"
    );

    let export = seat.game().export(&seat.owner, &id).await.unwrap();
    let file = serde_json::to_value(&export).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    seat.game()
        .import(&seat.owner, &file.to_string(), 4, &mut rng)
        .await
        .unwrap();
    let events = file["events"].as_array().unwrap();
    let at = events
        .iter()
        .position(|e| !e["event"]["effect"]["check"]["loss"].is_null())
        .expect("a failed save in the file");
    let mut forged = file.clone();
    let effect = &mut forged["events"][at]["event"]["effect"];
    effect["check"]["loss"]["terms"][0]["dice"][0]["value"] = json!(1);
    effect["check"]["loss"]["total"] =
        json!(effect["check"]["loss"]["total"].as_i64().unwrap() - 1);
    let refused = seat
        .game()
        .import(&seat.owner, &forged.to_string(), 4, &mut rng)
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains(&format!("event {at} ")), "{refused}");
}
