//! Campaigns as files: export then import gives the same campaign; a tampered file is refused
//! naming the event (and a scene's HTML is never taken from a file); a newer format is refused
//! clearly; players cannot reach each other's campaigns; a branch copies a campaign up to a turn.

use crate::support::table;

use app::gm::scripted::{Scenario, Step};
use app::service::{Game, MoveRequest, ServiceError};
use app::wire::view::{CampaignView, MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};
use table::Table;

fn scenario() -> Scenario {
    let hurt = json!({"hpChange": -3, "addConditions": [{"name": "Poisoned", "duration": "1 hour", "notes": null}]});
    Scenario {
        steps: vec![
            Step::text("A crypt, knocking."),
            Step::call(
                "roll_dice",
                json!({"dice": "1d8+3", "reason": "Ghoul claw"}),
            ),
            Step::call("update_character", hurt),
            Step::call(
                "add_inventory",
                json!({"items": [{"name": "Bone charm", "quantity": 1}]}),
            ),
            Step::call(
                "keep_journal",
                json!({"action": "note", "kind": "person", "name": "The ghoul", "note": "Hungry."}),
            ),
            Step::text("The ghoul's claw finds you; a bone charm falls from its rags."),
            Step::text("The crypt is quiet."),
        ],
        actions: vec![Step::json(json!({"actions": [
            {"id": "strike", "description": "Strike the ghoul", "diceRoll": "1d20", "diceReason": "Attack", "difficultyClass": 12, "attribute": "STR"},
            {"id": "search", "description": "Search the alcove", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        cycle: false,
        ..Scenario::default()
    }
}

struct World {
    table: Table,
    rng: StdRng,
}

impl World {
    async fn new() -> Self {
        let mut scenario = scenario();
        // One action list per phase 2: the opening and two turns.
        scenario.actions = vec![scenario.actions[0].clone(); 3];
        Self::playing(scenario).await
    }

    async fn playing(scenario: Scenario) -> Self {
        Self {
            table: Table::playing(scenario).await,
            rng: StdRng::seed_from_u64(21),
        }
    }

    fn game(&self) -> Game<'_> {
        self.table.game()
    }

    /// A campaign of three turns: the opening, a strike (roll, damage, item, journal), a move.
    async fn campaign(&mut self, owner: &PlayerId) -> CampaignId {
        let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
        let mut rng = self.rng.clone();
        let id = self.table.open_campaign(owner, &form, &mut rng).await;
        let moves = [
            MoveInput::Action {
                id: "strike".into(),
            },
            MoveInput::Text {
                text: "I listen".into(),
            },
        ];
        for (turn, input) in (2..).zip(&moves) {
            let table = &self.table;
            table
                .play_turn(owner, &id, turn, input, &mut rng)
                .await
                .unwrap();
        }
        self.rng = rng;
        id
    }

    async fn view(&self, owner: &PlayerId, id: &CampaignId) -> CampaignView {
        self.game().load(owner, id, 3).await.unwrap()
    }

    async fn import(&mut self, owner: &PlayerId, file: &str) -> Result<CampaignId, ServiceError> {
        let mut rng = self.rng.clone();
        let imported = self.game().import(owner, file, 4, &mut rng).await;
        self.rng = rng;
        imported.map(|summary| summary.id)
    }
}

fn file_of(export: &app::campaign::export::CampaignExport) -> Value {
    serde_json::to_value(export).unwrap()
}

/// Where the first event with this `type` (a turn event) sits in the file.
fn position(file: &Value, kind: &str) -> usize {
    file["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|stored| stored["event"]["event"] == "turn" && stored["event"]["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} event"))
}

#[tokio::test]
async fn export_then_import_gives_the_same_campaign_to_the_importer() {
    let mut w = World::new().await;
    let (ann, bob) = (PlayerId::random(&mut w.rng), PlayerId::random(&mut w.rng));
    let id = w.campaign(&ann).await;
    let export = w.game().export(&ann, &id).await.unwrap();
    assert!(matches!(
        w.game().export(&bob, &id).await,
        Err(ServiceError::NotFound)
    ));

    let text = serde_json::to_string(&export).unwrap();
    let copy = w.import(&bob, &text).await.unwrap();
    let (original, imported) = (w.view(&ann, &id).await, w.view(&bob, &copy).await);
    assert_eq!(imported.story, original.story);
    assert_eq!(imported.sheet, original.sheet);
    assert_eq!(imported.actions, original.actions);
    assert_eq!(imported.journal, original.journal);
    assert_eq!(
        (imported.summary.title, imported.summary.turn),
        (original.summary.title, 3)
    );
    assert!(matches!(
        w.game().load(&ann, &copy, 5).await,
        Err(ServiceError::NotFound)
    ));
    assert_eq!(w.game().list(&ann, 0).await.unwrap().campaigns.len(), 1);
}

#[tokio::test]
async fn a_tampered_file_is_refused_naming_the_event() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let file = file_of(&w.game().export(&ann, &id).await.unwrap());

    // An item added to the inventory by hand.
    let mut extra_item = file.clone();
    let at = position(&file, "tool_result");
    let mut changed = at;
    while extra_item["events"][changed]["event"]["effect"]["kind"] != "changed" {
        changed += 1;
    }
    extra_item["events"][changed]["event"]["effect"]["deltas"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "addItem", "item": {"name": "Crown of kings", "quantity": 1}}));
    let refused = w.import(&ann, &extra_item.to_string()).await.unwrap_err();
    let message = refused.to_string();
    assert!(message.contains(&format!("event {changed} ")), "{message}");
    assert!(message.contains("not what its tool call does"), "{message}");

    // Hit points above the maximum at the start.
    let mut strong = file.clone();
    strong["events"][0]["event"]["sheet"]["hitPoints"] = json!({"current": 99, "max": 99});
    let message = w
        .import(&ann, &strong.to_string())
        .await
        .unwrap_err()
        .to_string();
    assert!(message.contains("event 0 "), "{message}");

    // A roll whose dice do not add up.
    let mut loaded = file.clone();
    let roll = position(&file, "player_roll");
    loaded["events"][roll]["event"]["resolution"]["roll"]["total"] = json!(30);
    let message = w
        .import(&ann, &loaded.to_string())
        .await
        .unwrap_err()
        .to_string();
    assert!(message.contains(&format!("event {roll} ")), "{message}");

    assert_eq!(
        w.game().list(&ann, 0).await.unwrap().campaigns.len(),
        1,
        "nothing was imported"
    );

    // Raw HTML smuggled into a scene is never used: scenes are rendered again from Markdown.
    let mut html = file.clone();
    let scene = position(&file, "narration");
    html["events"][scene]["event"]["html"] = json!("<script>alert(1)</script>");
    let copy = w.import(&ann, &html.to_string()).await.unwrap();
    let story = format!("{:?}", w.view(&ann, &copy).await.story);
    assert!(!story.contains("<script"), "{story}");
    assert!(story.contains("A crypt, knocking."), "{story}");
}

#[tokio::test]
async fn files_of_other_formats_are_refused_clearly() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let newer = json!({"format": "dicebound-campaign", "version": 99, "title": "x", "events": []});
    let message = w
        .import(&ann, &newer.to_string())
        .await
        .unwrap_err()
        .to_string();
    assert!(message.contains("newer Dicebound"), "{message}");
    let other = w
        .import(&ann, "{\"hello\": 1}")
        .await
        .unwrap_err()
        .to_string();
    assert!(other.contains("not a Dicebound campaign file"), "{other}");
}

#[tokio::test]
async fn a_branch_copies_the_campaign_up_to_the_chosen_turn() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let mut rng = w.rng.clone();
    let branch = w.game().branch(&ann, &id, 2, 6, &mut rng).await.unwrap();
    assert_eq!(branch.turn, 2);
    assert!(branch.title.ends_with("(from turn 2)"), "{}", branch.title);
    let (original, copy) = (w.view(&ann, &id).await, w.view(&ann, &branch.id).await);
    assert!(copy.story.entries.len() < original.story.entries.len());
    assert_eq!(
        copy.story.entries[..],
        original.story.entries[..copy.story.entries.len()]
    );
    assert!(format!("{:?}", copy.story).contains("bone charm falls"));
    assert!(!format!("{:?}", copy.story).contains("The crypt is quiet."));
    let beyond = w.game().branch(&ann, &id, 9, 6, &mut rng).await;
    assert!(matches!(
        beyond,
        Err(ServiceError::Invalid { field: "turn", .. })
    ));
}

