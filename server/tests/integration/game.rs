//! The game service over the SQLite store and the scripted model: phases commit atomically,
//! stale and foreign requests are refused, a failed phase leaves the campaign as it was.

use crate::support::guard::{actions, form};
use crate::support::table::Table;
use app::campaign::store::CampaignStore;
use app::gm::scripted::{Scenario, ScriptedError, ScriptedLlm, Step};
use app::gm::{GmSettings, Purpose, ToolChoice};
use app::service::{Game, Loaded, MoveRequest, ServiceError, TRASH_DAYS};
use app::wire::errors::AppError;
use app::wire::present::actions::{action_views, proposal_views};
use app::wire::present::fight::encounter_view;
use app::wire::present::map::campaign_map;
use app::wire::present::sheet::sheet_view;
use app::wire::view::{CampaignSummary, CampaignView, MoveInput, StoryEntry};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};

struct World {
    table: Table,
    rng: StdRng,
}

async fn world(steps: Vec<Step>) -> World {
    World {
        table: Table::serving(ScriptedLlm::from_steps(steps), GmSettings::default()).await,
        rng: StdRng::seed_from_u64(5),
    }
}

impl World {
    fn game(&self) -> Game<'_> {
        self.table.game()
    }

    /// The campaign as stored, without generating anything.
    async fn seen(&self, owner: &PlayerId, id: &CampaignId) -> CampaignView {
        let game = self.game();
        let Loaded { record, state, .. } = game.current(owner, id).await.unwrap();
        let story = game.story_page(owner, id, state.story_len).await.unwrap();
        CampaignView {
            summary: CampaignSummary {
                id: record.id,
                title: record.title,
                updated_at: record.updated_at,
                last_played: String::new(),
                turn: record.turn,
                spend: Default::default(),
            },
            story,
            sheet: sheet_view(&state.sheet),
            actions: action_views(&state),
            tokens: (state.usage.prompt_tokens, state.usage.completion_tokens),
            model: String::new(),
            journal: state.journal.entries().to_vec(),
            map: campaign_map(&state),
            redoable: state.redoable,
            encounter: encounter_view(&state),
            approval: state.approval,
            proposals: proposal_views(&state),
            spine: app::wire::present::spine::spine_view(&state.spine),
            agreement: state.agreement.clone(),
            table: app::wire::view::TableView {
                members: app::wire::present::table::table_members(&state, &[]),
                you: 1,
                ..Default::default()
            },
            pictures: app::wire::view::PicturesView {
                on: false,
                portrait: state.pictures.portrait.clone(),
            },
        }
    }

    async fn create(&mut self, owner: &PlayerId) -> CampaignView {
        let mut rng = self.rng.clone();
        let summary = self
            .game()
            .create(owner, &form(), 100, &mut rng, &mut |_| {})
            .await
            .unwrap();
        self.rng = rng;
        self.seen(owner, &summary.id).await
    }

    async fn play(
        &mut self,
        owner: &PlayerId,
        view: &CampaignView,
        input: MoveInput,
    ) -> Result<CampaignView, ServiceError> {
        let mut rng = self.rng.clone();
        let result = self
            .game()
            .play(
                owner,
                &view.summary.id,
                MoveRequest {
                    expected_turn: view.summary.turn,
                    input: &input,
                },
                200,
                &mut rng,
                &mut |_| {},
            )
            .await;
        self.rng = rng;
        result?;
        Ok(self.seen(owner, &view.summary.id).await)
    }
}

fn player(seed: u64) -> PlayerId {
    PlayerId::random(&mut StdRng::seed_from_u64(seed))
}

#[tokio::test]
async fn a_new_campaign_has_its_opening_scene_and_actions() {
    let mut w = world(vec![Step::text("A guard *yawns* by the door."), actions()]).await;
    let view = w.create(&player(1)).await;

    assert_eq!(view.summary.turn, 1);
    assert_eq!(view.summary.title, "Mira the Ranger");
    assert!(
        matches!(&view.story.entries[..], [StoryEntry::Scene { html, .. }] if html.contains("<em>yawns</em>"))
    );
    assert_eq!(view.actions.len(), 2);
    assert_eq!(view.actions[0].badge.as_deref(), Some("1d20+2 vs DC 12"));
    let listed = w.game().list(&player(1), 0).await.unwrap().campaigns;
    assert_eq!(listed.len(), 1);
}

