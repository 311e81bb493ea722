//! The story's spine through the game service, against the end-to-end scenario
//! (end2end/fixtures/spine.json): the model writes the plan at the opening, a failed roll whose
//! stakes name the flood ticks its clock, four still turns bring the director's steer, a social
//! check is made against the DC the guard's attitude sets and moves it by the rules, the chapter
//! ends once its goal is met, a journey to a known place takes the rules' time. Undo, export and
//! import carry it all, and a file whose spine the rules would not have made is refused. A model
//! without tools gets the plan the rules build from the premise.

use crate::support::table::{Seat, Table};
use app::campaign::event::CampaignEvent;
use app::campaign::state::CampaignState;
use app::campaign::store::CampaignStore;
use app::campaign::turn_event::TurnEvent;
use app::game::spine::attitude::Attitude;
use app::game::spine::shapes::Shape;
use app::game::{JournalName, Resolution};
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::GmSettings;
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

fn scenario() -> Scenario {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../end2end/fixtures/spine.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn action(id: &str) -> MoveInput {
    MoveInput::Action { id: id.into() }
}

fn guard() -> JournalName {
    JournalName::new("the guard").unwrap()
}

/// The campaign played through the persuasion (turn 8).
async fn played(seat: &mut Seat) -> CampaignId {
    let id = seat
        .create(&NewCampaign::new(
            "The flood at Hollowmere.",
            "Lark",
            "Bard",
        ))
        .await;
    seat.play(&id, 2, action("sneak")).await;
    for turn in 3..=7 {
        seat.play(&id, turn, action("hum")).await;
    }
    seat.play(&id, 8, action("persuade")).await;
    id
}

/// The total of the player's roll in `turn`'s log.
async fn roll_total(seat: &Seat, id: &CampaignId, turn: u32) -> i32 {
    let (_, log) = seat.table.store.log(&seat.owner, id).await.unwrap();
    log.iter()
        .filter(|stored| stored.turn == turn)
        .find_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::PlayerRoll {
                resolution: Resolution::Check(check),
                ..
            }) => Some(check.roll().total()),
            _ => None,
        })
        .expect("the turn rolled a check")
}

#[tokio::test]
async fn the_plan_clocks_director_and_attitudes_follow_the_rules() {
    let mut seat = Seat::new(Table::playing(scenario()).await, 48);
    let id = seat
        .create(&NewCampaign::new(
            "The flood at Hollowmere.",
            "Lark",
            "Bard",
        ))
        .await;
    let opened = seat.state(&id).await;
    let spine = &opened.spine;
    assert!(!spine.by_rules, "the model wrote the plan");
    assert_eq!(spine.plan.as_ref().unwrap().chapters().len(), 3);
    assert!(spine.clocks[0].revealed, "the scene named the flood");
    assert!(!spine.clocks[1].revealed, "the cult is still hidden");
    assert_eq!(spine.person(&guard()).unwrap().attitude, Attitude::Wary);

    seat.play(&id, 2, action("sneak")).await;
    assert_eq!(
        seat.state(&id).await.spine.clocks[0].filled,
        1,
        "a failure named the flood"
    );
    for turn in 3..=6 {
        seat.play(&id, turn, action("hum")).await;
    }
    let still = seat.state(&id).await;
    assert_eq!(still.spine.idle_turns(still.turn), 4);
    let due = still.spine.due_steer(still.turn).unwrap();
    assert_eq!(
        due.text,
        "Now the messenger arrives, wanting word of the flood."
    );

    seat.play(&id, 7, action("hum")).await;
    let steered = seat.state(&id).await;
    let given = steered.spine.steer.as_ref().unwrap();
    assert_eq!((given.turn, given.idle, &given.steer), (7, 4, &due));
    assert_eq!(
        steered.spine.clocks[0].filled, 2,
        "the director's pacing ticks the flood"
    );
    let messenger = JournalName::new("the messenger").unwrap();
    assert!(
        steered.spine.person(&messenger).is_some(),
        "the scene followed the steer"
    );
    let persuade = steered
        .actions
        .as_ref()
        .unwrap()
        .actions()
        .iter()
        .find(|a| a.id().as_str() == "persuade")
        .cloned()
        .unwrap();
    assert_eq!(
        persuade.difficulty_class().map(|dc| dc.value()),
        Some(15),
        "the guard is wary"
    );

    seat.play(&id, 8, action("persuade")).await;
    let total = roll_total(&seat, &id, 8).await;
    let swayed = seat.state(&id).await;
    assert_eq!(
        swayed.spine.person(&guard()).unwrap().attitude,
        Attitude::Wary.after_check(total),
        "a roll of {total} against 15"
    );
    assert_eq!(
        swayed.spine.chapter, 1,
        "the chapter's goal (meet the guard) was met"
    );
}

