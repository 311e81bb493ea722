//! One turn at a time per campaign, across instances sharing the database (a SQLite file, or
//! PostgreSQL): concurrent submissions make one narration; a lease left by a crash runs out; a
//! roll once shown is final.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use app::campaign::lease::{LeaseStore, LeaseTerms, PendingRoll, Work};
use app::gm::scripted::{ScriptedError, ScriptedLlm, Step};
use app::gm::{GmSettings, LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo};
use app::service::{Game, MoveRequest, ServiceError, TurnsInFlight};
use app::wire::view::{MoveInput, StoryEntry, TurnUpdate};
use app::wire::{CampaignId, PlayerId};
use futures::stream::{BoxStream, FuturesUnordered};
use futures::StreamExt;
use rand::{rngs::StdRng, SeedableRng};
use server::store::{Backend, SqlStore};
use tokio::sync::Semaphore;

use crate::support::databases;
use crate::support::guard::{actions, form};

/// The scripted model, whose calls, once it is armed, wait at a gate until the test opens it (a
/// model takes its time: here, as long as the test needs, not a guess of real time). A second
/// call reaching the gate opens it too, so that two narrations at once fail the test's counts
/// instead of hanging it.
struct Gated {
    llm: ScriptedLlm,
    armed: AtomicBool,
    arrived: AtomicUsize,
    gate: Semaphore,
}

impl Gated {
    fn new(llm: ScriptedLlm) -> Self {
        Self {
            llm,
            armed: AtomicBool::new(false),
            arrived: AtomicUsize::new(0),
            gate: Semaphore::new(0),
        }
    }

    /// From now on, calls wait at the gate.
    fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
    }

    /// Lets the waiting calls, and all later ones, through.
    fn open(&self) {
        self.gate.add_permits(1);
    }

    /// Waits at the gate if it is armed (a pass is handed back as soon as it is used).
    async fn pass(&self) {
        if !self.armed.load(Ordering::SeqCst) {
            return;
        }
        if self.arrived.fetch_add(1, Ordering::SeqCst) > 0 {
            self.open();
        }
        let _pass = self.gate.acquire().await.expect("the gate is never closed");
    }
}

impl LlmPort for Gated {
    fn model_info(&self) -> ModelInfo {
        self.llm.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let reply = self.llm.stream(request);
        futures::stream::once(self.pass())
            .flat_map(move |()| futures::stream::empty())
            .chain(reply)
            .boxed()
    }
}

/// One server instance: its own connection pool and leases on the shared database file.
struct Instance {
    store: SqlStore,
    in_flight: TurnsInFlight,
}

impl Instance {
    async fn open(url: &str) -> Self {
        let store = SqlStore::open_shared(url).await.unwrap();
        Self {
            in_flight: TurnsInFlight::new(Arc::new(store.clone())),
            store,
        }
    }

    fn game<'a>(&'a self, llm: &'a dyn LlmPort, gm: &'a GmSettings) -> Game<'a> {
        Game {
            store: &self.store,
            llm,
            gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }
}

async fn created(game: &Game<'_>, owner: &PlayerId) -> CampaignId {
    let mut rng = StdRng::seed_from_u64(1);
    game.create(owner, &form(), 100, &mut rng, &mut |_| {})
        .await
        .unwrap()
        .id
}

