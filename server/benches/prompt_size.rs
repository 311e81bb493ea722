//! What the model is sent as a campaign grows: a 300-turn scripted campaign played through the
//! service with the default (endpoint) settings, the summary phase run after every turn. Every
//! call to the model is recorded; per 30 turns the bench prints the prompt tokens and request
//! bytes per call (the body an OpenAI-compatible endpoint receives), and the share of each
//! prompt (the tool definitions, then the messages, as a provider renders them) identical to the
//! previous call's front (what a provider's prompt cache can reuse).
//! Goals (issue: memory): turn 300 / turn 30 ≤ 1.3; the identical front ≥ 80%.
//!
//! Run with `cargo bench -p server --bench prompt_size` (or `make bench`).

use std::sync::Mutex;

use app::gm::prompt::layers::{prompt_json, request_tokens, shared_front};
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::{GmSettings, LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo, Purpose};
use app::service::{Game, MoveRequest, SummaryOutcome, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use futures::stream::BoxStream;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use server::llm::openai::{OpenAiAdapter, OpenAiSettings};
use server::store::SqlStore;

const TURNS: u32 = 300;
const BUCKET: u32 = 30;

/// One call as sent.
struct Call {
    turn: u32,
    purpose: Purpose,
    tokens: usize,
    wire_bytes: usize,
    shared: f64,
}

/// The scripted model, recording every request.
struct Recording {
    inner: ScriptedLlm,
    wire: OpenAiAdapter,
    turn: Mutex<u32>,
    last: Mutex<String>,
    calls: Mutex<Vec<Call>>,
}

impl Recording {
    fn record(&self, request: &LlmRequest) {
        let prompt = prompt_json(request);
        let mut last = self.last.lock().unwrap();
        let shared = if last.is_empty() {
            0.0
        } else {
            shared_front(&last, &prompt) as f64 / prompt.len() as f64
        };
        let wire_bytes = serde_json::to_vec(&self.wire.wire_request(request.clone(), true))
            .unwrap()
            .len();
        self.calls.lock().unwrap().push(Call {
            turn: *self.turn.lock().unwrap(),
            purpose: request.purpose,
            tokens: request_tokens(request),
            wire_bytes,
            shared,
        });
        *last = prompt;
    }
}

impl LlmPort for Recording {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        self.record(&request);
        self.inner.stream(request)
    }
}

/// Scenes of about 600 characters; every 4th turn an attack that hurts, every 20th a journal
/// note (a new person), as a campaign goes.
fn steps() -> Vec<Step> {
    let mut steps = vec![Step::text("A road through the wet hills. Rain is coming.")];
    for turn in 2..=TURNS {
        if turn % 4 == 0 {
            steps.push(Step::call(
                "roll_dice",
                json!({"dice": "1d20+3", "reason": "Bandit attack"}),
            ));
            steps.push(Step::call("update_character", json!({"hpChange": -1})));
        }
        if turn % 20 == 5 {
            steps.push(Step::call(
                "keep_journal",
                json!({"action": "note", "kind": "person", "name": format!("Traveller {turn}"),
                       "note": "Met on the road; friendly, owes you a favour."}),
            ));
        }
        if turn % 4 == 2 {
            steps.push(Step::call("update_character", json!({"hpChange": 1})));
        }
        steps.push(Step::text(format!(
            "Scene {turn}. The road bends through wet hills and the wind carries peat smoke \
             from beyond the ridge. A cart has lost a wheel in the ditch; a crow sits on the \
             axle and watches you with one bright eye. The milestones are carved with names \
             instead of distances, and one of them is fresh. The first lamps of a hamlet \
             flicker below, where a dog barks twice and stops. A bell rings the hour, and you \
             count the strokes without meaning to."
        )));
    }
    steps
}

