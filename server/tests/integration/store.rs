//! The campaign store, on SQLite and on PostgreSQL alike: round trips, snapshots and story
//! pages, owner scoping, optimistic concurrency, rebuilds, deletion.

use std::sync::Arc;

use app::campaign::conversation::{Message, SentRequest};
use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::passage::{SearchQuery, SearchScope};
use app::campaign::state::CampaignState;
use app::campaign::store::{Append, CampaignRecord, CampaignStore, Commit, StoreError};
use app::campaign::turn_event::TurnEvent;
use app::game::text::{CharacterName, ClassName, LocationName};
use app::game::CharacterSheet;
use app::wire::view::StoryEntry;
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use server::store::{Backend, SqlStore};
use sqlx::Connection;

use crate::support::databases;

struct Fixture {
    store: SqlStore,
    database: databases::TestDatabase,
    rng: StdRng,
}

async fn fixture(backend: Backend) -> Fixture {
    let database = databases::fresh(backend).await;
    Fixture {
        store: SqlStore::open(&database.url).await.unwrap(),
        database,
        rng: StdRng::seed_from_u64(3),
    }
}

fn started() -> CampaignEvent {
    CampaignEvent::Started {
        premise: "A flooded crypt".into(),
        sheet: CharacterSheet::new(
            CharacterName::new("Mira").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("Crypt").unwrap(),
        ),
    }
}

fn scene(text: &str) -> CampaignEvent {
    CampaignEvent::Turn(TurnEvent::narration(text.into()))
}

fn start_state() -> CampaignState {
    let CampaignEvent::Started { premise, sheet } = started() else {
        unreachable!()
    };
    CampaignState::start(&premise, sheet)
}

/// Commits `events` as one phase, with the story entries and snapshot the projector makes of
/// them from the stored snapshot.
async fn phase(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    expected_turn: u32,
    how: Append,
    events: &[CampaignEvent],
    now: i64,
) -> Result<u32, StoreError> {
    let current = store.current(owner, id).await?;
    let before = current.state.expect("a snapshot");
    let mut state = CampaignState::clone(&before);
    let turn = match how {
        Append::NextTurn => expected_turn + 1,
        Append::SameTurn => expected_turn,
        Append::Replace { turn } => turn,
    };
    let mut story = Vec::new();
    for event in events {
        let stored = StoredEvent {
            turn,
            event: event.clone(),
        };
        story.extend(
            state
                .apply(&stored)
                .unwrap()
                .into_iter()
                .filter_map(app::campaign::shown::Shown::into_entry),
        );
    }
    let state = Arc::new(state);
    let commit = Commit {
        events,
        story: &story,
        state: &state,
        request: None,
        before: Some(&before),
    };
    store
        .commit(owner, id, expected_turn, how, commit, now)
        .await
}

fn html(entry: &StoryEntry) -> &str {
    match entry {
        StoryEntry::Scene { html, .. } => html,
        other => panic!("not a scene: {other:?}"),
    }
}

impl Fixture {
    async fn campaign(&mut self, owner: &PlayerId, updated_at: i64) -> CampaignId {
        let record = CampaignRecord {
            id: CampaignId::random(&mut self.rng),
            owner: owner.clone(),
            title: "Mira in the crypt".into(),
            created_at: updated_at,
            updated_at,
            turn: 0,
            usage: Default::default(),
        };
        self.store
            .create(
                &record,
                &[StoredEvent {
                    turn: 0,
                    event: started(),
                }],
                &[],
                &start_state(),
            )
            .await
            .unwrap();
        record.id
    }

    fn player(&mut self) -> PlayerId {
        PlayerId::random(&mut self.rng)
    }
}

async fn a_campaign_and_its_events_come_back_in_order(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 100).await;

    let turn = phase(
        &f.store,
        &owner,
        &id,
        0,
        Append::NextTurn,
        &[scene("One"), scene("Two")],
        200,
    )
    .await
    .unwrap();
    assert_eq!(turn, 1);
    let turn = phase(
        &f.store,
        &owner,
        &id,
        1,
        Append::SameTurn,
        &[scene("Three")],
        300,
    )
    .await
    .unwrap();
    assert_eq!(turn, 1);

    let (record, events) = f.store.log(&owner, &id).await.unwrap();
    assert_eq!(
        (record.turn, record.updated_at, record.created_at),
        (1, 300, 100)
    );
    assert_eq!(
        events,
        vec![
            StoredEvent {
                turn: 0,
                event: started()
            },
            StoredEvent {
                turn: 1,
                event: scene("One")
            },
            StoredEvent {
                turn: 1,
                event: scene("Two")
            },
            StoredEvent {
                turn: 1,
                event: scene("Three")
            },
        ]
    );
}

