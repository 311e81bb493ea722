//! Campaigns as files: export then import gives the same campaign; a tampered file is refused
//! naming the event (and a scene's HTML is never taken from a file); a newer format is refused
//! clearly; players cannot reach each other's campaigns; a branch copies a campaign up to a turn.

use app::campaign::view::{CampaignView, MoveInput, NewCampaign};
use app::campaign::{CampaignId, PlayerId};
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::GmSettings;
use app::service::{Game, MoveRequest, ServiceError, TurnsInFlight};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};
use server::store::SqlStore;

fn scenario() -> Scenario {
    let hurt = json!({"hpChange": -3, "addConditions": [{"name": "Poisoned", "duration": "1 hour", "notes": null}]});
    Scenario {
        steps: vec![
            Step::text("A crypt, knocking."),
            Step::call(
                "roll_dice",
                json!({"dice": "1d8+1", "reason": "Ghoul claw"}),
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
    store: SqlStore,
    llm: ScriptedLlm,
    gm: GmSettings,
    in_flight: TurnsInFlight,
    rng: StdRng,
    _dir: tempfile::TempDir,
}

impl World {
    async fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("game.db").display());
        let store = SqlStore::open(&url).await.unwrap();
        let mut scenario = scenario();
        // One action list per phase 2: the opening and two turns.
        scenario.actions = vec![scenario.actions[0].clone(); 3];
        Self {
            store: store.clone(),
            llm: ScriptedLlm::new(scenario),
            gm: GmSettings::default(),
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store)),
            rng: StdRng::seed_from_u64(21),
            _dir: dir,
        }
    }

    fn game(&self) -> Game<'_> {
        Game {
            store: &self.store,
            llm: &self.llm,
            gm: &self.gm,
            in_flight: &self.in_flight,
        }
    }

    /// A campaign of three turns: the opening, a strike (roll, damage, item, journal), a move.
    async fn campaign(&mut self, owner: &PlayerId) -> CampaignId {
        let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
        let mut rng = self.rng.clone();
        let id = self
            .game()
            .create(owner, &form, 1, &mut rng, &mut |_| {})
            .await
            .unwrap()
            .id;
        let moves = [
            MoveInput::Action {
                id: "strike".into(),
            },
            MoveInput::Text {
                text: "I listen".into(),
            },
        ];
        for (turn, input) in (2..).zip(&moves) {
            let request = MoveRequest {
                expected_turn: turn - 1,
                input,
            };
            self.game()
                .play(owner, &id, request, 2, &mut rng, &mut |_| {})
                .await
                .unwrap();
            self.game().ensure_actions(owner, &id, 2).await.unwrap();
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
