//! How good a game the bundled model plays: seeded short campaigns against the real bundled
//! model (SmolLM2 in `llama-server`, installed by `scripts/setup-llm.sh`), played through the
//! service as a player clicking the first rolled action, scored by `app::gm::prose::metrics`:
//! - actions: lists whose every action is a concrete move (a verb, three words or more, no
//!   placeholder, no echo of the sheet or premise) — target ≥ 90%; the model's own lists and
//!   the lists shown (the rules' fallback included) are counted apart;
//! - dice: lists with a rolled action and a DC of 5..=25 — target ≥ 80%;
//! - voice: scenes in second person without the narrator talking about itself — target ≥ 90%;
//! - grounding: scenes naming something of the premise or the previous scene — target ≥ 90%;
//! - repetition: scenes with no sentence twice and distinct 3-grams ≥ 0.8;
//! - time: the opening scene with its actions, median, on the bundled model's threads.
//!
//! Prints a table (numbers, never pass/fail). `QUALITY_CAMPAIGNS` (default 5) and
//! `QUALITY_TURNS` (default 5) size it; a full run takes some 15 minutes on two cores.
//! Run with `cargo bench -p server --bench gm_quality` (or `make bench`).

use std::time::{Duration, Instant};

use app::campaign::event::CampaignEvent;
use app::campaign::store::CampaignStore;
use app::campaign::turn_event::TurnEvent;
use app::game::ActionList;
use app::gm::prose::metrics::{good_voice, grounded, is_concrete, repetition};
use app::gm::prose::scene::echoes;
use app::service::{Game, MoveRequest, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign, PREMISE_PRESETS};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use server::llm::bundled::BundledSettings;
use server::llm::choice::LlmChoice;
use server::llm::provider::Provider;
use server::store::SqlStore;

/// A fifth premise beside the home page's four.
const EXTRA_PREMISE: &str = "A storm strands you at a mountain inn where every guest claims to \
                             be the innkeeper.";

/// One campaign's tallies.
#[derive(Default)]
struct Score {
    lists: u32,
    own_lists: u32,
    own_concrete: u32,
    shown_concrete: u32,
    dice: u32,
    scenes: u32,
    voice: u32,
    grounded: u32,
    unrepeated: u32,
    failures: u32,
    opening: Duration,
}

fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

impl Score {
    /// Adds `other`'s tallies (not its opening time).
    fn add(&mut self, other: &Score) {
        self.lists += other.lists;
        self.own_lists += other.own_lists;
        self.own_concrete += other.own_concrete;
        self.shown_concrete += other.shown_concrete;
        self.dice += other.dice;
        self.scenes += other.scenes;
        self.voice += other.voice;
        self.grounded += other.grounded;
        self.unrepeated += other.unrepeated;
        self.failures += other.failures;
    }
}

/// One line of the table.
fn row(label: &str, s: &Score, opening: Duration, note: &str) -> String {
    format!(
        "{:<9} {:>6} {:>9} {:>9} {:>6} {:>6} {:>7} {:>8} {:>8} {:>6} {:>8.1}s{note}",
        label,
        s.lists,
        percent(s.own_concrete, s.own_lists),
        percent(s.shown_concrete, s.lists),
        percent(s.dice, s.lists),
        s.scenes,
        percent(s.voice, s.scenes),
        percent(s.grounded, s.scenes),
        percent(s.unrepeated, s.scenes),
        s.failures,
        opening.as_secs_f64()
    )
}

fn percent(part: u32, whole: u32) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    format!("{:.0}%", 100.0 * f64::from(part) / f64::from(whole))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let choice = LlmChoice::Local {
        probe: Vec::new(),
        bundled: BundledSettings::from_lookup(|name| std::env::var(name).ok()),
    };
    let provider = Provider::start(&choice, None)
        .await
        .expect("the bundled model starts (run scripts/setup-llm.sh)");
    let dir = tempfile::tempdir().unwrap();
    let store = SqlStore::open(&format!("sqlite://{}", dir.path().join("q.db").display()))
        .await
        .unwrap();
    let in_flight = TurnsInFlight::new(std::sync::Arc::new(store.clone()));
    let game = Game {
        store: &store,
        llm: provider.llm.as_ref(),
        gm: &provider.gm,
        in_flight: &in_flight,
        span: tracing::Span::none(),
    };
    let premises: Vec<&str> = PREMISE_PRESETS
        .iter()
        .copied()
        .chain([EXTRA_PREMISE])
        .collect();
    let (campaigns, turns) = (size("QUALITY_CAMPAIGNS", 5), size("QUALITY_TURNS", 5));
    println!(
        "gm_quality: {} campaigns x {turns} turns, {}",
        campaigns, provider.master.model
    );
    let mut scores = Vec::new();
    for (n, premise) in premises.iter().cycle().take(campaigns).enumerate() {
        scores.push(play(&game, &store, premise, turns, n as u64).await);
    }
    print_table(&scores);
    if let Some(bundled) = provider.bundled {
        bundled.stop().await;
    }
}