async fn campaigns_are_listed_per_owner_most_recent_first(backend: Backend) {
    let mut f = fixture(backend).await;
    let (alice, bob) = (f.player(), f.player());
    let old = f.campaign(&alice, 10).await;
    let new = f.campaign(&alice, 20).await;
    f.campaign(&bob, 30).await;

    let page = |offset, limit| {
        let (store, alice) = (&f.store, &alice);
        async move {
            let page = store.list(alice, offset, limit).await.unwrap();
            page.into_iter().map(|r| r.id).collect::<Vec<CampaignId>>()
        }
    };
    assert_eq!(page(0, 10).await, vec![new.clone(), old.clone()]);
    assert_eq!(page(0, 1).await, vec![new], "a page at a time");
    assert_eq!(page(1, 1).await, vec![old]);
    assert!(page(2, 1).await.is_empty());
    assert_eq!(f.store.count(&alice).await.unwrap(), 2);
    assert_eq!(f.store.count(&bob).await.unwrap(), 1);
}

async fn another_players_campaign_is_not_found(backend: Backend) {
    let mut f = fixture(backend).await;
    let (alice, mallory) = (f.player(), f.player());
    let id = f.campaign(&alice, 10).await;

    let not_found = |result: Result<_, StoreError>| matches!(result, Err(StoreError::NotFound));
    assert!(not_found(f.store.log(&mallory, &id).await.map(drop)));
    assert!(not_found(f.store.current(&mallory, &id).await.map(drop)));
    assert!(not_found(f.store.delete(&mallory, &id).await));
    let empty = f.store.story(&mallory, &id, 10, 10).await.unwrap();
    assert!(empty.1.is_empty(), "another player's story is not read");
    assert_eq!(
        f.store.log(&alice, &id).await.unwrap().1.len(),
        1,
        "untouched"
    );
}

async fn two_moves_for_the_same_turn_one_wins_one_is_refused(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;

    let first = [scene("Tab one")];
    let second = [scene("Tab two")];
    let (a, b) = tokio::join!(
        phase(&f.store, &owner, &id, 0, Append::NextTurn, &first, 20),
        phase(&f.store, &owner, &id, 0, Append::NextTurn, &second, 20),
    );

    let results = [a, b];
    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    assert!(
        results
            .iter()
            .any(|r| matches!(r, Err(StoreError::Stale { current: 1 }))),
        "{results:?}"
    );
    let (record, events) = f.store.log(&owner, &id).await.unwrap();
    assert_eq!(record.turn, 1);
    assert_eq!(events.len(), 2, "only the winner's events are stored");
}

async fn actions_for_an_old_turn_are_refused(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    phase(
        &f.store,
        &owner,
        &id,
        0,
        Append::NextTurn,
        &[scene("One")],
        20,
    )
    .await
    .unwrap();

    let stale = phase(
        &f.store,
        &owner,
        &id,
        0,
        Append::SameTurn,
        &[scene("late")],
        30,
    )
    .await;
    assert!(
        matches!(stale, Err(StoreError::Stale { current: 1 })),
        "{stale:?}"
    );
}

async fn deleting_removes_the_campaign_and_its_log(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;

    f.store.delete(&owner, &id).await.unwrap();

    assert!(matches!(
        f.store.log(&owner, &id).await,
        Err(StoreError::NotFound)
    ));
    assert!(f.store.list(&owner, 0, 100).await.unwrap().is_empty());
}

async fn the_database_survives_a_reopen(backend: Backend) {
    let database = databases::fresh(backend).await;
    let url = &database.url;
    let mut rng = StdRng::seed_from_u64(9);
    let owner = PlayerId::random(&mut rng);
    let record = CampaignRecord {
        id: CampaignId::random(&mut rng),
        owner: owner.clone(),
        title: "t".into(),
        created_at: 1,
        updated_at: 1,
        turn: 0,
        usage: Default::default(),
    };
    {
        let store = SqlStore::open(url).await.unwrap();
        store
            .create(
                &record,
                &[StoredEvent {
                    turn: 0,
                    event: started(),
                }],
                &[],
                &start_state(),
            )
            .await
            .unwrap();
    }
    let reopened = SqlStore::open(url).await.unwrap();
    assert_eq!(reopened.log(&owner, &record.id).await.unwrap().0, record);
}