#[tokio::test]
async fn choosing_an_action_rolls_narrates_and_advances_the_turn() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::text("You slip by."),
        actions(),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;

    let after = w
        .play(&owner, &view, MoveInput::Action { id: "sneak".into() })
        .await
        .unwrap();

    assert_eq!(after.summary.turn, 2);
    assert!(after.actions.is_empty(), "phase 2 has not run yet");
    let new: Vec<&StoryEntry> = after.story.entries.iter().skip(1).collect();
    assert!(matches!(new[0], StoryEntry::Move { text, .. } if text == "Sneak past the guard"));
    assert!(
        matches!(new[1], StoryEntry::Roll { line, verdict: Some(_), .. } if line.contains("vs DC 12"))
    );
    let loaded = w.game().load(&owner, &after.summary.id, 300).await.unwrap();
    assert_eq!(loaded.actions.len(), 2, "actions are generated on load");
}

#[tokio::test]
async fn a_failure_during_narration_stores_nothing_and_can_be_retried() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::error(ScriptedError::Server),
        Step::text("You wait."),
        actions(),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let input = MoveInput::Text {
        text: "I wait".into(),
    };

    let failed = w.play(&owner, &view, input.clone()).await.unwrap_err();
    assert!(matches!(failed, ServiceError::Gm(_)), "{failed:?}");
    let shown = app::wire::errors::AppError::from(failed);
    assert!(
        matches!(
            shown,
            AppError::GameMasterUnavailable {
                retryable: true,
                ..
            }
        ),
        "{shown:?}"
    );
    assert!(shown.to_string().contains("nothing was lost"), "{shown}");
    let unchanged = w.seen(&owner, &view.summary.id).await;
    assert_eq!(unchanged, view, "the campaign is exactly as before");

    let retried = w.play(&owner, &view, input).await.unwrap();
    assert_eq!(retried.summary.turn, 2);
}

#[tokio::test]
async fn a_move_for_a_stale_turn_is_refused() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::text("You wait."),
        Step::text("Also you wait."),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let input = MoveInput::Text {
        text: "I wait".into(),
    };

    w.play(&owner, &view, input.clone()).await.unwrap();
    let second_tab = w.play(&owner, &view, input).await.unwrap_err();

    assert!(
        matches!(second_tab, ServiceError::Stale { current: 2 }),
        "{second_tab:?}"
    );
}

#[tokio::test]
async fn two_simultaneous_moves_one_wins() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::text("First."),
        Step::text("Second."),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let game = w.game();
    let (mut rng_a, mut rng_b) = (StdRng::seed_from_u64(1), StdRng::seed_from_u64(2));
    let (a, b) = (
        MoveInput::Text { text: "A".into() },
        MoveInput::Text { text: "B".into() },
    );

    let (mut sink_a, mut sink_b) = (|_| {}, |_| {});
    let (first, second) = tokio::join!(
        game.play(
            &owner,
            &view.summary.id,
            MoveRequest {
                expected_turn: 1,
                input: &a
            },
            200,
            &mut rng_a,
            &mut sink_a
        ),
        game.play(
            &owner,
            &view.summary.id,
            MoveRequest {
                expected_turn: 1,
                input: &b
            },
            200,
            &mut rng_b,
            &mut sink_b
        ),
    );

    let results = [first.map(|(turn, _)| turn), second.map(|(turn, _)| turn)];
    assert_eq!(
        results.iter().filter(|r| matches!(r, Ok(2))).count(),
        1,
        "{results:?}"
    );
    assert!(
        results.iter().any(|r| matches!(
            r,
            Err(ServiceError::Busy | ServiceError::Stale { current: 2 })
        )),
        "the other is refused without a second narration: {results:?}"
    );
    assert_eq!(
        w.table.llm.requests().len(),
        3,
        "opening, actions and one narration"
    );
}

#[tokio::test]
async fn another_player_cannot_see_or_play_a_campaign() {
    let mut w = world(vec![Step::text("A guard."), actions()]).await;
    let view = w.create(&player(1)).await;
    let stranger = player(2);

    assert!(matches!(
        w.game()
            .load(&stranger, &view.summary.id, 1)
            .await
            .unwrap_err(),
        ServiceError::NotFound
    ));
    assert!(matches!(
        w.play(&stranger, &view, MoveInput::Text { text: "Hi".into() })
            .await
            .unwrap_err(),
        ServiceError::NotFound
    ));
    assert!(w
        .game()
        .list(&stranger, 0)
        .await
        .unwrap()
        .campaigns
        .is_empty());
}

