//! Taking turns back: undo restores the campaign exactly, redo puts the turn back, a new move
//! after an undo replaces it, a retelling reuses the player's and the game master's rolls (every
//! other kind is in `kept_rolls`), and new actions replace the ones on offer; a roll once shown
//! is final, undo included. Another player who knows a campaign's id learns nothing and holds
//! nothing; restarts run one at a time. The snapshot equals a replay of the log throughout.

use crate::support::table::{Seat, Table};
use app::campaign::event::CampaignEvent;
use app::campaign::state::CampaignState;
use app::campaign::store::CampaignStore;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::gm::scripted::{Scenario, Step};
use app::gm::Purpose;
use app::service::{MoveRequest, ServiceError};
use app::wire::view::{CampaignView, MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

fn actions(id: &str) -> Step {
    Step::json(json!({"actions": [
        {"id": id, "description": "Strike the ghoul", "diceRoll": "1d20", "diceReason": "Attack", "difficultyClass": 12, "attribute": "STR"},
        {"id": "search", "description": "Search the alcove", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

/// Turn 2 hurts, gives an item and a condition, and the ghoul rolls; turn 3 is plain.
fn scenario() -> Scenario {
    let hurt = json!({"hpChange": -3, "addConditions": [{"name": "Poisoned", "duration": "1 hour", "notes": null}]});
    let steps = vec![
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
        Step::text("The ghoul's claw finds you; a bone charm falls from its rags."),
        Step::text("The crypt is quiet."),
        // The retelling of turn 2: the ghoul rolls the same dice.
        Step::call(
            "roll_dice",
            json!({"dice": "1d8+3", "reason": "Ghoul claw"}),
        ),
        Step::text("Told again: the claw rakes your shoulder."),
    ];
    Scenario {
        steps,
        actions: vec![
            actions("strike"),
            actions("strike"),
            actions("strike"),
            actions("again"),
            actions("fresh"),
        ],
        ..Scenario::default()
    }
}

/// A player's campaign in a crypt, at a table whose model plays a scenario.
struct World {
    seat: Seat,
    id: CampaignId,
}

impl World {
    async fn new() -> Self {
        Self::playing(scenario()).await
    }

    async fn playing(scenario: Scenario) -> Self {
        let mut seat = Seat::new(Table::playing(scenario).await, 13);
        let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
        let id = seat.create(&form).await;
        Self { seat, id }
    }

    async fn play(&mut self, turn: u32, input: MoveInput) {
        self.seat.play(&self.id, turn, input).await;
    }

    async fn view(&self) -> CampaignView {
        self.seat
            .game()
            .load(&self.seat.owner, &self.id, 3)
            .await
            .unwrap()
    }

    async fn state(&self) -> CampaignState {
        self.seat.state(&self.id).await
    }
}

fn strike() -> MoveInput {
    MoveInput::Action {
        id: "strike".into(),
    }
}

#[tokio::test]
async fn undo_restores_the_campaign_exactly_and_redo_puts_the_turn_back() {
    let mut w = World::new().await;
    let (before_state, before_view) = (w.state().await, w.view().await);
    w.play(2, strike()).await;
    let (after_state, after_view) = (w.state().await, w.view().await);
    assert_ne!(
        after_state.sheet, before_state.sheet,
        "the turn hurt, gave and poisoned"
    );

    let undone = w
        .seat
        .game()
        .undo(&w.seat.owner, &w.id, 2, 4)
        .await
        .unwrap();
    let state = w.state().await;
    assert_eq!(
        state.sheet, before_state.sheet,
        "the sheet exactly as before"
    );
    assert_eq!(state.actions, before_state.actions);
    assert_eq!(state.context, before_state.context);
    assert_eq!(state.journal, before_state.journal);
    assert_eq!(undone.story, before_view.story);
    assert_eq!((undone.summary.turn, undone.redoable), (1, 1));
    assert!(
        state.usage.prompt_tokens >= after_state.usage.prompt_tokens,
        "tokens spent stay spent"
    );

    let redone = w
        .seat
        .game()
        .redo(&w.seat.owner, &w.id, 1, 5)
        .await
        .unwrap();
    let state = w.state().await;
    assert_eq!(state.sheet, after_state.sheet);
    assert_eq!(state.actions, after_state.actions);
    assert_eq!(redone.story, after_view.story);
    assert_eq!((redone.summary.turn, redone.redoable), (2, 0));

    let stale = w.seat.game().undo(&w.seat.owner, &w.id, 1, 6).await;
    assert!(matches!(stale, Err(ServiceError::Stale { current: 2 })));
}

#[tokio::test]
async fn a_new_move_after_an_undo_replaces_the_undone_turn() {
    let mut w = World::new().await;
    w.play(2, strike()).await;
    w.seat
        .game()
        .undo(&w.seat.owner, &w.id, 2, 4)
        .await
        .unwrap();
    let opening = w.seat.game().undo(&w.seat.owner, &w.id, 1, 4).await;
    assert!(matches!(
        opening,
        Err(ServiceError::Invalid { field: "undo", .. })
    ));

    // Turn 2 again, another way (the scripted model's next scene, "The crypt is quiet.").
    let text = MoveInput::Text {
        text: "I back away".into(),
    };
    let request = MoveRequest {
        expected_turn: 1,
        input: &text,
    };
    let mut rng = w.seat.rng.clone();
    w.seat
        .game()
        .play(&w.seat.owner, &w.id, request, 7, &mut rng, &mut |_| {})
        .await
        .unwrap();
    let state = w.state().await;
    assert_eq!(state.redoable, 0, "the undone turn is gone for good");
    let redo = w.seat.game().redo(&w.seat.owner, &w.id, 2, 8).await;
    assert!(matches!(
        redo,
        Err(ServiceError::Invalid { field: "redo", .. })
    ));
    let view = w.view().await;
    assert!(!format!("{:?}", view.story).contains("bone charm falls"));
}

#[tokio::test]
async fn a_retelling_reuses_the_players_and_the_game_masters_rolls_and_new_actions_replace_the_offer(
) {
    let mut w = World::new().await;
    w.play(2, strike()).await;
    w.play(3, strike()).await;
    w.seat
        .game()
        .undo(&w.seat.owner, &w.id, 3, 4)
        .await
        .unwrap();
    let (_, log) = w.seat.table.store.log(&w.seat.owner, &w.id).await.unwrap();
    let rolls_of_turn_2 = |log: &[app::campaign::event::StoredEvent]| -> Vec<String> {
        app::campaign::timeline::timeline(log)
            .active
            .into_iter()
            .filter(|stored| stored.turn == 2)
            .filter_map(|stored| match &stored.event {
                CampaignEvent::Turn(TurnEvent::PlayerRoll { description, .. }) => {
                    Some(description.clone())
                }
                CampaignEvent::Turn(TurnEvent::ToolResult {
                    effect: Some(ToolEffect::Rolled { roll, reason }),
                    ..
                }) => Some(roll.describe(reason)),
                _ => None,
            })
            .collect()
    };
    let original = rolls_of_turn_2(&log);
    assert_eq!(original.len(), 2, "the player's roll and the ghoul's");

    let mut rng = StdRng::seed_from_u64(999);
    let retold = w
        .seat
        .game()
        .retell(&w.seat.owner, &w.id, 2, 9, &mut rng)
        .await
        .unwrap();
    assert!(format!("{:?}", retold.story).contains("Told again"));
    let (_, log) = w.seat.table.store.log(&w.seat.owner, &w.id).await.unwrap();
    assert_eq!(rolls_of_turn_2(&log), original, "the same dice, again");

    let requests = w.seat.table.llm.requests();
    let narration: Vec<_> = requests
        .iter()
        .filter(|request| request.purpose == Purpose::Narration)
        .collect();
    let seen = |request: &app::gm::LlmRequest| -> String {
        serde_json::to_string(&request.messages[1..]).unwrap()
    };
    let first_call = seen(narration[narration.len() - 2]);
    assert!(
        first_call.contains(&original[0]),
        "the player's roll: {first_call}"
    );
    let second_call = seen(narration[narration.len() - 1]);
    assert!(
        second_call.contains(&original[1]),
        "the model sees the ghoul's recorded roll: {second_call}"
    );
    let state = w.state().await;
    assert_eq!(state.turn, 2);
    assert_eq!(state.redoable, 0);

    let fresh = w
        .seat
        .game()
        .reoffer_actions(&w.seat.owner, &w.id, 2, 10)
        .await
        .unwrap();
    assert_eq!(fresh.actions[0].id, "fresh");
    assert_eq!(w.state().await.actions.unwrap().len(), 2);
}

/// Plain scenes and the same actions, again and again.
fn endless() -> Scenario {
    Scenario {
        steps: vec![Step::text("A crypt, knocking."), Step::text("Dust falls.")],
        actions: vec![actions("strike")],
        cycle: true,
        ..Scenario::default()
    }
}

/// The player's roll of the latest turn.
async fn latest_roll(w: &World) -> app::game::Resolution {
    let (_, log) = w.seat.table.store.log(&w.seat.owner, &w.id).await.unwrap();
    app::campaign::timeline::timeline(&log)
        .active
        .into_iter()
        .rev()
        .find_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::PlayerRoll { resolution, .. }) => {
                Some(resolution.clone())
            }
            _ => None,
        })
        .expect("a roll")
}

#[tokio::test]
async fn a_roll_once_shown_is_final_undo_included() {
    let mut w = World::playing(endless()).await;
    w.play(2, strike()).await;
    let shown = latest_roll(&w).await;
    for _ in 0..3 {
        w.seat
            .game()
            .undo(&w.seat.owner, &w.id, 2, 4)
            .await
            .unwrap();
        w.play(2, strike()).await;
        assert_eq!(
            latest_roll(&w).await,
            shown,
            "the same choice, the same dice"
        );
    }
    // A move without a roll in between does not wash the shown roll away.
    w.seat
        .game()
        .undo(&w.seat.owner, &w.id, 2, 4)
        .await
        .unwrap();
    w.play(
        2,
        MoveInput::Text {
            text: "I wait".into(),
        },
    )
    .await;
    w.seat
        .game()
        .undo(&w.seat.owner, &w.id, 2, 4)
        .await
        .unwrap();
    w.play(2, strike()).await;
    assert_eq!(latest_roll(&w).await, shown);
    // The next turn rolls afresh.
    w.play(3, strike()).await;
    w.state().await;
}

#[tokio::test]
async fn another_player_learns_nothing_and_holds_nothing() {
    use app::game::{JournalChange, Slug};
    let mut w = World::playing(endless()).await;
    w.play(2, strike()).await;
    let bob = PlayerId::random(&mut w.seat.rng);
    let held = w.seat.table.in_flight.take(&w.id).await.unwrap();
    for _ in 0..2 {
        let game = w.seat.game();
        let mut rng = w.seat.rng.clone();
        let pin = JournalChange::Pin {
            id: 1,
            pinned: true,
        };
        let charm = Slug::new("torch").unwrap();
        let answers = [
            game.undo(&bob, &w.id, 2, 5).await.map(|_| ()),
            game.redo(&bob, &w.id, 2, 5).await.map(|_| ()),
            game.retell(&bob, &w.id, 2, 5, &mut rng).await.map(|_| ()),
            game.reoffer_actions(&bob, &w.id, 2, 5).await.map(|_| ()),
            game.edit_journal(&bob, &w.id, pin, 5).await.map(|_| ()),
            game.drop_item(&bob, &w.id, &charm, 5).await.map(|_| ()),
            game.summarize(&bob, &w.id, 5).await.map(|_| ()),
            game.restart(&bob, &w.id, 5, &mut rng).await.map(|_| ()),
        ];
        for (which, answer) in answers.into_iter().enumerate() {
            assert!(
                matches!(answer, Err(ServiceError::NotFound)),
                "request {which}: not found, never busy: {answer:?}"
            );
        }
    }
    drop(held);
    assert!(
        w.seat
            .table
            .in_flight
            .try_take(&w.id)
            .await
            .unwrap()
            .is_some(),
        "the owner finds the campaign free"
    );
}

#[tokio::test]
async fn two_restarts_at_once_leave_one_new_campaign() {
    let mut w = World::playing(endless()).await;
    w.play(2, strike()).await;
    let (mut one, mut two) = (w.seat.rng.clone(), StdRng::seed_from_u64(5));
    let game = w.seat.game();
    let (first, second) = tokio::join!(
        game.restart(&w.seat.owner, &w.id, 6, &mut one),
        game.restart(&w.seat.owner, &w.id, 6, &mut two),
    );
    let started = [&first, &second].iter().filter(|r| r.is_ok()).count();
    assert_eq!(started, 1, "{first:?} {second:?}");
    let campaigns = game.list(&w.seat.owner, 0).await.unwrap().campaigns;
    assert_eq!(
        campaigns.len(),
        1,
        "one campaign, the new one: {campaigns:?}"
    );
}
