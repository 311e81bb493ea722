//! The snapshot a campaign keeps beside its log is exactly what replaying the log gives, and
//! the story entries streamed live are exactly the ones stored: after a scripted 30-turn
//! campaign with rolls, damage, items, conditions and a phase that failed half-way.

use crate::support::table::Table;
use app::campaign::state::CampaignState;
use app::campaign::store::CampaignStore;
use app::gm::scripted::{ScriptedError, ScriptedLlm, Step};
use app::gm::GmSettings;
use app::service::{Game, MoveRequest, ServiceError};
use app::wire::view::{MoveInput, NewCampaign, StoryEntry, TurnUpdate};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

const TURNS: u32 = 30;

fn actions() -> Step {
    Step::json(json!({"actions": [
        {"id": "strike", "description": "Strike the ghoul", "diceRoll": "1d20", "diceReason": "Attack", "difficultyClass": 12, "attribute": "STR"},
        {"id": "search", "description": "Search the alcove", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

/// The model's answers for turn `turn`: a different mix of tools each time.
fn narration(turn: u32) -> Vec<Step> {
    let tool = match turn % 5 {
        0 => Step::call(
            "roll_dice",
            json!({"dice": "1d8+1", "reason": "Ghoul claw"}),
        ),
        1 => Step::calls(&[
            (
                "roll_dice",
                json!({"dice": "1d4", "reason": "Falling bones"}),
            ),
            ("update_character", json!({"hpChange": -1})),
        ]),
        2 => Step::call(
            "add_inventory",
            json!({"items": [{"name": format!("Bone charm {turn}"), "quantity": 1}]}),
        ),
        3 => Step::call(
            "update_character",
            json!({"addConditions": [{"name": "Shaken", "duration": "1 hour"}]}),
        ),
        _ => Step::calls(&[
            (
                "roll_dice",
                json!({"dice": "1d4", "reason": "A moment's rest"}),
            ),
            (
                "update_character",
                json!({"removeConditions": ["Shaken"], "hpChange": 1}),
            ),
        ]),
    };
    vec![
        tool,
        Step::text(format!("Scene {turn}: the crypt answers.")),
    ]
}

fn script() -> Vec<Step> {
    let mut steps = vec![Step::text("A crypt, knocking."), actions()];
    for turn in 2..=TURNS {
        if turn == 15 {
            // The model fails after a tool ran: the phase is aborted, nothing is stored.
            steps.push(Step::calls(&[
                (
                    "roll_dice",
                    json!({"dice": "1d4+1", "reason": "Falling bones"}),
                ),
                ("update_character", json!({"hpChange": -2})),
            ]));
            steps.push(Step::error(ScriptedError::Timeout));
        }
        steps.extend(narration(turn));
        steps.push(actions());
    }
    steps
}

async fn play_turn(
    game: &Game<'_>,
    owner: &PlayerId,
    id: &CampaignId,
    turn: u32,
    rng: &mut StdRng,
    streamed: &mut Vec<(u32, StoryEntry)>,
) -> Result<(), ServiceError> {
    let input = if turn.is_multiple_of(2) {
        MoveInput::Action {
            id: "strike".into(),
        }
    } else {
        MoveInput::Text {
            text: format!("I press on ({turn})"),
        }
    };
    let mut seen = Vec::new();
    let request = MoveRequest {
        expected_turn: turn - 1,
        input: &input,
    };
    game.play(owner, id, request, 100, rng, &mut |update| {
        if let TurnUpdate::Entry { index, entry } = update {
            seen.push((index, entry));
        }
    })
    .await?;
    streamed.extend(seen);
    game.ensure_actions(owner, id, 100).await?;
    Ok(())
}

#[tokio::test]
async fn the_snapshot_equals_a_replay_of_the_whole_log_after_thirty_turns() {
    let table = Table::serving(ScriptedLlm::from_steps(script()), GmSettings::default()).await;
    let (game, store) = (table.game(), &table.store);
    let mut rng = StdRng::seed_from_u64(30);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
    let id = game
        .create(&owner, &form, 1, &mut rng, &mut |_| {})
        .await
        .unwrap()
        .id;

    let mut streamed = Vec::new();
    let mut aborted = 0;
    for turn in 2..=TURNS {
        if let Err(error) = play_turn(&game, &owner, &id, turn, &mut rng, &mut streamed).await {
            assert!(matches!(error, ServiceError::Gm(_)), "{error:?}");
            aborted += 1;
            play_turn(&game, &owner, &id, turn, &mut rng, &mut streamed)
                .await
                .unwrap();
        }
    }
    assert_eq!(aborted, 1, "the scripted failure happened once");

    let (record, log) = store.log(&owner, &id).await.unwrap();
    assert_eq!(record.turn, TURNS);
    let replay = CampaignState::replay(&log).unwrap();
    let snapshot = store.current(&owner, &id).await.unwrap().state.unwrap();
    assert_eq!(
        *snapshot, replay.state,
        "the snapshot is the replay of the log"
    );
    assert!(
        snapshot.sheet.inventory().items().len() >= 5,
        "items were added"
    );
    assert!(snapshot.actions.is_some());

    let (start, stored) = store
        .story(&owner, &id, snapshot.story_len, u32::MAX)
        .await
        .unwrap();
    assert_eq!(start, 0);
    assert_eq!(stored, replay.story, "the stored story is the replay's");
    let opening = 1; // the opening scene was streamed to nobody
    let live: Vec<StoryEntry> = streamed.iter().map(|(_, entry)| entry.clone()).collect();
    assert_eq!(
        &stored[opening..],
        &live[..],
        "what the player saw live is what was stored"
    );
    assert!(
        streamed
            .iter()
            .enumerate()
            .all(|(n, (index, _))| *index as usize == n + opening),
        "indexes run on without gaps"
    );
    assert!(stored.iter().any(|e| matches!(
        e,
        StoryEntry::Roll {
            verdict: Some(_),
            ..
        }
    )));
    assert!(stored.iter().any(|e| matches!(e, StoryEntry::Changes { labels } if labels.iter().any(|l| l.contains("Shaken")))));
}