async fn a_campaign_is_created_with_its_opening_turn_in_one_go(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let record = CampaignRecord {
        id: CampaignId::random(&mut f.rng),
        owner: owner.clone(),
        title: "t".into(),
        created_at: 1,
        updated_at: 1,
        turn: 1,
        usage: Default::default(),
    };
    let events = [
        StoredEvent {
            turn: 0,
            event: started(),
        },
        StoredEvent {
            turn: 1,
            event: scene("Opening"),
        },
    ];

    let mut state = start_state();
    let story: Vec<StoryEntry> = state
        .apply(&events[1])
        .unwrap()
        .into_iter()
        .filter_map(app::campaign::shown::Shown::into_entry)
        .collect();
    f.store
        .create(&record, &events, &story, &state)
        .await
        .unwrap();

    let (loaded, log) = f.store.log(&owner, &record.id).await.unwrap();
    assert_eq!(loaded.turn, 1);
    assert_eq!(log, events);
    let current = f.store.current(&owner, &record.id).await.unwrap();
    assert_eq!(current.state, Some(Arc::new(state)));
    let (start, entries) = f.store.story(&owner, &record.id, 1, 50).await.unwrap();
    assert_eq!((start, entries.len()), (0, 1));
    assert!(html(&entries[0]).contains("Opening"));
}

async fn the_story_comes_back_a_page_at_a_time_and_the_snapshot_follows_each_commit(
    backend: Backend,
) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    for turn in 0..7u32 {
        let scenes: Vec<CampaignEvent> = (0..3)
            .map(|n| scene(&format!("Scene {turn}.{n}")))
            .collect();
        phase(&f.store, &owner, &id, turn, Append::NextTurn, &scenes, 20)
            .await
            .unwrap();
    }
    let state = f.store.current(&owner, &id).await.unwrap().state.unwrap();
    assert_eq!((state.turn, state.story_len), (7, 21));

    let (start, latest) = f.store.story(&owner, &id, 21, 5).await.unwrap();
    assert_eq!(start, 16);
    assert_eq!(latest.len(), 5);
    assert!(html(&latest[4]).contains("Scene 6.2"));
    let (start, first) = f.store.story(&owner, &id, 3, 5).await.unwrap();
    assert_eq!(start, 0);
    assert_eq!(first.len(), 3);
    assert!(html(&first[0]).contains("Scene 0.0"));
}

async fn a_rebuild_replaces_the_story_and_the_snapshot_but_only_at_the_same_turn(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    phase(
        &f.store,
        &owner,
        &id,
        0,
        Append::NextTurn,
        &[scene("Old")],
        20,
    )
    .await
    .unwrap();
    let (_, log) = f.store.log(&owner, &id).await.unwrap();
    let replay = CampaignState::replay(&log).unwrap();

    let stale = f
        .store
        .rebuild(&owner, &id, 0, &replay.story, &replay.state)
        .await;
    assert!(
        matches!(stale, Err(StoreError::Stale { current: 1 })),
        "{stale:?}"
    );
    f.store
        .rebuild(&owner, &id, 1, &replay.story, &replay.state)
        .await
        .unwrap();

    assert_eq!(
        f.store.current(&owner, &id).await.unwrap().state,
        Some(Arc::new(replay.state))
    );
    let (_, story) = f.store.story(&owner, &id, 10, 10).await.unwrap();
    assert_eq!(story, replay.story);
}

async fn the_last_request_is_kept_until_a_phase_sends_another(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    assert_eq!(f.store.current(&owner, &id).await.unwrap().request, None);
    let sent = SentRequest {
        purpose: "narration".into(),
        messages: vec![Message::system("Rules."), Message::user("I look around.")],
        tools: vec!["roll_dice".into()],
        layers: Vec::new(),
        window: Some((1, 1)),
        bytes: 80,
        shared_front_bytes: 20,
        estimated_tokens: 12,
        reported_tokens: Some(14),
    };
    let events = [scene("A hall.")];
    let mut state = start_state();
    let story: Vec<StoryEntry> = state
        .apply(&StoredEvent {
            turn: 1,
            event: events[0].clone(),
        })
        .unwrap()
        .into_iter()
        .filter_map(app::campaign::shown::Shown::into_entry)
        .collect();
    let state = Arc::new(state);
    let commit = Commit {
        events: &events,
        story: &story,
        state: &state,
        request: Some(&sent),
        before: None,
    };
    f.store
        .commit(&owner, &id, 0, Append::NextTurn, commit, 20)
        .await
        .unwrap();
    assert_eq!(
        f.store.current(&owner, &id).await.unwrap().request,
        Some(Arc::new(sent.clone()))
    );

    phase(&f.store, &owner, &id, 1, Append::SameTurn, &[], 30)
        .await
        .unwrap();
    let (_, log) = f.store.log(&owner, &id).await.unwrap();
    let replay = CampaignState::replay(&log).unwrap();
    f.store
        .rebuild(&owner, &id, 1, &replay.story, &replay.state)
        .await
        .unwrap();
    assert_eq!(
        f.store.current(&owner, &id).await.unwrap().request,
        Some(Arc::new(sent)),
        "a phase without a request and a rebuild keep it"
    );
}

