//! Failure with teeth, through the service: a scripted campaign of 20 turns in which the player
//! keeps trying a climb too hard for them, its stakes named. Whenever the scene changes nothing
//! the rules apply a complication (shown beside the scene, in the ledger, on the sheet); when the
//! model's own tool call made the failure cost something, the rules add nothing. Every failed
//! roll costs something; the file exports and imports again, and a forged complication is
//! refused naming the event.

use crate::support::table::{Seat, Table};
use app::campaign::turn_event::TurnEvent;
use app::gm::scripted::{Scenario, Step};
use app::wire::view::{LedgerRow, MoveInput, NewCampaign, StoryEntry};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

/// The turns played after the opening.
const TURNS: u32 = 20;

/// One hard climb with its stakes named, offered every turn.
fn actions() -> Step {
    Step::json(json!({"actions": [
        {"id": "climb", "description": "Climb the crumbling tower", "diceRoll": "1d20",
         "diceReason": "Athletics", "difficultyClass": 25, "attribute": "STR",
         "onSuccess": "You reach the top", "onFailure": "You fall and the guards may hear"}
    ]}))
}

/// Each cycle: a scene that changes nothing, then a scene in which the model itself makes the
/// fall cost time (so the rules add nothing), then another that changes nothing.
fn scenario() -> Scenario {
    Scenario {
        steps: vec![
            Step::text("The stones shift under your fingers."),
            Step::call("update_character", json!({"minutesPassed": 10})),
            Step::text("You land hard on the cobbles and lose time picking yourself up."),
            Step::text("Mortar dust drifts down the wall."),
        ],
        actions: vec![actions()],
        cycle: true,
        ..Scenario::default()
    }
}

async fn climber() -> (Seat, CampaignId) {
    let mut seat = Seat::new(Table::playing(scenario()).await, 26);
    let form = NewCampaign::new("A tower at the edge of town.", "Vex", "Fighter");
    let id = seat.create(&form).await;
    (seat, id)
}

/// The events of each turn since the opening, in order.
async fn turns(seat: &Seat, id: &CampaignId) -> Vec<Vec<TurnEvent>> {
    let (_, log) = app::campaign::store::CampaignStore::log(&seat.table.store, &seat.owner, id)
        .await
        .unwrap();
    let mut turns: Vec<Vec<TurnEvent>> = vec![Vec::new(); TURNS as usize];
    for stored in app::campaign::timeline::timeline(&log).active {
        if let (app::campaign::event::CampaignEvent::Turn(event), 2..) =
            (&stored.event, stored.turn)
        {
            turns[stored.turn as usize - 2].push(event.clone());
        }
    }
    turns
}

/// The whole story, page by page, after checking the snapshot against the replay.
async fn whole_story(seat: &Seat, id: &CampaignId) -> Vec<StoryEntry> {
    let mut story = Vec::new();
    let mut before = seat.state(id).await.story_len;
    while before > 0 {
        let page = seat.game().story_page(&seat.owner, id, before).await;
        let page = page.unwrap();
        story.splice(0..0, page.entries);
        before = page.start;
    }
    story
}

#[tokio::test]
async fn every_failed_roll_with_stakes_costs_something() {
    let (mut seat, id) = climber().await;
    for turn in 2..TURNS + 2 {
        let climb = MoveInput::Action { id: "climb".into() };
        seat.play(&id, turn, climb).await;
    }
    let turns = turns(&seat, &id).await;
    let failed: Vec<&Vec<TurnEvent>> = turns
        .iter()
        .filter(|events| app::gm::turn::complication::failed_check(events))
        .collect();
    let costly = failed
        .iter()
        .filter(|events| {
            events
                .iter()
                .any(app::gm::turn::complication::costs_something)
        })
        .count();
    let complicated = failed
        .iter()
        .filter(|events| {
            events
                .iter()
                .any(|event| matches!(event, TurnEvent::Complicated { .. }))
        })
        .count();
    let by_the_model = failed.len() - complicated;
    println!(
        "failed rolls that cost something: {costly} of {} ({complicated} by the rules' \
         complication, {by_the_model} by the model's own change)",
        failed.len()
    );
    // A DC 25 climb always fails; the last turns are the fallen hero's death saves.
    assert!(failed.len() >= 15, "the climbs failed: {}", failed.len());
    assert_eq!(costly, failed.len(), "every failure cost something");
    assert!(
        complicated > 0 && by_the_model > 0,
        "both kinds were played"
    );
    for events in &failed {
        let complications = events
            .iter()
            .filter(|event| matches!(event, TurnEvent::Complicated { .. }))
            .count();
        let model_changed = events.iter().any(|event| {
            matches!(event, TurnEvent::ToolResult { effect: Some(_), tool, .. } if tool == "update_character")
        });
        assert_eq!(
            complications,
            usize::from(!model_changed),
            "a complication exactly when the model changed nothing"
        );
    }

    // Shown beside the scene, in the ledger, and the snapshot is the replay.
    let notes = whole_story(&seat, &id)
        .await
        .iter()
        .filter(|entry| matches!(entry, StoryEntry::RulesNote { text } if text.contains("The failure costs")))
        .count();
    assert_eq!(notes, complicated);
    let ledger = seat.game().ledger(&seat.owner, &id, None).await.unwrap();
    let tables = ledger
        .rows
        .iter()
        .filter(|row| matches!(row, LedgerRow::Roll { reason, .. } if reason == "Rules: a failure's complication"))
        .count();
    assert_eq!(tables, complicated);
    assert!(ledger
        .causes
        .iter()
        .any(|cause| cause == "Rules: a failed roll's cost"));
    seat.state(&id).await;
}

#[tokio::test]
async fn a_campaign_with_complications_imports_and_a_forged_one_is_refused() {
    let (mut seat, id) = climber().await;
    for turn in 2..6 {
        let climb = MoveInput::Action { id: "climb".into() };
        seat.play(&id, turn, climb).await;
    }
    let export = seat.game().export(&seat.owner, &id).await.unwrap();
    let file = serde_json::to_value(&export).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    let copy = seat
        .game()
        .import(&seat.owner, &file.to_string(), 4, &mut rng)
        .await
        .unwrap();
    assert_eq!(
        seat.game().load(&seat.owner, &id, 5).await.unwrap().sheet,
        seat.game()
            .load(&seat.owner, &copy.id, 5)
            .await
            .unwrap()
            .sheet,
    );

    let events = file["events"].as_array().unwrap();
    let at = events
        .iter()
        .position(|e| e["event"]["type"] == "complicated")
        .expect("a complication in the file");
    let forgeries: [fn(&mut Value); 2] = [
        // The table's die turned to a face of another row (6, a foe alerted, is never another
        // row's fallback).
        |event| {
            let face = event["complication"]["table"]["terms"][0]["dice"][0]["value"]
                .as_u64()
                .unwrap();
            let other = if face == 6 { 3 } else { 6 };
            event["complication"]["table"]["terms"][0]["dice"][0]["value"] = json!(other);
            event["complication"]["table"]["total"] = json!(other);
        },
        // The complication's stakes not the action's.
        |event| event["stakes"] = json!("Nothing at all"),
    ];
    for forge in forgeries {
        let mut forged = file.clone();
        forge(&mut forged["events"][at]["event"]);
        let refused = seat
            .game()
            .import(&seat.owner, &forged.to_string(), 4, &mut rng)
            .await
            .unwrap_err()
            .to_string();
        assert!(refused.contains(&format!("event {at} ")), "{refused}");
        assert!(refused.contains("complication"), "{refused}");
    }
}