/// A reply calling several tools at once.
fn calls(calls: &[(&str, Value)]) -> Step {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(name, arguments)| json!({"name": name, "arguments": arguments}))
        .collect();
    serde_json::from_value(json!({ "tool_calls": calls })).unwrap()
}

/// Every tool the narrator has, a fall to 0 HP and a death save, then a retelling and a move on
/// the imported copy.
fn every_tool() -> Scenario {
    let hurt =
        json!({"addConditions": [{"name": "Poisoned", "duration": "1 hour", "notes": null}]});
    let stair = json!({"what": "A rotten stair", "severity": "setback", "save": "DEX"});
    let note = json!({"action": "note", "kind": "person", "name": "The ghoul", "note": "Hungry."});
    let mut scenario = scenario();
    scenario.steps = vec![
        Step::text("A crypt, knocking."),
        calls(&[
            (
                "roll_dice",
                json!({"dice": "1d8+3", "reason": "Ghoul claw"}),
            ),
            ("update_character", hurt),
            ("hazard", stair),
            (
                "add_inventory",
                json!({"items": [{"name": "Bone charm", "quantity": 2}]}),
            ),
            ("keep_journal", note),
        ]),
        calls(&[
            (
                "request_check",
                json!({"attribute": "DEX", "difficultyClass": 10, "reason": "Dodge"}),
            ),
            (
                "ask_oracle",
                json!({"question": "Is the ghoul alone?", "likelihood": "likely"}),
            ),
            ("speak_to_player", json!({"message": "Ghouls fear fire."})),
            (
                "roll_on_table",
                json!({"name": "What stirs below?", "die": "d20", "outcomes": [
                    {"from": 1, "to": 12, "outcome": "rats"},
                    {"from": 13, "to": 20, "outcome": "a second ghoul"}
                ]}),
            ),
            (
                "record_place",
                json!({"place": "The crypt", "connectsTo": ["The ossuary"]}),
            ),
        ]),
        Step::text("The ghoul reels back into the dark."),
        calls(&[
            (
                "update_inventory",
                json!({"updates": [{"slug": "bone-charm", "quantityChange": -1}]}),
            ),
            ("get_character_stats", json!({})),
            (
                "award_experience",
                json!({"amount": 300, "reason": "Drove off the ghoul"}),
            ),
            ("rest", json!({"kind": "short"})),
        ]),
        Step::text("You rest among the bones."),
        calls(&[
            (
                "roll_dice",
                json!({"dice": "1d4+100", "reason": "The fall"}),
            ),
            ("update_character", json!({"hpChange": -100})),
        ]),
        Step::text("The floor gives way and you fall."),
        Step::text("You cling to life at the bottom of the pit."),
        Step::text("Told again: you cling on, barely."),
        Step::text("The imported tale goes on."),
        Step::text("The imported tale goes on."),
    ];
    scenario.actions = vec![scenario.actions[0].clone(); 12];
    scenario
}