/// Plays one scene a turn from the campaign's first turn on.
async fn play_scenes(store: &SqlStore, owner: &PlayerId, id: &CampaignId, scenes: &[&str]) {
    play_scenes_from(store, owner, id, 0, scenes).await;
}

/// Plays one scene a turn from turn `first` on.
async fn play_scenes_from(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    first: u32,
    scenes: &[&str],
) {
    for (turn, text) in (first..).zip(scenes) {
        phase(store, owner, id, turn, Append::NextTurn, &[scene(text)], 20)
            .await
            .unwrap();
    }
}

/// Undoes the latest turn, `turn`, in one replacing commit; the campaign's turn afterwards and
/// the replay it wrote.
async fn undo_latest(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    turn: u32,
) -> (u32, app::campaign::state::Replay) {
    let before = store.current(owner, id).await.unwrap().state.unwrap();
    let (_, mut log) = store.log(owner, id).await.unwrap();
    log.push(StoredEvent {
        turn: turn - 1,
        event: CampaignEvent::Undone,
    });
    let replay = CampaignState::replay(&log).unwrap();
    let state = Arc::new(replay.state.clone());
    let commit = Commit {
        events: &[CampaignEvent::Undone],
        story: &replay.story,
        state: &state,
        request: None,
        before: Some(&before),
    };
    let after = store
        .commit(
            owner,
            id,
            turn,
            Append::Replace { turn: turn - 1 },
            commit,
            30,
        )
        .await
        .unwrap();
    (after, replay)
}

async fn a_replacing_commit_moves_the_turn_back_and_rewrites_the_whole_story(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    play_scenes(&f.store, &owner, &id, &["One.", "Two.", "Three."]).await;
    let (turn, replay) = undo_latest(&f.store, &owner, &id, 3).await;
    assert_eq!(replay.story.len(), 2);
    assert_eq!(turn, 2);
    let (start, story) = f.store.story(&owner, &id, 10, 10).await.unwrap();
    assert_eq!((start, story), (0, replay.story));
    let current = f.store.current(&owner, &id).await.unwrap();
    assert_eq!(
        (current.record.turn, current.state),
        (2, Some(Arc::new(replay.state)))
    );
    let (_, log) = f.store.log(&owner, &id).await.unwrap();
    assert_eq!(
        log.last().unwrap().event,
        CampaignEvent::Undone,
        "the log keeps everything"
    );
}

async fn concurrent_turns_on_two_connection_pools_never_fail(backend: Backend) {
    let mut f = fixture(backend).await;
    let second_pool = SqlStore::open(&f.database.url).await.unwrap();
    let owner = f.player();
    let mut ids = Vec::new();
    for n in 0..24 {
        ids.push(f.campaign(&owner, n).await);
    }

    let turns = ids.iter().enumerate().map(|(n, id)| {
        let store = if n % 2 == 0 { &f.store } else { &second_pool };
        let owner = &owner;
        async move {
            for turn in 0..5 {
                phase(
                    store,
                    owner,
                    id,
                    turn,
                    Append::NextTurn,
                    &[scene("On.")],
                    10,
                )
                .await?;
            }
            Ok::<_, StoreError>(())
        }
    });
    let results = futures::future::join_all(turns).await;

    let failures: Vec<String> = results
        .iter()
        .filter_map(|result| result.as_ref().err().map(ToString::to_string))
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    for id in &ids {
        assert_eq!(f.store.current(&owner, id).await.unwrap().record.turn, 5);
    }
}

