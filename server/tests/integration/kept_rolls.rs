//! Every roll is final: each kind of roll the rules make in a turn — a check the game master
//! asks for, a hazard and its save, the oracle, an outcome table, a sanity save — comes out the
//! same when the turn is told again (even with its tools called in another order) and when it
//! is undone and the same move made again, whatever dice the request brings.

use crate::support::table::{Seat, Table};
use app::campaign::event::CampaignEvent;
use app::campaign::store::CampaignStore;
use app::campaign::timeline::timeline;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::gm::scripted::{Scenario, Step};
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

/// The narrator's calls of turn 2: one of each kind of roll.
fn calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "request_check",
            json!({"attribute": "DEX", "skill": "Acrobatics", "difficultyClass": 12, "reason": "Keep your footing"}),
        ),
        (
            "ask_oracle",
            json!({"question": "Is the stair guarded?", "likelihood": "likely"}),
        ),
        (
            "roll_on_table",
            json!({"name": "What waits above?", "die": "d6", "outcomes": [
                {"from": 1, "to": 3, "outcome": "nothing"},
                {"from": 4, "to": 6, "outcome": "a bat swarm"}
            ]}),
        ),
        (
            "sanity_check",
            json!({"severity": "minor", "reason": "A face in the wall"}),
        ),
        (
            "hazard",
            json!({"what": "A loose step", "severity": "setback", "save": "DEX"}),
        ),
        ("roll_dice", json!({"dice": "3d6", "reason": "Echoes"})),
    ]
}

fn turn_two(reversed: bool) -> Vec<Step> {
    let mut calls = calls();
    if reversed {
        calls.reverse();
    }
    let calls: Vec<(&str, Value)> = calls;
    vec![
        Step::calls(&calls),
        Step::text("The stair creaks under you."),
    ]
}

fn wait() -> Step {
    Step::json(json!({"actions": [
        {"id": "wait", "description": "Wait and listen", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

async fn climbing() -> (Seat, CampaignId) {
    let mut steps = vec![Step::text("A stair winds up into the dark.")];
    // Turn 2 as first told; told again with its calls in the other order; then made again
    // after an undo.
    steps.extend(turn_two(false));
    steps.extend(turn_two(true));
    steps.extend(turn_two(false));
    let scenario = Scenario {
        steps,
        actions: vec![wait(); 4],
        ..Scenario::default()
    };
    let mut seat = Seat::new(Table::playing(scenario).await, 31);
    let mut form = NewCampaign::new("A stair winds up into the dark.", "Brann", "Fighter");
    form.character.sanity = true;
    let id = seat.create(&form).await;
    (seat, id)
}

/// The rolls of turn 2 in effect, by kind, in a fixed order.
async fn rolls_of_turn_two(seat: &Seat, id: &CampaignId) -> Vec<String> {
    let (_, log) = seat.table.store.log(&seat.owner, id).await.unwrap();
    let mut rolls: Vec<String> = timeline(&log)
        .active
        .into_iter()
        .filter(|stored| stored.turn == 2)
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            }) => match effect {
                ToolEffect::Checked { check, .. } => Some(format!("check {check:?}")),
                ToolEffect::Asked { reading } => Some(format!("oracle {:?}", reading.roll)),
                ToolEffect::TableRolled { roll } => Some(format!("table {}", roll.face())),
                ToolEffect::SanityChecked { check, .. } => Some(format!("sanity {check:?}")),
                ToolEffect::Hazard { hazard, .. } => Some(format!("hazard {hazard:?}")),
                ToolEffect::Rolled { roll, .. } => Some(format!("dice {roll:?}")),
                _ => None,
            },
            _ => None,
        })
        .collect();
    rolls.sort();
    rolls
}

#[tokio::test]
async fn every_kind_of_roll_is_kept_through_a_retelling_and_an_undo() {
    let (mut seat, id) = climbing().await;
    let climb = MoveInput::Text {
        text: "I climb the stair".into(),
    };
    seat.play(&id, 2, climb.clone()).await;
    let first = rolls_of_turn_two(&seat, &id).await;
    let kinds: Vec<&str> = first
        .iter()
        .map(|roll| roll.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["check", "dice", "hazard", "oracle", "sanity", "table"],
        "every kind rolled: {first:?}"
    );

    // Told again with other dice in the request, and the calls in the other order.
    let mut other_dice = StdRng::seed_from_u64(999);
    seat.game()
        .retell(&seat.owner, &id, 2, 9, &mut other_dice)
        .await
        .unwrap();
    assert_eq!(rolls_of_turn_two(&seat, &id).await, first, "told again");

    // Undone, and the same move made again with the seat's dice moved on.
    seat.game().undo(&seat.owner, &id, 2, 10).await.unwrap();
    seat.play(&id, 2, climb).await;
    assert_eq!(
        rolls_of_turn_two(&seat, &id).await,
        first,
        "made again after an undo"
    );
}