#[tokio::test]
async fn an_action_not_on_offer_and_empty_text_are_refused() {
    let mut w = world(vec![Step::text("A guard."), actions()]).await;
    let owner = player(1);
    let view = w.create(&owner).await;

    let forged = w
        .play(
            &owner,
            &view,
            MoveInput::Action {
                id: "win-the-game".into(),
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(forged, ServiceError::Invalid { .. }), "{forged:?}");
    let empty = w
        .play(&owner, &view, MoveInput::Text { text: "   ".into() })
        .await
        .unwrap_err();
    assert!(matches!(empty, ServiceError::Invalid { .. }), "{empty:?}");
    assert_eq!(w.table.llm.remaining(), Some(0), "the model was not called");
}

#[tokio::test]
async fn a_failed_opening_creates_nothing() {
    let w = world(vec![Step::error(ScriptedError::Timeout)]).await;
    let owner = player(1);
    let mut rng = w.rng.clone();
    let result = w
        .game()
        .create(&owner, &form(), 100, &mut rng, &mut |_| {})
        .await;
    assert!(matches!(result, Err(ServiceError::Gm(_))));
    assert!(w.game().list(&owner, 0).await.unwrap().campaigns.is_empty());
}

#[tokio::test]
async fn starting_over_gives_a_fresh_campaign_with_the_same_premise_and_character() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::text("You wait."),
        Step::text("A new dawn at the gate."),
        actions(),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    w.play(
        &owner,
        &view,
        MoveInput::Text {
            text: "I wait".into(),
        },
    )
    .await
    .unwrap();

    let mut rng = StdRng::seed_from_u64(8);
    let fresh = w
        .game()
        .restart(&owner, &view.summary.id, 500, &mut rng)
        .await
        .unwrap();
    let fresh = w.seen(&owner, &fresh.id).await;

    assert_eq!(fresh.summary.turn, 1);
    assert_eq!(fresh.summary.title, "Mira the Ranger");
    assert_eq!(fresh.story.entries.len(), 1, "only the new opening scene");
    let opening = &w.table.llm.requests()[3].messages;
    assert!(
        matches!(&opening[1], app::gm::Message::User { content } if content.contains("A guard blocks the crypt.")),
        "the same premise opens the new campaign"
    );
    assert!(matches!(
        w.game()
            .load(&owner, &view.summary.id, 1)
            .await
            .unwrap_err(),
        ServiceError::NotFound
    ));
    assert_eq!(w.game().list(&owner, 0).await.unwrap().campaigns.len(), 1);
}

#[tokio::test]
async fn a_saved_opening_survives_a_failure_of_its_first_actions() {
    let mut w = world(vec![
        Step::text("A guard."),
        Step::error(ScriptedError::Timeout),
        actions(),
    ])
    .await;
    let owner = player(1);

    let view = w.create(&owner).await;

    assert_eq!(view.summary.turn, 1);
    assert!(view.actions.is_empty(), "the actions come later");
    assert_eq!(
        w.game().list(&owner, 0).await.unwrap().campaigns.len(),
        1,
        "no duplicate on retry needed"
    );
    let loaded = w.game().load(&owner, &view.summary.id, 300).await.unwrap();
    assert_eq!(loaded.actions.len(), 2, "generated on load");
}