/// The turns of the passages a search finds, in its order.
async fn found_turns(
    f: &Fixture,
    owner: &PlayerId,
    id: &CampaignId,
    words: &str,
    before: u32,
) -> Vec<u32> {
    let query = SearchQuery::of([words]).unwrap();
    let scope = SearchScope {
        before_turn: before,
        moves: true,
        limit: 5,
        telling_words_only: false,
    };
    f.store
        .search(owner, id, &query, scope)
        .await
        .unwrap()
        .iter()
        .map(|passage| passage.turn)
        .collect()
}

/// The turns of the passages the rules' recall finds for `words` (only the telling words).
async fn recalled_turns(f: &Fixture, owner: &PlayerId, id: &CampaignId, words: &str) -> Vec<u32> {
    let query = SearchQuery::of([words]).unwrap();
    let scope = SearchScope {
        before_turn: u32::MAX,
        moves: false,
        limit: 5,
        telling_words_only: true,
    };
    let found = f.store.search(owner, id, &query, scope).await.unwrap();
    found.iter().map(|passage| passage.turn).collect()
}

async fn the_recall_leaves_out_the_words_in_half_the_passages(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    // Past the index's least size for a word's count to tell, "ghoul" in every passage.
    let mut scenes = vec!["The ghoul waits by the ferry."; 110];
    scenes[40] = "A ghoul again, and Oswin the ferryman.";
    scenes[70] = "Rain; a ghoul howls.";
    play_scenes(&f.store, &owner, &id, &scenes).await;
    // A player's search looks for every word typed.
    assert_eq!(found_turns(&f, &owner, &id, "ghoul", 200).await.len(), 5);
    match backend {
        // BM25 weighs "ghoul" (in every passage) at nothing: the recall looks for "oswin" alone.
        Backend::Sqlite => {
            assert_eq!(recalled_turns(&f, &owner, &id, "ghoul oswin").await, [41]);
            assert!(recalled_turns(&f, &owner, &id, "ghoul").await.is_empty());
        }
        // PostgreSQL ranks by ts_rank, which weighs no word by how common it is.
        Backend::Postgres => {
            assert_eq!(recalled_turns(&f, &owner, &id, "ghoul").await.len(), 5);
        }
    }
    let mut both = recalled_turns(&f, &owner, &id, "oswin rain").await;
    both.sort_unstable();
    assert_eq!(both, [41, 71]);
}

/// On SQLite, where the counts the recall leaves words out by are kept in memory: a word's
/// count is read again once the story has grown enough to change its weight, and forgotten when
/// passages are removed.
#[tokio::test]
async fn the_recall_weighs_a_word_again_as_the_index_grows_and_shrinks() {
    let mut f = fixture(Backend::Sqlite).await;
    let owner = f.player();
    let haunted = f.campaign(&owner, 10).await;
    play_scenes(&f.store, &owner, &haunted, &["The ghoul waits."; 110]).await;
    // "ghoul" is in every passage: left out.
    assert!(recalled_turns(&f, &owner, &haunted, "ghoul")
        .await
        .is_empty());
    let rainy = f.campaign(&owner, 10).await;
    play_scenes(&f.store, &owner, &rainy, &["Rain on the river."; 150]).await;
    // Now in fewer than half of them: weighed, and found.
    assert_eq!(recalled_turns(&f, &owner, &haunted, "ghoul").await.len(), 5);
    // Without the rainy campaign's passages it is in all of them again.
    f.store.delete(&owner, &rainy).await.unwrap();
    assert!(recalled_turns(&f, &owner, &haunted, "ghoul")
        .await
        .is_empty());
}

/// In a small index every word counts: "ghoul" in every passage still finds them.
async fn a_small_story_is_searched_for_every_word(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    play_scenes(&f.store, &owner, &id, &["A ghoul.", "The ghoul again."]).await;
    assert_eq!(recalled_turns(&f, &owner, &id, "ghoul").await.len(), 2);
}

