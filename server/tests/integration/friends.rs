//! A table of friends through the game service, on both databases: the host invites, a friend
//! joins with a character of their own, a round with two seats is narrated once with each
//! seat's roll made against its own sheet, a tool names whose sheet it changes, a seat is
//! removed; a stranger, a used invitation and a fifth player are refused and change nothing.

use app::campaign::event::CampaignEvent;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::creation::CharacterDraft;
use app::game::fight::{FightMove, FightStep};
use app::game::party::Seat;
use app::gm::scripted::{Scenario, ScriptedLlm};
use app::gm::GmSettings;
use app::service::live::LiveTurns;
use app::service::table::Table;
use app::service::{Game, ServiceError, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign, RoundState, StoryEntry};
use app::wire::{CampaignId, PlayerId};
use rand::rngs::StdRng;
use rand::SeedableRng;
use server::store::{Backend, SqlStore};

use crate::support::databases::fresh;

/// The opening, then a round whose scene has the game master hurt the friend by name, and the
/// actions offered after each scene (one of them rolls Dexterity against DC 12).
fn scenario() -> Scenario {
    serde_json::from_value(serde_json::json!({
        "steps": [
            {"text": "Rain on the old bridge. A troll counts coins under it."},
            {"json": {"actions": [
                {"id": "sneak", "description": "Sneak along the railing", "diceRoll": "1d20",
                 "diceReason": "Dexterity", "difficultyClass": 12, "attribute": "DEX"},
                {"id": "talk", "description": "Hail the troll", "diceRoll": null,
                 "diceReason": null, "difficultyClass": null, "attribute": null}]}},
            {"tool_calls": [
                {"name": "roll_dice", "arguments": {"dice": "1d4", "reason": "A splinter"}},
                {"name": "update_character", "arguments": {"character": "Mira", "hpChange": -1}}]},
            {"text": "The troll looks up from its coins."},
            {"json": {"actions": [
                {"id": "run", "description": "Run for the far bank", "diceRoll": null,
                 "diceReason": null, "difficultyClass": null, "attribute": null}]}}
        ]
    }))
    .unwrap()
}

struct World {
    store: SqlStore,
    llm: ScriptedLlm,
    gm: GmSettings,
    in_flight: TurnsInFlight,
    live: LiveTurns,
    _database: crate::support::databases::TestDatabase,
}

impl World {
    async fn new(backend: Backend) -> Self {
        let database = fresh(backend).await;
        let store = SqlStore::open(&database.url).await.unwrap();
        Self {
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store.clone())),
            store,
            llm: ScriptedLlm::new(scenario()),
            gm: GmSettings::default(),
            live: LiveTurns::default(),
            _database: database,
        }
    }

    fn game(&self) -> Game<'_> {
        Game {
            store: &self.store,
            llm: &self.llm,
            gm: &self.gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }

    fn table(&self) -> Table<'_> {
        Table {
            game: self.game(),
            tables: &self.store,
            live: &self.live,
        }
    }

    /// A new campaign of `form` for `host`, its opening told.
    async fn open(&self, host: &PlayerId, form: &NewCampaign, rng: &mut StdRng) -> CampaignId {
        self.game()
            .create(host, form, 1, rng, &mut |_| {})
            .await
            .unwrap()
            .id
    }

    async fn invite(&self, host: &PlayerId, id: &CampaignId, rng: &mut StdRng) -> String {
        let invitation = self.table().invite(host, id, 10, rng).await.unwrap();
        invitation.path.trim_start_matches("/join/").to_owned()
    }

    async fn submit(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        turn: u32,
        input: MoveInput,
        rng: &mut StdRng,
    ) -> Result<RoundState, ServiceError> {
        self.table()
            .submit(player, id, turn, &input, 20, rng, &mut |_| {})
            .await
    }
}

fn rogue(name: &str) -> CharacterDraft {
    CharacterDraft {
        name: name.into(),
        class: "Rogue".into(),
        ..CharacterDraft::default()
    }
}

