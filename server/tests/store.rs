//! The SQLite campaign store: round trips, owner scoping, optimistic concurrency, deletion.

use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::store::{Append, CampaignRecord, CampaignStore, StoreError};
use app::campaign::turn_event::TurnEvent;
use app::campaign::{CampaignId, PlayerId};
use app::game::text::{CharacterName, ClassName, LocationName};
use app::game::CharacterSheet;
use rand::{rngs::StdRng, SeedableRng};
use server::store::sqlite::SqliteStore;

struct Fixture {
    store: SqliteStore,
    _dir: tempfile::TempDir,
    rng: StdRng,
}

async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("game.db").display());
    Fixture {
        store: SqliteStore::open(&url).await.unwrap(),
        _dir: dir,
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
    CampaignEvent::Turn(TurnEvent::Narration { text: text.into() })
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
        };
        self.store
            .create(
                &record,
                &[StoredEvent {
                    turn: 0,
                    event: started(),
                }],
            )
            .await
            .unwrap();
        record.id
    }

    fn player(&mut self) -> PlayerId {
        PlayerId::random(&mut self.rng)
    }
}

#[tokio::test]
async fn a_campaign_and_its_events_come_back_in_order() {
    let mut f = fixture().await;
    let owner = f.player();
    let id = f.campaign(&owner, 100).await;

    let turn = f
        .store
        .append(
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
    let turn = f
        .store
        .append(&owner, &id, 1, Append::SameTurn, &[scene("Three")], 300)
        .await
        .unwrap();
    assert_eq!(turn, 1);

    let (record, events) = f.store.load(&owner, &id).await.unwrap();
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

#[tokio::test]
async fn campaigns_are_listed_per_owner_most_recent_first() {
    let mut f = fixture().await;
    let (alice, bob) = (f.player(), f.player());
    let old = f.campaign(&alice, 10).await;
    let new = f.campaign(&alice, 20).await;
    f.campaign(&bob, 30).await;

    let ids: Vec<CampaignId> = f
        .store
        .list(&alice)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids, vec![new, old]);
}

#[tokio::test]
async fn another_players_campaign_is_not_found() {
    let mut f = fixture().await;
    let (alice, mallory) = (f.player(), f.player());
    let id = f.campaign(&alice, 10).await;

    assert_eq!(
        f.store.load(&mallory, &id).await.unwrap_err(),
        StoreError::NotFound
    );
    assert_eq!(
        f.store
            .append(&mallory, &id, 0, Append::NextTurn, &[scene("x")], 20)
            .await
            .unwrap_err(),
        StoreError::NotFound
    );
    assert_eq!(
        f.store.delete(&mallory, &id).await.unwrap_err(),
        StoreError::NotFound
    );
    assert_eq!(
        f.store.load(&alice, &id).await.unwrap().1.len(),
        1,
        "untouched"
    );
}

#[tokio::test]
async fn two_moves_for_the_same_turn_one_wins_one_is_refused() {
    let mut f = fixture().await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;

    let first = [scene("Tab one")];
    let second = [scene("Tab two")];
    let (a, b) = tokio::join!(
        f.store.append(&owner, &id, 0, Append::NextTurn, &first, 20),
        f.store
            .append(&owner, &id, 0, Append::NextTurn, &second, 20),
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
            .any(|r| r == &Err(StoreError::Stale { current: 1 })),
        "{results:?}"
    );
    let (record, events) = f.store.load(&owner, &id).await.unwrap();
    assert_eq!(record.turn, 1);
    assert_eq!(events.len(), 2, "only the winner's events are stored");
}

#[tokio::test]
async fn actions_for_an_old_turn_are_refused() {
    let mut f = fixture().await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;
    f.store
        .append(&owner, &id, 0, Append::NextTurn, &[scene("One")], 20)
        .await
        .unwrap();

    let stale = f
        .store
        .append(&owner, &id, 0, Append::SameTurn, &[scene("late")], 30)
        .await;
    assert_eq!(stale, Err(StoreError::Stale { current: 1 }));
}

#[tokio::test]
async fn deleting_removes_the_campaign_and_its_log() {
    let mut f = fixture().await;
    let owner = f.player();
    let id = f.campaign(&owner, 10).await;

    f.store.delete(&owner, &id).await.unwrap();

    assert_eq!(
        f.store.load(&owner, &id).await.unwrap_err(),
        StoreError::NotFound
    );
    assert!(f.store.list(&owner).await.unwrap().is_empty());
}

#[tokio::test]
async fn the_database_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("game.db").display());
    let mut rng = StdRng::seed_from_u64(9);
    let owner = PlayerId::random(&mut rng);
    let record = CampaignRecord {
        id: CampaignId::random(&mut rng),
        owner: owner.clone(),
        title: "t".into(),
        created_at: 1,
        updated_at: 1,
        turn: 0,
    };
    {
        let store = SqliteStore::open(&url).await.unwrap();
        store
            .create(
                &record,
                &[StoredEvent {
                    turn: 0,
                    event: started(),
                }],
            )
            .await
            .unwrap();
    }
    let reopened = SqliteStore::open(&url).await.unwrap();
    assert_eq!(reopened.load(&owner, &record.id).await.unwrap().0, record);
}

#[tokio::test]
async fn a_campaign_is_created_with_its_opening_turn_in_one_go() {
    let mut f = fixture().await;
    let owner = f.player();
    let record = CampaignRecord {
        id: CampaignId::random(&mut f.rng),
        owner: owner.clone(),
        title: "t".into(),
        created_at: 1,
        updated_at: 1,
        turn: 1,
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

    f.store.create(&record, &events).await.unwrap();

    let (loaded, log) = f.store.load(&owner, &record.id).await.unwrap();
    assert_eq!(loaded.turn, 1);
    assert_eq!(log, events);
}