/// Plays one campaign and scores its log.
async fn play(game: &Game<'_>, store: &SqlStore, premise: &str, turns: usize, seed: u64) -> Score {
    let mut rng = StdRng::seed_from_u64(seed);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new(
        premise.to_owned(),
        "Mira".to_owned(),
        ["Ranger", "Rogue", "Wizard", "Fighter", "Bard"][seed as usize % 5].to_owned(),
    );
    let mut score = Score::default();
    let started = Instant::now();
    let Ok(created) = game.create(&owner, &form, 1, &mut rng, &mut |_| {}).await else {
        score.failures += 1;
        return score;
    };
    score.opening = started.elapsed();
    let id = created.id;
    for _ in 0..turns {
        if move_once(game, &owner, &id, &mut rng).await.is_err() {
            score.failures += 1;
        }
    }
    let state = game.current(&owner, &id).await.unwrap().state;
    let (_, log) = store.log(&owner, &id).await.unwrap();
    tally(&mut score, &log, &echoes(&state), premise);
    if std::env::var_os("QUALITY_SHOW").is_some() {
        show(&log);
    }
    score
}

/// Plays the first rolled action on offer (else the first), then gets the next actions.
async fn move_once(
    game: &Game<'_>,
    owner: &PlayerId,
    id: &CampaignId,
    rng: &mut StdRng,
) -> Result<(), app::service::ServiceError> {
    let loaded = game.current(owner, id).await?;
    let actions = app::wire::present::actions::action_views(&loaded.state);
    let chosen = actions
        .iter()
        .find(|action| action.badge.is_some())
        .or(actions.first());
    let input = match chosen {
        Some(action) => MoveInput::Action {
            id: action.id.clone(),
        },
        None => MoveInput::Text {
            text: "I look around".to_owned(),
        },
    };
    let request = MoveRequest {
        expected_turn: loaded.record.turn,
        input: &input,
    };
    game.play(owner, id, request, 2, rng, &mut |_| {}).await?;
    game.ensure_actions(owner, id, 3).await.map(drop)
}

/// Scores every scene and action list in the log.
fn tally(
    score: &mut Score,
    log: &[app::campaign::event::StoredEvent],
    echoes: &[String],
    premise: &str,
) {
    let mut previous: Option<String> = None;
    for stored in log {
        match &stored.event {
            CampaignEvent::Turn(TurnEvent::Narration { text, .. }) => {
                score.scenes += 1;
                score.voice += u32::from(good_voice(text));
                score.grounded += u32::from(grounded(text, premise, previous.as_deref()));
                let (repeated, distinct) = repetition(text);
                score.unrepeated += u32::from(!repeated && distinct >= 0.8);
                previous = Some(text.clone());
            }
            CampaignEvent::Turn(TurnEvent::ActionsOffered {
                actions, fallback, ..
            }) => {
                score.lists += 1;
                let concrete = all_concrete(actions, echoes);
                score.shown_concrete += u32::from(concrete);
                if !fallback {
                    score.own_lists += 1;
                    score.own_concrete += u32::from(concrete);
                }
                score.dice += u32::from(actions.actions().iter().any(|action| {
                    action.dice_roll().is_some()
                        && action
                            .difficulty_class()
                            .is_some_and(|dc| (5..=25).contains(&dc.value()))
                }));
            }
            _ => {}
        }
    }
}

/// Prints the campaign's scenes and action lists (`QUALITY_SHOW=1`), to read what was scored.
fn show(log: &[app::campaign::event::StoredEvent]) {
    for stored in log {
        match &stored.event {
            CampaignEvent::Turn(TurnEvent::Narration { text, .. }) => {
                println!("  [{}] scene: {}", stored.turn, text.replace('\n', " "));
            }
            CampaignEvent::Turn(TurnEvent::ActionsOffered {
                actions, fallback, ..
            }) => {
                let shown: Vec<String> = actions
                    .actions()
                    .iter()
                    .map(|action| {
                        let roll = action.dice_roll().map(|dice| format!(" ({dice})"));
                        format!(
                            "{}{}",
                            action.description().as_str(),
                            roll.unwrap_or_default()
                        )
                    })
                    .collect();
                println!(
                    "  [{}] actions{}: {}",
                    stored.turn,
                    if *fallback { " (fallback)" } else { "" },
                    shown.join(" | ")
                );
            }
            _ => {}
        }
    }
}

fn all_concrete(actions: &ActionList, echoes: &[String]) -> bool {
    actions
        .actions()
        .iter()
        .all(|action| is_concrete(action.description().as_str(), echoes))
}

fn print_table(scores: &[Score]) {
    println!(
        "{:<9} {:>6} {:>9} {:>9} {:>6} {:>6} {:>7} {:>8} {:>8} {:>6} {:>9}",
        "campaign",
        "lists",
        "own conc",
        "shown con",
        "dice",
        "scenes",
        "voice",
        "grounded",
        "unrepeat",
        "fails",
        "opening"
    );
    let mut total = Score::default();
    for (n, score) in scores.iter().enumerate() {
        println!("{}", row(&(n + 1).to_string(), score, score.opening, ""));
        total.add(score);
    }
    let mut openings: Vec<Duration> = scores.iter().map(|s| s.opening).collect();
    openings.sort();
    let median = openings
        .get(openings.len() / 2)
        .copied()
        .unwrap_or_default();
    println!("{}", row("all", &total, median, "  (median)"));
    println!(
        "targets: concrete >= 90%, dice >= 80%, voice >= 90%, grounded >= 90%; own lists {} of {}",
        total.own_lists, total.lists
    );
}