fn refusal(result: Result<impl std::fmt::Debug, ServiceError>) -> String {
    match result {
        Err(ServiceError::Invalid { reason, .. }) => reason.to_string(),
        other => panic!("not refused as invalid: {other:?}"),
    }
}

async fn friends_play_a_round_at_one_table(backend: Backend) {
    let world = World::new(backend).await;
    let mut rng = StdRng::seed_from_u64(20261128);
    let host = PlayerId::random(&mut rng);
    let friend = PlayerId::random(&mut rng);
    let stranger = PlayerId::random(&mut rng);
    let form = NewCampaign::new("A troll bridge", "Aria", "Fighter");
    let id = world.open(&host, &form, &mut rng).await;
    world.game().ensure_actions(&host, &id, 1).await.unwrap();

    // Invited, the friend joins with a Rogue of their own; the invitation opens once only.
    let code = world.invite(&host, &id, &mut rng).await;
    let joined = world
        .table()
        .join(&friend, &code, &rogue("Mira"), 11)
        .await
        .unwrap();
    assert_eq!(joined, id);
    let second = PlayerId::random(&mut rng);
    assert!(
        refusal(world.table().join(&second, &code, &rogue("Bran"), 12).await)
            .contains("was used already")
    );
    let place = world.table().place(&friend, &id).await.unwrap();
    assert_eq!(
        (place.owner.clone(), place.seat),
        (host.clone(), Seat::new(2).unwrap())
    );
    // A stranger learns nothing, and cannot move.
    assert!(matches!(
        world.table().place(&stranger, &id).await,
        Err(ServiceError::NotFound)
    ));
    assert!(matches!(
        world.table().load(&stranger, &id, 13).await,
        Err(ServiceError::NotFound)
    ));
    let state = world.game().current(&host, &id).await.unwrap().state;
    assert_eq!(state.party.members().len(), 1);
    let turn = state.turn;

    // The host's move waits for the friend's; the friend's completes the round.
    let host_move = MoveInput::Action { id: "talk".into() };
    match world
        .submit(&host, &id, turn, host_move, &mut rng)
        .await
        .unwrap()
    {
        RoundState::Waiting { table } => {
            assert!(table.members.iter().any(|m| m.seat == Some(1) && m.moved));
            assert!(table.members.iter().any(|m| m.name == "Mira" && !m.moved));
        }
        other => panic!("the round did not wait: {other:?}"),
    }
    let friend_move = MoveInput::Action { id: "sneak".into() };
    let narrated = world
        .submit(&friend, &id, turn, friend_move, &mut rng)
        .await
        .unwrap();
    assert!(matches!(narrated, RoundState::Narrated { turn: t, .. } if t == turn + 1));
    let loaded = world.game().current(&host, &id).await.unwrap();
    let (_, log) = world.store_log(&host, &id).await;
    let moved: Vec<&TurnEvent> = log
        .iter()
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(event @ TurnEvent::SeatMoved { .. }) => Some(event),
            _ => None,
        })
        .collect();
    // Narrated once for both seats.
    let scenes = log
        .iter()
        .filter(|stored| stored.turn == turn + 1)
        .filter(|stored| {
            matches!(
                stored.event,
                CampaignEvent::Turn(TurnEvent::Narration { .. })
            )
        })
        .count();
    assert_eq!(scenes, 1);
    let [TurnEvent::SeatMoved {
        name,
        roll: Some(roll),
        ..
    }] = moved.as_slice()
    else {
        panic!("one seat move with its roll: {moved:?}");
    };
    assert_eq!(name, "Mira");
    // The friend's roll is their own: Mira's Dexterity, not Aria's.
    let mira = &loaded.state.party.members()[0].sheet;
    let dex = mira.check_bonus(app::game::Attribute::Dexterity, None);
    assert_eq!(roll.resolution.roll().attribute(), Some(dex));
    assert_ne!(
        Some(
            loaded
                .state
                .sheet
                .check_bonus(app::game::Attribute::Dexterity, None)
        ),
        roll.resolution.roll().attribute()
    );
    // The tool named Mira: her sheet took the damage, the host's did not.
    let for_mira = log.iter().any(|stored| {
        matches!(&stored.event, CampaignEvent::Turn(TurnEvent::ToolResult {
            effect: Some(ToolEffect::ForMember { name, .. }), .. }) if name == "Mira")
    });
    assert!(for_mira);
    assert_eq!(mira.hit_points().current() + 1, mira.hit_points().max());
    assert_eq!(
        loaded.state.sheet.hit_points().current(),
        loaded.state.sheet.hit_points().max()
    );
    let story = world
        .game()
        .story_page(&host, &id, loaded.state.story_len)
        .await
        .unwrap();
    assert!(story.entries.iter().any(|entry| matches!(entry,
        StoryEntry::Move { by: Some(by), text } if by == "Mira" && text.starts_with("Sneak"))));
    assert!(story.entries.iter().any(|entry| matches!(entry,
        StoryEntry::Changes { labels } if labels.iter().any(|l| l.starts_with("Mira: ")))));
    // The friend's screen opens on the same story.
    let seen = world.table().load(&friend, &id, 30).await.unwrap();
    assert_eq!(seen.table.you, 2);
    assert_eq!(
        seen.sheet.name, "Mira",
        "a friend's screen shows their own hero"
    );
    assert_eq!(seen.summary.turn, turn + 1);

    // A file carries the friend's hero, never who plays it or how they came; it reads back.
    let export = world.game().export(&host, &id).await.unwrap();
    let file = serde_json::to_string(&export).unwrap();
    assert!(file.contains(r#""event":"seated""#) && file.contains("Mira"));
    assert!(!file.contains(friend.as_str()));
    assert!(!file.contains(&code));
    let imported = world
        .game()
        .import(&stranger, &file, 29, &mut rng)
        .await
        .unwrap();
    let copy = world
        .game()
        .current(&stranger, &imported.id)
        .await
        .unwrap()
        .state;
    assert_eq!(copy.party, loaded.state.party);

    // Removed, the friend sees nothing more, and their hero leaves the story.
    world
        .table()
        .remove(&host, &id, Seat::new(2).unwrap(), 40)
        .await
        .unwrap();
    assert!(matches!(
        world.table().place(&friend, &id).await,
        Err(ServiceError::NotFound)
    ));
    let state = world.game().current(&host, &id).await.unwrap().state;
    assert!(state.party.is_empty());
    let again = MoveInput::Action { id: "run".into() };
    assert!(matches!(
        world
            .submit(&friend, &id, state.turn, again, &mut rng)
            .await,
        Err(ServiceError::NotFound)
    ));
}

async fn a_table_holds_four_players_at_most(backend: Backend) {
    let world = World::new(backend).await;
    let mut rng = StdRng::seed_from_u64(7);
    let host = PlayerId::random(&mut rng);
    let form = NewCampaign::new("A troll bridge", "Aria", "Fighter");
    let id = world.open(&host, &form, &mut rng).await;
    for name in ["Bran", "Cato", "Dara"] {
        let code = world.invite(&host, &id, &mut rng).await;
        let friend = PlayerId::random(&mut rng);
        world
            .table()
            .join(&friend, &code, &rogue(name), 11)
            .await
            .unwrap();
    }
    assert!(refusal(world.table().invite(&host, &id, 12, &mut rng).await).contains("full"));
    // A name taken at the table is refused before the invitation is spent.
    let fresh_id = world.open(&host, &form, &mut rng).await;
    let code = world.invite(&host, &fresh_id, &mut rng).await;
    let friend = PlayerId::random(&mut rng);
    assert!(
        refusal(world.table().join(&friend, &code, &rogue("aria"), 13).await)
            .contains("already at the table")
    );
    // A friend cannot invite; an expired invitation opens nothing.
    let late = world
        .table()
        .invite(&host, &fresh_id, 14, &mut rng)
        .await
        .unwrap();
    let code = late.path.trim_start_matches("/join/");
    let after_a_day = late.expires_at + 1;
    assert!(refusal(
        world
            .table()
            .join(&friend, code, &rogue("Eve"), after_a_day)
            .await
    )
    .contains("run out"));
}

impl World {
    async fn store_log(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> (
        app::campaign::store::CampaignRecord,
        Vec<app::campaign::event::StoredEvent>,
    ) {
        use app::campaign::store::CampaignStore;
        self.store.log(owner, id).await.unwrap()
    }
}

/// A goblin fight at a table of two heroes and a companion.
fn fight_scenario() -> Scenario {
    let plain = serde_json::json!({"json": {"actions": [
        {"id": "look", "description": "Look around", "diceRoll": null, "diceReason": null,
         "difficultyClass": null, "attribute": null}]}});
    serde_json::from_value(serde_json::json!({
        "steps": [
            {"text": "A goblin camp smokes in the hollow."},
            plain.clone(),
            {"tool_calls": [{"name": "start_encounter", "arguments": {"foes": ["Goblin", "Goblin"]}}]},
            {"text": "Two goblins leap out of the smoke."},
            plain.clone(),
            {"text": "Steel rings in the hollow."},
            plain
        ]
    }))
    .unwrap()
}

async fn heroes_and_a_companion_fight_in_initiative_order(backend: Backend) {
    let mut world = World::new(backend).await;
    world.llm = ScriptedLlm::new(fight_scenario());
    let mut rng = StdRng::seed_from_u64(4242);
    let host = PlayerId::random(&mut rng);
    let friend = PlayerId::random(&mut rng);
    let form = NewCampaign {
        companions: vec![app::wire::view::CompanionForm {
            name: "Bran".into(),
            class: "Cleric".into(),
        }],
        ..NewCampaign::new("A goblin camp", "Aria", "Fighter")
    };
    let id = world.open(&host, &form, &mut rng).await;
    world.game().ensure_actions(&host, &id, 1).await.unwrap();
    let code = world.invite(&host, &id, &mut rng).await;
    world
        .table()
        .join(&friend, &code, &rogue("Mira"), 11)
        .await
        .unwrap();

    // A round of words: the goblins attack, and everyone at the table rolls initiative.
    let turn = world.game().current(&host, &id).await.unwrap().state.turn;
    let look = || MoveInput::Action { id: "look".into() };
    world
        .submit(&host, &id, turn, look(), &mut rng)
        .await
        .unwrap();
    world
        .submit(&friend, &id, turn, look(), &mut rng)
        .await
        .unwrap();
    world.game().ensure_actions(&host, &id, 21).await.unwrap();
    let state = world.game().current(&host, &id).await.unwrap().state;
    let encounter = state.combat.current().expect("the fight is on");
    let names: Vec<&str> = encounter
        .allies()
        .iter()
        .map(|ally| ally.name().as_str())
        .collect();
    assert_eq!(names, ["Bran", "Mira"]);
    assert_eq!(
        encounter.order().len(),
        5,
        "the hero, two allies, two goblins"
    );

    // A round of the fight: each hero attacks on their own turn, the companion by the rules.
    let attack = state
        .actions
        .as_ref()
        .and_then(|actions| {
            actions
                .actions()
                .iter()
                .find(|action| {
                    action
                        .fight()
                        .is_some_and(|m| matches!(m, FightMove::Attack { .. }))
                })
                .map(|action| action.id().to_string())
        })
        .expect("an attack on offer");
    let turn = state.turn;
    let strike = || MoveInput::Action { id: attack.clone() };
    world
        .submit(&host, &id, turn, strike(), &mut rng)
        .await
        .unwrap();
    world
        .submit(&friend, &id, turn, strike(), &mut rng)
        .await
        .unwrap();
    let (_, log) = world.store_log(&host, &id).await;
    let steps: Vec<&FightStep> = log
        .iter()
        .filter(|stored| stored.turn == turn + 1)
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::Fought { record, .. }) => Some(&record.step),
            _ => None,
        })
        .collect();
    assert!(
        steps.iter().any(
            |step| matches!(step, FightStep::Seat { seat, target: Some(_) }
            if seat.number() == 2)
        ),
        "Mira's attack on her turn: {steps:?}"
    );
    assert!(
        steps
            .iter()
            .any(|step| matches!(step, FightStep::Attack { .. })),
        "{steps:?}"
    );
    // The log replays to the same state: every number is the rules'.
    let replayed = app::campaign::state::CampaignState::replay(&log)
        .unwrap()
        .state;
    let stored = world.game().current(&host, &id).await.unwrap().state;
    assert_eq!(replayed.party, stored.party);
    assert_eq!(replayed.combat, stored.combat);
}