fn scenario() -> Scenario {
    Scenario {
        steps: steps(),
        actions: vec![Step::json(json!({"actions": [
            {"id": "press-on", "description": "Press on down the road", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null},
            {"id": "rest", "description": "Rest a while", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        summaries: vec![Step::text(
            "The story so far: Wren left Fenwick for the barrow in the hills, walked many wet \
             days along the old road, fought off bandits more than once and met travellers who \
             may yet help. The barrow is still ahead; the promise to Mira the smith still stands.",
        )],
        cycle: true,
        ..Scenario::default()
    }
}

async fn play() -> Vec<Call> {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let store = SqlStore::open(&url).await.unwrap();
    let llm = Recording {
        inner: ScriptedLlm::new(scenario()),
        wire: OpenAiAdapter::new(OpenAiSettings::new("http://127.0.0.1:9/v1", "gpt-4o-mini"))
            .unwrap(),
        turn: Mutex::new(1),
        last: Mutex::new(String::new()),
        calls: Mutex::new(Vec::new()),
    };
    let (gm, in_flight) = (
        GmSettings::default(),
        TurnsInFlight::new(std::sync::Arc::new(store.clone())),
    );
    let game = Game {
        store: &store,
        llm: &llm,
        gm: &gm,
        in_flight: &in_flight,
        span: tracing::Span::none(),
    };
    let mut rng = StdRng::seed_from_u64(300);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new(
        "A road through the wet hills to a barrow.",
        "Wren",
        "Ranger",
    );
    let id: CampaignId = game
        .create(&owner, &form, 1, &mut rng, &mut |_| {})
        .await
        .unwrap()
        .id;
    let mut summaries = 0;
    for turn in 2..=TURNS {
        *llm.turn.lock().unwrap() = turn;
        let input = MoveInput::Text {
            text: format!("I walk on ({turn})"),
        };
        let request = MoveRequest {
            expected_turn: turn - 1,
            input: &input,
        };
        game.play(&owner, &id, request, 1, &mut rng, &mut |_| {})
            .await
            .unwrap();
        game.ensure_actions(&owner, &id, 1).await.unwrap();
        if let SummaryOutcome::Saved { .. } = game.summarize(&owner, &id, 1).await.unwrap() {
            summaries += 1;
        }
    }
    println!("{summaries} summaries written over {TURNS} turns");
    if let Some(sent) = game.current(&owner, &id).await.unwrap().request {
        println!("the last request ({}), by layer:", sent.purpose);
        for layer in sent.layers {
            println!(
                "  {:<28} {:>6} tokens {:>7} bytes",
                layer.name, layer.tokens, layer.bytes
            );
        }
        println!("  tools: {}", sent.tools.join(", "));
    }
    llm.calls.into_inner().unwrap()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let calls = runtime.block_on(play());
    println!("\nprompt size: {TURNS}-turn scripted campaign, default endpoint settings, per call");
    println!(
        "{:<12} {:>6} {:>14} {:>14} {:>16}",
        "turns", "calls", "prompt tokens", "request bytes", "identical front"
    );
    let mut rows = Vec::new();
    for end in (BUCKET..=TURNS).step_by(BUCKET as usize) {
        let bucket: Vec<&Call> = calls
            .iter()
            .filter(|call| call.turn > end - BUCKET && call.turn <= end)
            .collect();
        let n = bucket.len() as f64;
        let tokens = bucket.iter().map(|c| c.tokens as f64).sum::<f64>() / n;
        let bytes = bucket.iter().map(|c| c.wire_bytes as f64).sum::<f64>() / n;
        let shared = bucket.iter().map(|c| c.shared).sum::<f64>() / n;
        println!(
            "{:<12} {:>6} {:>14.0} {:>14.0} {:>15.1}%",
            format!("{}–{end}", end - BUCKET + 1),
            bucket.len(),
            tokens,
            bytes,
            shared * 100.0
        );
        rows.push((tokens, bytes));
    }
    let narration = |turn: u32| {
        calls
            .iter()
            .rfind(|call| call.turn == turn && call.purpose == Purpose::Narration)
            .map(|call| (call.tokens as f64, call.wire_bytes as f64))
            .expect("a narration that turn")
    };
    let (first, last) = (narration(BUCKET), narration(TURNS));
    let all_shared = calls.iter().skip(1).map(|c| c.shared).sum::<f64>() / (calls.len() - 1) as f64;
    let summaries = calls
        .iter()
        .filter(|c| c.purpose == Purpose::Summary)
        .count();
    println!(
        "turn {TURNS} / turn {BUCKET} (narration): tokens {:.2}, bytes {:.2}   (goal: ≤ 1.30)",
        last.0 / first.0,
        last.1 / first.1
    );
    println!(
        "identical front over all {} calls ({summaries} summary calls): {:.1}%   (goal: ≥ 80%)",
        calls.len(),
        all_shared * 100.0
    );
    for purpose in [Purpose::Narration, Purpose::Actions, Purpose::Summary] {
        let of: Vec<&Call> = calls.iter().filter(|c| c.purpose == purpose).collect();
        let late: Vec<usize> = of
            .iter()
            .filter(|c| c.turn > TURNS - BUCKET)
            .map(|c| c.wire_bytes)
            .collect();
        println!(
            "{:<10} request body: mean {:>6.0} bytes, largest {:>6} (turns {}–{TURNS}: largest {})",
            purpose.label(),
            of.iter().map(|c| c.wire_bytes as f64).sum::<f64>() / of.len().max(1) as f64,
            of.iter().map(|c| c.wire_bytes).max().unwrap_or(0),
            TURNS - BUCKET + 1,
            late.iter().max().unwrap_or(&0),
        );
    }
}