async fn twenty_submissions_of_one_turn_on_two_instances_make_one_narration(backend: Backend) {
    let database = databases::fresh(backend).await;
    let url = database.url.clone();
    let (a, b) = (Instance::open(&url).await, Instance::open(&url).await);
    let mut steps = vec![Step::text("A guard."), actions()];
    steps.extend((0..20).map(|n| Step::text(format!("Narration {n}."))));
    let llm = Gated::new(ScriptedLlm::from_steps(steps));
    let gm = GmSettings::default();
    let (game_a, game_b) = (a.game(&llm, &gm), b.game(&llm, &gm));
    let owner = PlayerId::random(&mut StdRng::seed_from_u64(2));
    let id = created(&game_a, &owner).await;
    llm.arm();
    let input = MoveInput::Text {
        text: "I wait".into(),
    };

    let mut submissions: FuturesUnordered<_> = (0..20u64)
        .map(|n| {
            let (game, input, id, owner) = (
                if n % 2 == 0 { &game_a } else { &game_b },
                &input,
                &id,
                &owner,
            );
            async move {
                let mut rng = StdRng::seed_from_u64(n);
                let request = MoveRequest {
                    expected_turn: 1,
                    input,
                };
                game.play(owner, id, request, 200, &mut rng, &mut |_| {})
                    .await
            }
        })
        .collect();
    // The narration waits at the gate, holding the campaign, until every other submission has
    // been answered: they all meet a turn in progress, however fast or slow the machine.
    let mut results = Vec::new();
    while let Some(result) = submissions.next().await {
        results.push(result);
        if results.len() == 19 {
            llm.open();
        }
    }

    let played = results.iter().filter(|r| matches!(r, Ok((2, _)))).count();
    let refused = results
        .iter()
        .filter(|r| matches!(r, Err(ServiceError::Busy | ServiceError::Stale { .. })))
        .count();
    assert_eq!((played, refused), (1, 19), "{results:?}");
    assert_eq!(
        llm.llm.requests().len(),
        3,
        "the opening, its actions and exactly one narration"
    );
    let (record, log) = app::campaign::store::CampaignStore::log(&a.store, &owner, &id)
        .await
        .unwrap();
    assert_eq!(record.turn, 2, "one saved turn");
    let narrations = log
        .iter()
        .filter(|stored| {
            stored.turn == 2
                && matches!(
                    stored.event,
                    app::campaign::event::CampaignEvent::Turn(
                        app::campaign::turn_event::TurnEvent::Narration { .. }
                    )
                )
        })
        .count();
    assert_eq!(narrations, 1, "one narration saved: {log:?}");
}

async fn a_lease_is_held_until_given_back_or_run_out(backend: Backend) {
    let database = databases::fresh(backend).await;
    let url = database.url.clone();
    let store = SqlStore::open(&url).await.unwrap();
    let id = CampaignId::random(&mut StdRng::seed_from_u64(3));
    let terms = |holder: &'static str, now_ms: i64| LeaseTerms {
        id: &id,
        work: Work::Turn,
        holder,
        now_ms,
        until_ms: now_ms + 30_000,
    };

    assert!(store.take_lease(terms("crashed", 0)).await.unwrap());
    assert!(
        !store.take_lease(terms("other", 29_999)).await.unwrap(),
        "held"
    );
    let summary = LeaseTerms {
        work: Work::Summary,
        ..terms("summary", 1)
    };
    assert!(
        store.take_lease(summary).await.unwrap(),
        "a summary has its own lease"
    );
    assert!(
        store.take_lease(terms("other", 30_000)).await.unwrap(),
        "ran out"
    );
    assert!(
        !store.renew_lease(terms("crashed", 30_001)).await.unwrap(),
        "the old holder has lost it"
    );
    assert!(store.renew_lease(terms("other", 50_000)).await.unwrap());
    assert!(
        !store.take_lease(terms("third", 70_000)).await.unwrap(),
        "renewed"
    );
    store
        .release_lease(&id, Work::Turn, "crashed")
        .await
        .unwrap();
    assert!(
        !store.take_lease(terms("third", 70_000)).await.unwrap(),
        "not the holder's to give"
    );
    store.release_lease(&id, Work::Turn, "other").await.unwrap();
    assert!(
        store.take_lease(terms("third", 70_000)).await.unwrap(),
        "given back"
    );

    store.clear_leases().await.unwrap();
    assert!(
        store.take_lease(terms("restarted", 70_001)).await.unwrap(),
        "cleared at start"
    );
}

async fn a_played_turn_gives_its_lease_back_before_it_answers(backend: Backend) {
    let database = databases::fresh(backend).await;
    let instance = Instance::open(&database.url).await;
    let llm = ScriptedLlm::from_steps(vec![Step::text("A guard."), actions(), Step::text("On.")]);
    let gm = GmSettings::default();
    let game = instance.game(&llm, &gm);
    let owner = PlayerId::random(&mut StdRng::seed_from_u64(4));
    let id = created(&game, &owner).await;
    let input = MoveInput::Text {
        text: "I wait".into(),
    };
    let request = MoveRequest {
        expected_turn: 1,
        input: &input,
    };

    game.play(
        &owner,
        &id,
        request,
        200,
        &mut StdRng::seed_from_u64(5),
        &mut |_| {},
    )
    .await
    .unwrap();

    // Asked at the clock's zero, not now: a lease the turn still held (taken now, for 30 s)
    // cannot have run out by then, so only one given back is free.
    let next_phase = LeaseTerms {
        id: &id,
        work: Work::Turn,
        holder: "the actions",
        now_ms: 0,
        until_ms: 30_000,
    };
    assert!(
        instance.store.take_lease(next_phase).await.unwrap(),
        "the actions asked for next find the campaign free, without waiting a poll"
    );
}