async fn a_round_goes_on_without_a_missing_seat_after_the_tables_wait(backend: Backend) {
    let world = World::new(backend).await;
    let mut rng = StdRng::seed_from_u64(99);
    let host = PlayerId::random(&mut rng);
    let friend = PlayerId::random(&mut rng);
    let form = NewCampaign::new("A troll bridge", "Aria", "Fighter");
    let id = world.open(&host, &form, &mut rng).await;
    world.game().ensure_actions(&host, &id, 1).await.unwrap();
    let code = world.invite(&host, &id, &mut rng).await;
    world
        .table()
        .join(&friend, &code, &rogue("Mira"), 11)
        .await
        .unwrap();
    let view = world.table().set_wait(&host, &id, 60, 12).await.unwrap();
    assert_eq!(view.wait_secs, 60);
    assert!(refusal(world.table().set_wait(&host, &id, 5, 12).await).contains("30 seconds"));
    assert!(matches!(
        world.table().set_wait(&friend, &id, 600, 12).await,
        Err(ServiceError::NotFound)
    ));
    let turn = world.game().current(&host, &id).await.unwrap().state.turn;
    // Nothing to go on with before a move is in.
    assert!(refusal(
        world
            .table()
            .go_on(&host, &id, turn, 20, &mut rng, &mut |_| {})
            .await
    )
    .contains("once a move is in"));
    let host_move = MoveInput::Action { id: "talk".into() };
    world
        .table()
        .submit(&host, &id, turn, &host_move, 20, &mut rng, &mut |_| {})
        .await
        .unwrap();
    // The friend may not hurry the round before the table's wait; after it, anyone may.
    let early = world
        .table()
        .go_on(&friend, &id, turn, 50, &mut rng, &mut |_| {})
        .await;
    assert!(refusal(early).contains("only the host may go on"));
    let seen = world.table().view(&friend, &id, 50).await.unwrap();
    assert_eq!((seen.wait_left, seen.may_go_on), (Some(30), false));
    let told = world
        .table()
        .go_on(&friend, &id, turn, 81, &mut rng, &mut |_| {})
        .await
        .unwrap();
    assert!(matches!(told, RoundState::Narrated { turn: t, .. } if t == turn + 1));
    let (_, log) = world.store_log(&host, &id).await;
    let seat_moves = log
        .iter()
        .filter(|stored| {
            matches!(
                stored.event,
                CampaignEvent::Turn(TurnEvent::SeatMoved { .. })
            )
        })
        .count();
    assert_eq!(seat_moves, 0, "the missing seat made no move");
}

on_both_backends!(
    a_round_goes_on_without_a_missing_seat_after_the_tables_wait,
    friends_play_a_round_at_one_table,
    a_table_holds_four_players_at_most,
    heroes_and_a_companion_fight_in_initiative_order
);