async fn the_story_in_effect_is_searched_by_words_best_first(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    let other = f.campaign(&owner, 10).await;
    let scenes = [
        "Oswin the ferryman swears the silver ring was his mother's, and the river is wide.",
        "Rain on the road.",
        "Oswin waves. The ring glints.",
    ];
    play_scenes(&f.store, &owner, &id, &scenes).await;
    play_scenes(&f.store, &owner, &other, &["Oswin again."]).await;
    assert_eq!(found_turns(&f, &owner, &id, "oswin ring", 10).await, [3, 1]);
    assert_eq!(
        found_turns(&f, &owner, &id, "OSWIN", 3).await,
        [1],
        "older turns only"
    );
    assert!(found_turns(&f, &owner, &id, "dragon", 10).await.is_empty());
    let stranger = f.player();
    assert!(found_turns(&f, &stranger, &id, "oswin", 10)
        .await
        .is_empty());

    // An undone turn leaves the index with the story.
    undo_latest(&f.store, &owner, &id, 3).await;
    assert_eq!(found_turns(&f, &owner, &id, "oswin", 10).await, [1]);

    // A deleted campaign's passages leave the index; the other campaign's stay.
    f.store.delete(&owner, &id).await.unwrap();
    let mut raw = sqlx::AnyConnection::connect(&f.database.url).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM story_text WHERE campaign = $1")
        .bind(id.as_str())
        .fetch_one(&mut raw)
        .await
        .unwrap();
    assert_eq!(left, 0);
    if backend == Backend::Sqlite {
        let indexed: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM story_search WHERE story_search MATCH 'oswin'",
        )
        .fetch_one(&mut raw)
        .await
        .unwrap();
        assert_eq!(indexed, 1, "only the other campaign's scene");
    }
    assert_eq!(found_turns(&f, &owner, &other, "oswin", 10).await, [1]);
}

async fn the_players_moves_are_searched_by_the_player_and_left_out_of_the_recall(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    let moved = CampaignEvent::Turn(TurnEvent::Move {
        text: "I hail the ferryman across the water".into(),
        action_id: None,
    });
    let turn = [moved, scene("The ferryman rows closer.")];
    phase(&f.store, &owner, &id, 0, Append::NextTurn, &turn, 20)
        .await
        .unwrap();
    play_scenes_from(&f.store, &owner, &id, 1, &["Fog.", "Rain."]).await;
    assert_eq!(
        found_turns(&f, &owner, &id, "hail ferryman", 10).await,
        [1, 1]
    );
    assert_eq!(
        found_turns(&f, &owner, &id, "hail", 10).await,
        [1],
        "the move"
    );
    assert_eq!(
        recalled_turns(&f, &owner, &id, "hail ferryman").await,
        [1],
        "the scene, not the move"
    );
    assert!(recalled_turns(&f, &owner, &id, "hail").await.is_empty());
    if backend == Backend::Sqlite {
        // The index itself tells a move (its campaign token ends in "m") from the rest.
        let mut raw = sqlx::AnyConnection::connect(&f.database.url).await.unwrap();
        for (token, expected) in [(id.to_string(), 0), (format!("{id}m"), 1)] {
            let matched: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM story_search WHERE story_search MATCH $1")
                    .bind(format!("campaign : \"{token}\" AND text : hail"))
                    .fetch_one(&mut raw)
                    .await
                    .unwrap();
            assert_eq!(matched, expected, "{token}");
        }
    }
}