/// The file's events with scenes' HTML left out (an import renders it again).
fn events_of(export: &app::campaign::export::CampaignExport) -> Value {
    let mut file = file_of(export);
    for stored in file["events"].as_array_mut().unwrap() {
        if let Some(event) = stored["event"].as_object_mut() {
            event.remove("html");
        }
    }
    file["events"].take()
}

#[tokio::test]
async fn a_campaign_that_used_every_tool_comes_back_whole_and_plays_on() {
    use app::game::{JournalChange, Slug};
    let mut w = World::playing(every_tool()).await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    // Dice whose two death saves leave the fallen hero alive: the test is about the file.
    let mut rng = StdRng::seed_from_u64(1);
    for (turn, text) in [(3, "I rest"), (4, "I walk on"), (5, "I hold on")] {
        let input = MoveInput::Text { text: text.into() };
        let request = MoveRequest {
            expected_turn: turn,
            input: &input,
        };
        w.game()
            .play(&ann, &id, request, 2, &mut rng, &mut |_| {})
            .await
            .unwrap();
        w.game().ensure_actions(&ann, &id, 2).await.unwrap();
    }
    w.game().undo(&ann, &id, 6, 3).await.unwrap();
    w.game().redo(&ann, &id, 5, 3).await.unwrap();
    w.game().retell(&ann, &id, 6, 3, &mut rng).await.unwrap();
    let entry = w.view(&ann, &id).await.journal[0].id;
    let pin = JournalChange::Pin {
        id: entry,
        pinned: true,
    };
    w.game().edit_journal(&ann, &id, pin, 3).await.unwrap();
    let charm = Slug::new("bone-charm").unwrap();
    w.game().drop_item(&ann, &id, &charm, 3).await.unwrap();

    let export = w.game().export(&ann, &id).await.unwrap();
    let log = serde_json::to_string(&export).unwrap();
    for kind in [
        "\"kind\":\"checked\"",
        "\"kind\":\"asked\"",
        "\"kind\":\"table_rolled\"",
        "\"kind\":\"aside\"",
        "\"kind\":\"mapped\"",
        "\"kind\":\"noted\"",
        "\"kind\":\"read\"",
        "\"cause\":\"Death save\"",
        "\"cause\":\"Dropped from the character panel\"",
        "\"event\":\"undone\"",
        "\"event\":\"redone\"",
        "\"event\":\"journal_edited\"",
    ] {
        assert!(log.contains(kind), "the campaign has {kind}");
    }
    let copy = w.import(&ann, &log).await.expect("the campaign comes back");
    let again = w.game().export(&ann, &copy).await.unwrap();
    assert_eq!(events_of(&again), events_of(&export));
    let (original, imported) = (w.view(&ann, &id).await, w.view(&ann, &copy).await);
    assert_eq!(imported.story, original.story);
    assert_eq!(imported.sheet, original.sheet);

    let input = MoveInput::Text {
        text: "I climb out".into(),
    };
    let request = MoveRequest {
        expected_turn: 6,
        input: &input,
    };
    w.game()
        .play(&ann, &copy, request, 4, &mut rng, &mut |_| {})
        .await
        .expect("the imported campaign plays on");
    assert!(format!("{:?}", w.view(&ann, &copy).await.story).contains("imported tale goes on"));
}