fn player_roll(updates: &[TurnUpdate]) -> Option<String> {
    updates.iter().find_map(|update| match update {
        TurnUpdate::Entry {
            entry: StoryEntry::Roll { line, .. },
            ..
        } => Some(line.clone()),
        _ => None,
    })
}

async fn a_roll_once_shown_is_the_roll_of_the_retry(backend: Backend) {
    let database = databases::fresh(backend).await;
    let url = database.url.clone();
    let instance = Instance::open(&url).await;
    let mut steps = vec![Step::text("A guard."), actions()];
    steps.extend((0..5).map(|_| Step::error(ScriptedError::Invalid)));
    steps.push(Step::text("You slip by."));
    let llm = ScriptedLlm::from_steps(steps);
    let gm = GmSettings::default();
    let game = instance.game(&llm, &gm);
    let owner = PlayerId::random(&mut StdRng::seed_from_u64(4));
    let id = created(&game, &owner).await;
    let sneak = MoveInput::Action { id: "sneak".into() };
    let attempt = |seed: u64| {
        let (game, id, owner, sneak) = (&game, &id, &owner, &sneak);
        async move {
            let mut updates = Vec::new();
            let mut rng = StdRng::seed_from_u64(seed);
            let request = MoveRequest {
                expected_turn: 1,
                input: sneak,
            };
            let result = game
                .play(owner, id, request, 200, &mut rng, &mut |u| updates.push(u))
                .await;
            (result, player_roll(&updates))
        }
    };

    let (failed, shown) = attempt(10).await;
    assert!(matches!(failed, Err(ServiceError::Gm(_))), "{failed:?}");
    let shown = shown.expect("the roll was shown before the narration failed");
    for seed in 11..15 {
        let (failed, again) = attempt(seed).await;
        assert!(failed.is_err());
        assert_eq!(again.as_deref(), Some(shown.as_str()), "seed {seed}");
    }
    assert_eq!(
        instance
            .store
            .pending_roll(&id)
            .await
            .unwrap()
            .map(|r| r.turn),
        Some(1),
        "saved before it was shown"
    );
    let (retried, again) = attempt(99).await;
    assert!(retried.is_ok(), "{retried:?}");
    assert_eq!(
        again.as_deref(),
        Some(shown.as_str()),
        "the same roll, whatever the dice say now"
    );
    assert_eq!(
        instance.store.pending_roll(&id).await.unwrap(),
        None::<PendingRoll>,
        "the committed turn took it"
    );
}

on_both_backends!(
    a_played_turn_gives_its_lease_back_before_it_answers,
    twenty_submissions_of_one_turn_on_two_instances_make_one_narration,
    a_lease_is_held_until_given_back_or_run_out,
    a_roll_once_shown_is_the_roll_of_the_retry,
);

/// A database one process serves (SQLite) keeps its leases in memory: a second phase is refused
/// while one runs, the database's lease is untouched, and the campaign is free once given back
/// or dropped; a summary has a lease of its own.
#[tokio::test]
async fn leases_in_process_are_held_in_memory() {
    let database = databases::fresh(Backend::Sqlite).await;
    let store = SqlStore::open(&database.url).await.unwrap();
    let in_flight = store.turns_in_flight();
    let id = CampaignId::random(&mut StdRng::seed_from_u64(6));

    let running = in_flight.take(&id).await.unwrap();
    assert!(matches!(in_flight.take(&id).await, Err(ServiceError::Busy)));
    let summary = in_flight.take_summary(&id).await.unwrap();
    assert!(summary.is_some(), "a summary has its own lease");
    let terms = LeaseTerms {
        id: &id,
        work: Work::Turn,
        holder: "the database's",
        now_ms: 0,
        until_ms: 30_000,
    };
    assert!(
        store.take_lease(terms).await.unwrap(),
        "nothing was written to the database's leases"
    );
    running.release().await;
    let again = in_flight.try_take(&id).await.unwrap();
    assert!(again.is_some(), "given back");
    drop(again);
    assert!(
        in_flight.try_take(&id).await.unwrap().is_some(),
        "given back when dropped"
    );
}