#[tokio::test]
async fn a_journey_takes_the_rules_time_and_undo_export_and_import_keep_the_spine() {
    let mut seat = Seat::new(Table::playing(scenario()).await, 49);
    let id = played(&mut seat).await;
    let before = seat.state(&id).await;
    let travel = MoveInput::Text {
        text: "Travel to The mill".into(),
    };
    seat.play(&id, 9, travel).await;
    let there = seat.state(&id).await;
    assert_eq!(there.sheet.location().as_str(), "The mill");
    assert_eq!(
        there.sheet.time().minutes() - before.sheet.time().minutes(),
        60,
        "one way on: an hour"
    );
    assert!(there
        .map
        .places()
        .iter()
        .any(|p| p.name.as_str() == "The mill" && p.visited));

    let game = seat.game();
    let file = serde_json::to_string(&game.export(&seat.owner, &id).await.unwrap()).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    let copy = game.import(&seat.owner, &file, 9, &mut rng).await.unwrap();
    let imported = seat.state(&copy.id).await;
    assert_eq!(
        (imported.spine, imported.map),
        (there.spine.clone(), there.map.clone())
    );

    game.undo(&seat.owner, &id, 9, 10).await.unwrap();
    let undone = seat.state(&id).await;
    assert_eq!((undone.spine, undone.map), (before.spine, before.map));
}

/// Whether the file with `forge` applied to its events is refused on import.
async fn refused(seat: &Seat, file: &Value, forge: impl Fn(&mut Vec<Value>)) -> bool {
    let mut forged = file.clone();
    forge(forged["events"].as_array_mut().unwrap());
    let text = serde_json::to_string(&forged).unwrap();
    let mut rng = StdRng::seed_from_u64(6);
    seat.game()
        .import(&seat.owner, &text, 9, &mut rng)
        .await
        .is_err()
}

/// The index of the first event whose spine change is `kind`.
fn spine_at(events: &[Value], kind: &str) -> usize {
    events
        .iter()
        .position(|stored| {
            stored["event"]["change"]["spine"] == kind
                || stored["event"]["effect"]["change"]["spine"] == kind
        })
        .unwrap_or_else(|| panic!("no {kind}"))
}

#[tokio::test]
async fn a_file_whose_spine_the_rules_would_not_have_made_is_refused() {
    let mut seat = Seat::new(Table::playing(scenario()).await, 50);
    let id = played(&mut seat).await;
    let export = seat.game().export(&seat.owner, &id).await.unwrap();
    let file = serde_json::to_value(export).unwrap();
    let plan = |events: &mut Vec<Value>| {
        let at = spine_at(events, "planned");
        events[at]["event"]["effect"]["change"]["plan"]["threats"][0]["segments"] = json!(9);
    };
    let unknown_clock = |events: &mut Vec<Value>| {
        let at = spine_at(events, "ticked");
        events[at]["event"]["change"]["threat"] = json!("The dragon");
    };
    let unknown_attitude = |events: &mut Vec<Value>| {
        let at = spine_at(events, "swayed");
        events[at]["event"]["change"]["to"] = json!("smitten");
    };
    let leap = |events: &mut Vec<Value>| {
        let at = spine_at(events, "swayed");
        events[at]["event"]["change"]["from"] = json!("hostile");
        events[at]["event"]["change"]["to"] = json!("devoted");
    };
    let early_chapter = |events: &mut Vec<Value>| {
        // The chapter's end moved to the opening, before the guard was met.
        let at = spine_at(events, "chapter_ended");
        let mut ended = events[at].clone();
        ended["turn"] = json!(1);
        let planned = spine_at(events, "planned");
        events.insert(planned + 1, ended);
    };
    for (what, forge) in [
        ("a plan past its bounds", &plan as &dyn Fn(&mut Vec<Value>)),
        ("a clock that does not exist", &unknown_clock),
        ("an attitude the rules do not know", &unknown_attitude),
        ("a change of heart no check makes", &leap),
        ("a chapter ended before its goal", &early_chapter),
    ] {
        assert!(refused(&seat, &file, forge).await, "{what} was imported");
    }
    assert!(
        !refused(&seat, &file, |_| {}).await,
        "the file as made imports"
    );
}

#[tokio::test]
async fn a_model_without_tools_gets_the_rules_plan_its_places_and_a_steer() {
    let scene = Step::text("Rain drips from the eaves of the quiet inn. Nothing stirs.");
    let scenario = Scenario {
        steps: vec![scene],
        cycle: true,
        ..Scenario::default()
    };
    let gm = GmSettings {
        full_prompt: false,
        ..GmSettings::default()
    };
    let mut seat = Seat::new(Table::serving(ScriptedLlm::new(scenario), gm).await, 51);
    let premise = "Rescue the miller's daughter from the bandits.";
    let id = seat
        .create(&NewCampaign::new(premise, "Lark", "Ranger"))
        .await;
    let opened: CampaignState = seat.state(&id).await;
    assert!(opened.spine.by_rules);
    assert_eq!(opened.spine.plan, Some(Shape::Rescue.plan()));
    let hideout = opened
        .map
        .places()
        .iter()
        .find(|p| p.name.as_str() == "The hideout");
    assert!(
        hideout.is_some_and(|p| !p.visited),
        "the plan's place is known, not visited"
    );
    for turn in 2..=6 {
        let text = MoveInput::Text {
            text: "I sit by the fire".into(),
        };
        seat.play(&id, turn, text).await;
    }
    let steered = seat.state(&id).await;
    let given = steered.spine.steer.as_ref().expect("the director steered");
    assert_eq!(given.turn, 6);
    assert_eq!(
        given.steer.text,
        "Now the witness arrives, wanting to stay out of trouble."
    );
}