/// The file with `event` (a turn event's JSON) put in at `at`, for `turn`.
fn with_event(file: &Value, at: usize, turn: u32, event: Value) -> Value {
    let mut forged = file.clone();
    let events = forged["events"].as_array_mut().unwrap();
    events.insert(at, json!({"turn": turn, "event": event}));
    forged
}

/// A change the rules would never make: level 20, 999/999 HP and STR 30, as they would apply it.
fn godlike(file: &Value, cause: &str) -> Value {
    use app::game::{Attribute, CharacterSheet, StateDelta};
    let mut sheet: CharacterSheet =
        serde_json::from_value(file["events"][0]["event"]["sheet"].clone()).unwrap();
    let deltas = vec![
        StateDelta::SetLevel { level: 20 },
        StateDelta::SetMaxHp { max_hp: 999 },
        StateDelta::SetHp { hp: 999 },
        StateDelta::SetAttribute {
            attribute: Attribute::Strength,
            score: 30,
        },
    ];
    let changes = StateDelta::apply_all(&deltas, &mut sheet).expect("the deltas apply");
    json!({"event": "turn", "type": "ruled", "cause": cause, "deltas": deltas, "changes": changes})
}

async fn refused(w: &mut World, owner: &PlayerId, file: &Value) -> String {
    match w.import(owner, &file.to_string()).await {
        Ok(_) => "accepted".to_owned(),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn rules_made_changes_and_undone_turns_in_a_file_are_verified() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let file = file_of(&w.game().export(&ann, &id).await.unwrap());
    let end = file["events"].as_array().unwrap().len();

    for cause in ["Level up", "Death save", "Dropped from the character panel"] {
        let forged = with_event(&file, end, 3, godlike(&file, cause));
        let message = refused(&mut w, &ann, &forged).await;
        assert!(
            message.contains(&format!("event {end} (turn 3)")),
            "{message}"
        );
        assert!(
            message.contains("the rules did not make this change"),
            "{message}"
        );
    }

    // A forged turn, then marked undone: a later redo would have applied it.
    let mut undone = with_event(&file, end, 4, godlike(&file, "Death save"));
    undone["events"]
        .as_array_mut()
        .unwrap()
        .push(json!({"turn": 3, "event": {"event": "undone"}}));
    let message = refused(&mut w, &ann, &undone).await;
    assert!(
        message.contains(&format!("event {end} (turn 4)")),
        "{message}"
    );
    assert_eq!(
        w.game().list(&ann, 0).await.unwrap().campaigns.len(),
        1,
        "nothing stored"
    );
}

/// The first event of `type` after `from`.
fn next_of(file: &Value, kind: &str, from: usize) -> usize {
    from + file["events"].as_array().unwrap()[from..]
        .iter()
        .position(|stored| stored["event"]["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} event after {from}"))
}

#[tokio::test]
async fn imported_values_meet_the_bounds_of_play_and_counters_never_wrap() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let file = file_of(&w.game().export(&ann, &id).await.unwrap());
    let (moved, scene) = (position(&file, "move"), position(&file, "narration"));
    let (call, usage) = (position(&file, "tool_called"), position(&file, "usage"));
    let messages = file["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|stored| stored["event"]["event"] == "model_messages")
        .unwrap();
    let mut cases: Vec<(&str, Value, usize)> = Vec::new();
    let mut edit = |name, at: usize, change: &dyn Fn(&mut Value)| {
        let mut forged = file.clone();
        change(&mut forged["events"][at]);
        cases.push((name, forged, at));
    };
    edit("a move of 100,000 characters", moved, &|e| {
        e["event"]["text"] = json!("a".repeat(100_000))
    });
    edit("a narration of 1 MB", scene, &|e| {
        e["event"]["text"] = json!("word ".repeat(200_000))
    });
    edit("a model message of 1.5 MB", messages, &|e| {
        e["event"]["messages"][0]["content"] = json!("x".repeat(1_500_000))
    });
    edit("tool arguments of 512 KB", call, &|e| {
        e["event"]["call"]["arguments"] = json!(format!(
            "{{\"dice\": \"1d8\", \"reason\": \"{}\"}}",
            "r".repeat(512 * 1024)
        ))
    });
    edit("a tool call id of 256 KB", call, &|e| {
        e["event"]["call"]["id"] = json!("c".repeat(256 * 1024))
    });
    edit("a turn counter at its limit", moved, &|e| {
        e["turn"] = json!(u32::MAX)
    });
    let second_usage = next_of(&file, "usage", usage + 1);
    let mut wrapping = file.clone();
    for at in [usage, second_usage] {
        wrapping["events"][at]["event"]["usage"]["prompt_tokens"] = json!(u32::MAX);
    }
    cases.push(("token counts that would wrap", wrapping, second_usage));
    let drop = godlike(&file, &"c".repeat(512 * 1024));
    let end = file["events"].as_array().unwrap().len();
    cases.push(("a cause of 512 KB", with_event(&file, end, 3, drop), end));
    let mut no_opening = file.clone();
    no_opening["events"].as_array_mut().unwrap().truncate(1);
    cases.push(("no opening scene", no_opening, 0));

    for (name, forged, at) in cases {
        let message = refused(&mut w, &ann, &forged).await;
        assert!(
            message.contains(&format!("event {at} ")),
            "{name}: {message}"
        );
        assert!(
            message.len() < 300,
            "{name}: the refusal stays short: {}",
            message.len()
        );
    }
    assert_eq!(
        w.game().list(&ann, 0).await.unwrap().campaigns.len(),
        1,
        "nothing stored"
    );
}

#[tokio::test]
async fn titles_are_printable_and_bounded_wherever_they_come_from() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let mut file = file_of(&w.game().export(&ann, &id).await.unwrap());
    file["title"] = json!(format!(
        "Evil\u{0}\u{1b}[2J \u{202E}gnp.exe{}",
        "!".repeat(500)
    ));
    let copy = w.import(&ann, &file.to_string()).await.unwrap();
    let title = w.view(&ann, &copy).await.summary.title;
    assert!(title.starts_with("Evil[2J gnp.exe!"), "{title:?}");
    assert_eq!(title.chars().count(), 100);
    assert!(
        !title.chars().any(|c| c.is_control() || c == '\u{202E}'),
        "{title:?}"
    );

    let mut rng = w.rng.clone();
    let mut branch = id;
    for _ in 0..5 {
        branch = w
            .game()
            .branch(&ann, &branch, 2, 6, &mut rng)
            .await
            .unwrap()
            .id;
    }
    let title = w.view(&ann, &branch).await.summary.title;
    assert_eq!(title, "Mira the Ranger (from turn 2)");
}
