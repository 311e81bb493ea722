//! Approval mode: the game master's changes wait for the player; nothing changes the sheet
//! until accepted, a refused change never applies (on replay and import too), the ledger says
//! who decided, and the next telling hears of the refusal.

use crate::support::table::Table;
use app::gm::scripted::{Scenario, Step};
use app::wire::view::{LedgerRow, MoveInput, NewCampaign, ProposalDecision, StoryEntry};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

/// The opening, then a goblin's blow and a dagger the game master offers, then a quiet scene.
fn scenario() -> Scenario {
    let actions = Step::json(json!({"actions": [
        {"id": "look", "description": "Look around", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}));
    Scenario {
        steps: vec![
            Step::text("An alley; a goblin waits."),
            Step::call(
                "roll_dice",
                json!({"dice": "1d6+4", "reason": "Goblin scimitar"}),
            ),
            Step::call("update_character", json!({"hpChange": -4})),
            Step::call(
                "add_inventory",
                json!({"items": [{"name": "Dagger", "quantity": 1}]}),
            ),
            Step::text("The goblin cuts you and flees, dropping a dagger."),
            Step::text("The alley is quiet."),
        ],
        actions: vec![actions; 3],
        cycle: false,
        ..Scenario::default()
    }
}

struct Seat {
    table: Table,
    owner: PlayerId,
    id: CampaignId,
    rng: StdRng,
}

/// A campaign in approval mode whose second turn proposed −4 HP and a dagger.
async fn proposed() -> Seat {
    let table = Table::playing(scenario()).await;
    let mut rng = StdRng::seed_from_u64(4);
    let owner = PlayerId::random(&mut rng);
    let mut form = NewCampaign::new("An alley.", "Mira", "Ranger");
    form.approval = true;
    let id = table.open_campaign(&owner, &form, &mut rng).await;
    let look = MoveInput::Action { id: "look".into() };
    table
        .play_turn(&owner, &id, 2, &look, &mut rng)
        .await
        .unwrap();
    Seat {
        table,
        owner,
        id,
        rng,
    }
}

#[tokio::test]
async fn proposals_wait_then_only_what_the_player_accepts_applies_and_survives_an_import() {
    let mut seat = proposed().await;
    let game = seat.table.game();
    let view = game.load(&seat.owner, &seat.id, 3).await.unwrap();
    assert!(view.approval);
    let full = view.sheet.max_hp;
    assert_eq!(view.sheet.hp, full, "nothing changed before acceptance");
    assert!(view
        .sheet
        .inventory
        .iter()
        .all(|item| item.name != "Dagger"));
    let labels: Vec<Vec<String>> = view.proposals.iter().map(|p| p.labels.clone()).collect();
    assert_eq!(
        labels,
        [vec!["−4 HP".to_owned()], vec!["+ Dagger".to_owned()]]
    );
    let cause = view.proposals[0].cause.clone().unwrap();
    assert!(cause.contains("Goblin scimitar"), "{cause}");
    assert_eq!(
        view.proposals[1].cause, None,
        "the roll did not bring the dagger"
    );

    // No move while they wait.
    let quiet = MoveInput::Text {
        text: "I wait".into(),
    };
    let refused_move = seat
        .table
        .play_turn(&seat.owner, &seat.id, 3, &quiet, &mut seat.rng)
        .await;
    assert!(refused_move.is_err());

    let (damage, dagger) = (view.proposals[0].id, view.proposals[1].id);
    let decisions = [
        ProposalDecision {
            id: dagger,
            accept: false,
        },
        ProposalDecision {
            id: damage,
            accept: true,
        },
    ];
    game.decide_proposals(&seat.owner, &seat.id, &decisions, 3)
        .await
        .unwrap();
    let again = game
        .decide_proposals(&seat.owner, &seat.id, &decisions[..1], 3)
        .await;
    assert!(again.is_err(), "a decided proposal is no longer waiting");
    let view = game.load(&seat.owner, &seat.id, 3).await.unwrap();
    assert_eq!(view.sheet.hp, full - 4);
    assert!(view
        .sheet
        .inventory
        .iter()
        .all(|item| item.name != "Dagger"));
    assert!(view.proposals.is_empty());
    let decided: Vec<&StoryEntry> = view
        .story
        .entries
        .iter()
        .filter(|entry| matches!(entry, StoryEntry::Decision { .. }))
        .collect();
    assert_eq!(decided.len(), 2);

    // The ledger: who decided, what applied, what was kept off the sheet.
    let ledger = game.ledger(&seat.owner, &seat.id, None).await.unwrap();
    let rows: Vec<(String, String, String)> = ledger
        .rows
        .iter()
        .filter_map(|row| match row {
            LedgerRow::Change {
                what, after, cause, ..
            } => Some((
                what.clone(),
                after.clone(),
                ledger.causes[*cause as usize].clone(),
            )),
            LedgerRow::Roll { .. } => None,
        })
        .collect();
    assert!(rows.iter().any(|(what, after, cause)| what == "+ Dagger"
        && after == "refused"
        && cause.starts_with("Refused by the player: add_inventory")));
    assert!(rows.iter().any(|(what, _, cause)| what == "HP"
        && cause.starts_with("Accepted by the player: update_character")));

    // The next telling is told what the player refused.
    seat.table
        .play_turn(&seat.owner, &seat.id, 3, &quiet, &mut seat.rng)
        .await
        .unwrap();
    let requests = seat.table.llm.requests();
    let told = serde_json::to_string(requests.last().unwrap()).unwrap();
    assert!(told.contains("The player refused these changes you proposed: + Dagger"));

    // Exported and imported, the campaign is the same: the dagger never applies.
    let export = game.export(&seat.owner, &seat.id).await.unwrap();
    let file = serde_json::to_string(&export).unwrap();
    let mut rng = seat.rng.clone();
    let copy = game.import(&seat.owner, &file, 4, &mut rng).await.unwrap();
    let imported = game.load(&seat.owner, &copy.id, 4).await.unwrap();
    let original = game.load(&seat.owner, &seat.id, 4).await.unwrap();
    assert_eq!(imported.sheet, original.sheet);
    assert!(imported
        .sheet
        .inventory
        .iter()
        .all(|item| item.name != "Dagger"));
}

/// The player's answer: the damage (proposal 1) accepted, the dagger (2) refused.
fn damage_accepted_dagger_refused() -> [ProposalDecision; 2] {
    [
        ProposalDecision {
            id: 1,
            accept: true,
        },
        ProposalDecision {
            id: 2,
            accept: false,
        },
    ]
}

/// The file's events as JSON.
async fn file(seat: &Seat) -> Value {
    let export = seat
        .table
        .game()
        .export(&seat.owner, &seat.id)
        .await
        .unwrap();
    serde_json::to_value(export).unwrap()
}

#[tokio::test]
async fn a_file_that_applies_a_proposal_without_the_player_or_refuses_one_with_changes_is_refused()
{
    let seat = proposed().await;
    let decisions = damage_accepted_dagger_refused();
    let game = seat.table.game();
    game.decide_proposals(&seat.owner, &seat.id, &decisions, 3)
        .await
        .unwrap();
    let file = file(&seat).await;
    let events = file["events"].as_array().unwrap();
    let at = |kind: &str| {
        events
            .iter()
            .position(|stored| {
                stored["event"]["effect"]["kind"] == kind || stored["event"]["type"] == kind
            })
            .unwrap_or_else(|| panic!("no {kind}"))
    };
    let mut rng = StdRng::seed_from_u64(9);

    // The refusal forged to carry the dagger's change.
    let mut forged = file.clone();
    let accepted = forged["events"][at("decided")]["event"]["changes"].clone();
    let refusal = events
        .iter()
        .rposition(|stored| stored["event"]["type"] == "decided")
        .unwrap();
    forged["events"][refusal]["event"]["changes"] = accepted;
    let text = serde_json::to_string(&forged).unwrap();
    assert!(game.import(&seat.owner, &text, 4, &mut rng).await.is_err());

    // The proposal rewritten as a change the game master applied at once.
    let mut forged = file.clone();
    let proposal = at("proposed");
    let effect = forged["events"][proposal]["event"]["effect"].clone();
    forged["events"][proposal]["event"]["effect"] = json!({
        "kind": "changed",
        "deltas": effect["proposed"]["deltas"],
        "changes": effect["proposed"]["changes"],
    });
    let text = serde_json::to_string(&forged).unwrap();
    assert!(game.import(&seat.owner, &text, 4, &mut rng).await.is_err());

    // Untouched, it imports.
    let text = serde_json::to_string(&file).unwrap();
    game.import(&seat.owner, &text, 4, &mut rng).await.unwrap();
}

#[tokio::test]
async fn telling_a_scene_again_after_a_refusal_tells_the_model_what_was_refused() {
    let mut seat = proposed().await;
    let game = seat.table.game();
    let decisions = damage_accepted_dagger_refused();
    game.decide_proposals(&seat.owner, &seat.id, &decisions, 3)
        .await
        .unwrap();
    let retold = game
        .retell(&seat.owner, &seat.id, 2, 3, &mut seat.rng)
        .await
        .unwrap();
    let requests = seat.table.llm.requests();
    let told = serde_json::to_string(requests.last().unwrap()).unwrap();
    assert!(told.contains("The player refused these changes you proposed: + Dagger"));
    // The new telling proposed nothing, so nothing waits and the sheet is as it began.
    assert!(retold.proposals.is_empty());
    assert_eq!(retold.sheet.hp, retold.sheet.max_hp);
}