async fn a_deleted_campaign_waits_in_the_trash_until_restored_or_past_its_days(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    let other = f.campaign(&owner, 10).await;
    f.store.trash(&owner, &id, 1_000).await.unwrap();
    assert!(matches!(
        f.store.current(&owner, &id).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(f.store.list(&owner, 0, 10).await.unwrap().len(), 1);
    assert_eq!(f.store.count(&owner).await.unwrap(), 1);
    let stranger = f.player();
    assert!(f.store.trashed(&stranger, 0).await.unwrap().is_empty());
    assert!(matches!(
        f.store.restore(&stranger, &id, 0).await,
        Err(StoreError::NotFound)
    ));
    let trashed = f.store.trashed(&owner, 0).await.unwrap();
    assert_eq!(trashed.len(), 1);
    assert_eq!(
        (&trashed[0].0.id, trashed[0].0.owner.clone(), trashed[0].1),
        (&id, owner.clone(), 1_000)
    );
    assert!(
        f.store.trashed(&owner, 1_001).await.unwrap().is_empty(),
        "past its days"
    );
    assert!(matches!(
        f.store.restore(&owner, &id, 1_001).await,
        Err(StoreError::NotFound)
    ));
    f.store.restore(&owner, &id, 1_000).await.unwrap();
    assert_eq!(f.store.current(&owner, &id).await.unwrap().record.id, id);
    assert!(f.store.trashed(&owner, 0).await.unwrap().is_empty());

    // Past its days, a purge deletes it for good with its log.
    f.store.trash(&owner, &id, 2_000).await.unwrap();
    assert_eq!(f.store.purge(2_000).await.unwrap(), 0);
    assert_eq!(f.store.purge(2_001).await.unwrap(), 1);
    assert!(f.store.trashed(&owner, 0).await.unwrap().is_empty());
    assert!(matches!(
        f.store.restore(&owner, &id, 0).await,
        Err(StoreError::NotFound)
    ));
    // Deleted for good from the trash at once.
    f.store.trash(&owner, &other, 3_000).await.unwrap();
    f.store.delete(&owner, &other).await.unwrap();
    assert!(f.store.trashed(&owner, 0).await.unwrap().is_empty());
    assert_eq!(f.store.purge(i64::MAX).await.unwrap(), 0);
}

async fn a_recovery_code_brings_the_newcomers_campaigns_to_its_player(backend: Backend) {
    let mut f = fixture(backend).await;
    let (player, newcomer) = (f.player(), f.player());
    let kept = f.campaign(&player, 10).await;
    let brought = f.campaign(&newcomer, 10).await;
    let binned = f.campaign(&newcomer, 10).await;
    f.store.trash(&newcomer, &binned, 1_000).await.unwrap();
    assert_eq!(f.store.recovery(&player).await.unwrap(), None);
    f.store.set_recovery(&player, "digest-1", 50).await.unwrap();
    // A new code replaces the old one.
    f.store.set_recovery(&player, "digest-2", 60).await.unwrap();
    assert_eq!(f.store.recovery(&player).await.unwrap(), Some(60));
    assert_eq!(f.store.redeem("digest-1", &newcomer).await.unwrap(), None);
    assert_eq!(
        f.store.count(&newcomer).await.unwrap(),
        1,
        "a wrong code moves nothing"
    );

    assert_eq!(
        f.store.redeem("digest-2", &newcomer).await.unwrap(),
        Some(player.clone())
    );
    let mut ids: Vec<_> = f
        .store
        .list(&player, 0, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    ids.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let mut expected = vec![kept, brought];
    expected.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(ids, expected);
    assert_eq!(f.store.count(&newcomer).await.unwrap(), 0);
    assert_eq!(f.store.trashed(&player, 0).await.unwrap()[0].0.id, binned);

    assert!(f.store.revoke_recovery(&player).await.unwrap());
    assert!(!f.store.revoke_recovery(&player).await.unwrap());
    assert_eq!(f.store.redeem("digest-2", &newcomer).await.unwrap(), None);
}

/// A commit given up part way (its caller gone: a closed tab, a timed-out request), at each
/// point it can be dropped, leaves the campaign as it was or wholly committed, read alike from
/// memory and from the log, and the store writes on.
async fn a_commit_given_up_part_way_leaves_the_campaign_whole(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    for polls in 1..=8 {
        let turn = f.store.current(&owner, &id).await.unwrap().record.turn;
        let given_up = [scene("Given up")];
        let mut commit = Box::pin(phase(
            &f.store,
            &owner,
            &id,
            turn,
            Append::NextTurn,
            &given_up,
            20,
        ));
        for _ in 0..polls {
            if futures::poll!(commit.as_mut()).is_ready() {
                break;
            }
            tokio::task::yield_now().await;
        }
        drop(commit);
        let (record, events) = f.store.log(&owner, &id).await.unwrap();
        assert!([turn, turn + 1].contains(&record.turn), "{record:?}");
        assert_eq!(events.len() as u32, 1 + record.turn, "one event a turn");
        let current = f.store.current(&owner, &id).await.unwrap();
        assert_eq!(current.record.turn, record.turn, "memory and log agree");
        assert_eq!(current.state.expect("a snapshot").turn, record.turn);
        let played_on = [scene("Played on")];
        let next = phase(
            &f.store,
            &owner,
            &id,
            record.turn,
            Append::NextTurn,
            &played_on,
            30,
        );
        assert_eq!(next.await.expect("the store writes on"), record.turn + 1);
    }
}

/// A narration's events: its scene and the messages it adds to the model's window.
fn narrated(text: &str) -> [CampaignEvent; 2] {
    [
        scene(text),
        CampaignEvent::ModelMessages {
            messages: vec![
                Message::user(format!("I go on ({text})")),
                Message::assistant(text),
            ],
        },
    ]
}

/// The campaign's state as a second store on the same database reads it (nothing kept in
/// memory).
async fn read_afresh(f: &Fixture, owner: &PlayerId, id: &CampaignId) -> CampaignState {
    let store = SqlStore::open(&f.database.url).await.unwrap();
    let current = store.current(owner, id).await.unwrap();
    Arc::unwrap_or_clone(current.state.expect("a snapshot"))
}

async fn the_models_window_is_kept_a_turn_per_row_through_every_kind_of_commit(backend: Backend) {
    let mut f = fixture(backend).await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    let turns = app::campaign::state::MAX_VERBATIM_TURNS as u32 + 3;
    for turn in 0..turns {
        let events = narrated(&format!("Scene {turn}."));
        phase(&f.store, &owner, &id, turn, Append::NextTurn, &events, 20)
            .await
            .unwrap();
    }
    let played = f.store.current(&owner, &id).await.unwrap().state.unwrap();
    let window: Vec<u32> = played.context.iter().map(|kept| kept.turn).collect();
    assert_eq!(
        window,
        (4..=turns).collect::<Vec<_>>(),
        "the oldest slid out"
    );
    assert_eq!(read_afresh(&f, &owner, &id).await, *played);

    // A phase that adds no messages (the actions) keeps the window as it is.
    phase(&f.store, &owner, &id, turns, Append::SameTurn, &[], 30)
        .await
        .unwrap();
    assert_eq!(read_afresh(&f, &owner, &id).await.context, played.context);

    // An undone turn leaves the window, and the one it uncovers comes back.
    let (turn, replay) = undo_latest(&f.store, &owner, &id, turns).await;
    let read = read_afresh(&f, &owner, &id).await;
    assert_eq!(read, replay.state);
    assert_eq!(read.context.first().map(|kept| kept.turn), Some(3));
    assert_eq!(read.context.last().map(|kept| kept.turn), Some(turn));

    // A turn told again in its place is stored as told this time.
    let retold = narrated("Told again.");
    phase(&f.store, &owner, &id, turn, Append::NextTurn, &retold, 40)
        .await
        .unwrap();
    let read = read_afresh(&f, &owner, &id).await;
    let latest = read.context.last().unwrap();
    assert_eq!(latest.turn, turn + 1);
    assert_eq!(latest.messages[1], Message::assistant("Told again."));
    assert_eq!(
        read,
        *f.store.current(&owner, &id).await.unwrap().state.unwrap()
    );

    // A window row this version cannot read leaves the snapshot to be rebuilt from the log.
    let mut raw = sqlx::AnyConnection::connect(&f.database.url).await.unwrap();
    sqlx::query("UPDATE window_turns SET body = 'not a turn' WHERE campaign_id = $1")
        .bind(id.as_str())
        .execute(&mut raw)
        .await
        .unwrap();
    let store = SqlStore::open(&f.database.url).await.unwrap();
    assert_eq!(store.current(&owner, &id).await.unwrap().state, None);
}

on_both_backends!(
    the_models_window_is_kept_a_turn_per_row_through_every_kind_of_commit,
    a_recovery_code_brings_the_newcomers_campaigns_to_its_player,
    a_campaign_and_its_events_come_back_in_order,
    campaigns_are_listed_per_owner_most_recent_first,
    another_players_campaign_is_not_found,
    two_moves_for_the_same_turn_one_wins_one_is_refused,
    actions_for_an_old_turn_are_refused,
    deleting_removes_the_campaign_and_its_log,
    the_database_survives_a_reopen,
    a_campaign_is_created_with_its_opening_turn_in_one_go,
    the_story_comes_back_a_page_at_a_time_and_the_snapshot_follows_each_commit,
    a_rebuild_replaces_the_story_and_the_snapshot_but_only_at_the_same_turn,
    the_last_request_is_kept_until_a_phase_sends_another,
    a_replacing_commit_moves_the_turn_back_and_rewrites_the_whole_story,
    concurrent_turns_on_two_connection_pools_never_fail,
    the_story_in_effect_is_searched_by_words_best_first,
    the_players_moves_are_searched_by_the_player_and_left_out_of_the_recall,
    the_recall_leaves_out_the_words_in_half_the_passages,
    a_small_story_is_searched_for_every_word,
    a_deleted_campaign_waits_in_the_trash_until_restored_or_past_its_days,
);

/// On SQLite only: on PostgreSQL sqlx 0.8 can give a pooled connection back inside a `BEGIN`
/// its caller gave up on, and the next transaction on it fails (a known limitation of the
/// driver's cancellation, not yet handled here).
#[tokio::test]
async fn a_commit_given_up_part_way_on_sqlite_leaves_the_campaign_whole() {
    a_commit_given_up_part_way_leaves_the_campaign_whole(Backend::Sqlite).await;
}