#[tokio::test]
async fn a_campaign_stored_before_snapshots_is_rebuilt_from_its_log_on_load() {
    let mut w = world(vec![
        Step::text("A guard."),
        actions(),
        Step::text("You wait."),
        actions(),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let played = w
        .play(
            &owner,
            &view,
            MoveInput::Text {
                text: "I wait".into(),
            },
        )
        .await
        .unwrap();
    w.game()
        .ensure_actions(&owner, &view.summary.id, 300)
        .await
        .unwrap();
    let before = w.seen(&owner, &view.summary.id).await;
    assert_eq!(before.story.entries.len(), 3, "{:?}", played.story);

    // What the previous version stored: the campaign row and its log, nothing derived.
    let pool = sqlx::SqlitePool::connect(&w.table.url).await.unwrap();
    sqlx::query("DELETE FROM snapshots")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM story")
        .execute(&pool)
        .await
        .unwrap();
    // Loaded by the new version: a process started afresh.
    w.table.store = server::store::SqlStore::open(&w.table.url).await.unwrap();
    assert_eq!(
        app::campaign::store::CampaignStore::current(&w.table.store, &owner, &view.summary.id)
            .await
            .unwrap()
            .state,
        None
    );

    let loaded = w.game().load(&owner, &view.summary.id, 400).await.unwrap();
    assert_eq!(
        loaded.story, before.story,
        "the story is rebuilt from the log"
    );
    assert_eq!(loaded.actions, before.actions);
    assert_eq!(loaded.sheet, before.sheet);
    let rebuilt =
        app::campaign::store::CampaignStore::current(&w.table.store, &owner, &view.summary.id)
            .await
            .unwrap();
    assert!(rebuilt.state.is_some(), "and saved as the new snapshot");
}

#[tokio::test]
async fn an_outcome_table_is_shown_before_its_die_is_rolled_and_the_face_picks_the_row() {
    use app::wire::view::{LedgerRow, TurnUpdate};
    let outcomes = |second: u8| {
        serde_json::json!({"name": "Who answers the door?", "die": "d6", "outcomes": [
            {"from": 1, "to": 3, "outcome": "nobody"},
            {"from": second, "to": 6, "outcome": "a ghoul"}
        ]})
    };
    let mut w = world(vec![
        Step::text("A door."),
        actions(),
        Step::call("roll_on_table", outcomes(5)),
        Step::call("roll_on_table", outcomes(4)),
        Step::text("The door creaks."),
        actions(),
    ])
    .await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let mut updates = Vec::new();
    let mut rng = w.rng.clone();
    let input = MoveInput::Text {
        text: "I knock".into(),
    };
    let request = MoveRequest {
        expected_turn: view.summary.turn,
        input: &input,
    };
    w.game()
        .play(
            &owner,
            &view.summary.id,
            request,
            200,
            &mut rng,
            &mut |update| updates.push(update),
        )
        .await
        .unwrap();

    // The table with a gap was refused: only the second is shown, then rolled.
    let shown = updates
        .iter()
        .position(|update| matches!(update, TurnUpdate::TablePending { .. }))
        .expect("the table is shown before its roll");
    let rolled = updates
        .iter()
        .position(|update| {
            matches!(
                update,
                TurnUpdate::Entry {
                    entry: StoryEntry::Table { .. },
                    ..
                }
            )
        })
        .expect("then rolled");
    assert!(shown < rolled);
    let pending = updates
        .iter()
        .filter(|update| matches!(update, TurnUpdate::TablePending { .. }))
        .count();
    assert_eq!(pending, 1, "a refused table is never shown");
    let stored = w.seen(&owner, &view.summary.id).await;
    let Some(StoryEntry::Table {
        table,
        dice,
        chosen,
        analysis,
    }) = stored
        .story
        .entries
        .iter()
        .find(|entry| matches!(entry, StoryEntry::Table { .. }))
    else {
        panic!("the story keeps the table: {:?}", stored.story.entries);
    };
    let face = dice[0].face;
    assert_eq!((dice.len(), dice[0].sides), (1, 6));
    assert_eq!(*chosen, u32::from(face > 3), "face {face}");
    assert_eq!(table.rows[1].range, "4–6");
    assert!(analysis.contains("nobody 3 in 6 (50%)"), "{analysis}");
    let ledger = w
        .game()
        .ledger(&owner, &view.summary.id, None)
        .await
        .unwrap();
    let row = ledger.rows.iter().find_map(|row| match row {
        LedgerRow::Roll {
            reason, verdict, ..
        } if reason.starts_with("Table") => Some((reason.clone(), verdict.clone())),
        _ => None,
    });
    let outcome = if face > 3 { "a ghoul" } else { "nobody" };
    assert_eq!(
        row,
        Some((
            "Table: Who answers the door?".to_owned(),
            Some(outcome.to_owned())
        ))
    );
}

#[tokio::test]
async fn a_question_out_of_character_is_answered_and_changes_nothing() {
    let scenario = Scenario {
        steps: vec![Step::text("A guard dozes under the arch."), actions()],
        answers: vec![Step::text(
            "  The ledge is four metres up; you would have to climb.  ",
        )],
        ..Scenario::default()
    };
    let table = Table::serving(ScriptedLlm::new(scenario), GmSettings::default()).await;
    let mut rng = StdRng::seed_from_u64(5);
    let owner = player(1);
    let game = table.game();
    let id = game
        .create(&owner, &form(), 100, &mut rng, &mut |_| {})
        .await
        .unwrap()
        .id;
    let before = game.current(&owner, &id).await.unwrap();
    let (_, log_before) = table.store.log(&owner, &id).await.unwrap();

    let answered = game
        .ask(&owner, &id, "  Can I reach the ledge from here?\n")
        .await
        .unwrap();
    assert_eq!(answered.question, "Can I reach the ledge from here?");
    assert_eq!(
        answered.answer,
        "The ledge is four metres up; you would have to climb."
    );
    assert_eq!(answered.turn, before.record.turn);

    let request = table.llm.requests().pop().unwrap();
    assert_eq!(request.purpose, Purpose::Question);
    assert!(request.tools.is_empty() && request.tool_choice == ToolChoice::None);
    let asked = serde_json::to_string(&request.messages).unwrap();
    assert!(
        asked.contains("Can I reach the ledge from here?") && asked.contains("# The character now")
    );

    let after = game.current(&owner, &id).await.unwrap();
    assert_eq!(after.state, before.state, "nothing changed");
    assert_eq!(
        after.request, before.request,
        "the inspector's request is the scene's"
    );
    let (_, log_after) = table.store.log(&owner, &id).await.unwrap();
    assert_eq!(log_after, log_before, "nothing was written");

    for bad in ["   ", &"x".repeat(501)] {
        let refused = game.ask(&owner, &id, bad).await;
        assert!(
            matches!(
                refused,
                Err(ServiceError::Invalid {
                    field: "question",
                    ..
                })
            ),
            "{refused:?}"
        );
    }
    let someone = game.ask(&player(2), &id, "Where am I?").await;
    assert!(
        matches!(someone, Err(ServiceError::NotFound)),
        "{someone:?}"
    );
}

#[tokio::test]
async fn a_deleted_campaign_is_restored_within_thirty_days_and_gone_after() {
    let mut w = world(vec![Step::text("A guard."), actions()]).await;
    let owner = player(1);
    let id = w.create(&owner).await.summary.id;
    let game = w.game();
    let day = 86_400;
    let deleted_at = 1_000_000;
    game.delete(&owner, &id, deleted_at).await.unwrap();
    assert!(game.list(&owner, 0).await.unwrap().campaigns.is_empty());
    assert!(matches!(
        game.current(&owner, &id).await,
        Err(ServiceError::NotFound)
    ));
    let trash = game.trash(&owner, deleted_at + 2 * day).await.unwrap();
    assert_eq!(trash.len(), 1);
    assert_eq!(
        (trash[0].campaign.id.clone(), trash[0].days_left),
        (id.clone(), 28)
    );
    assert!(game.trash(&player(2), deleted_at).await.unwrap().is_empty());
    let someone = game.restore(&player(2), &id, deleted_at).await;
    assert!(matches!(
        someone,
        Err(ServiceError::Invalid {
            field: "campaign",
            ..
        })
    ));

    game.restore(&owner, &id, deleted_at + 29 * day)
        .await
        .unwrap();
    assert_eq!(game.list(&owner, 0).await.unwrap().campaigns.len(), 1);

    game.delete(&owner, &id, deleted_at).await.unwrap();
    let late = game
        .restore(&owner, &id, deleted_at + TRASH_DAYS * day + 1)
        .await;
    let Err(error @ ServiceError::Invalid { .. }) = late else {
        panic!("{late:?}");
    };
    assert!(error.to_string().contains("kept 30 days"), "{error}");
    // A look at the trash past the days deletes it for good.
    assert!(game
        .trash(&owner, deleted_at + TRASH_DAYS * day + 1)
        .await
        .unwrap()
        .is_empty());
    assert!(
        game.trash(&owner, 0).await.unwrap().is_empty(),
        "gone for good"
    );
}

#[tokio::test]
async fn a_campaign_is_renamed_by_its_owner_only_and_a_bad_title_changes_nothing() {
    let mut w = world(vec![Step::text("A guard."), actions()]).await;
    let owner = player(1);
    let view = w.create(&owner).await;
    let id = view.summary.id;
    let game = w.game();
    let saved = game
        .rename(&owner, &id, "  The   long\u{7} night ")
        .await
        .unwrap();
    assert_eq!(saved, "The long night");
    let listed = game.list(&owner, 0).await.unwrap().campaigns;
    assert_eq!(listed[0].title, "The long night");

    for bad in ["   ", &"x".repeat(101), &"y".repeat(10_000)] {
        let refused = game.rename(&owner, &id, bad).await;
        assert!(
            matches!(refused, Err(ServiceError::Invalid { field: "title", .. })),
            "{refused:?}"
        );
    }
    let someone = game.rename(&player(2), &id, "Mine now").await;
    assert!(
        matches!(someone, Err(ServiceError::NotFound)),
        "{someone:?}"
    );
    let listed = game.list(&owner, 0).await.unwrap().campaigns;
    assert_eq!(listed[0].title, "The long night");
}
