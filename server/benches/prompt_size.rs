//! What the model is sent as a campaign grows: a 300-turn scripted campaign played through the
//! service with the default (endpoint) settings, the summary phase run after every turn. The
//! campaign brings every tool and argument a call can carry: a spellcaster (spells and slots on
//! the sheet), a companion (the `character` argument of the tools that act on one character) and
//! a plan the model writes at the opening (`write_plan`, then `end_chapter` and the story now).
//! Every call to the model is recorded; per 30 turns the bench prints the prompt tokens and
//! request bytes per call (the body an OpenAI-compatible endpoint receives), and the share of
//! each prompt (the tool definitions, then the messages, as a provider renders them) identical to
//! the previous call's front (what a provider's prompt cache can reuse); then each tool's cost in
//! tokens as sent, and the largest call of each kind at the last turns beside the budget.
//! Goals (issue: memory): turn 300 / turn 30 ≤ 1.3; the identical front ≥ 80%. Issue 50: every
//! call at turn 300 at most [`BUDGET_BYTES`].
//!
//! Run with `cargo bench -p server --bench prompt_size` (or `make bench`); with
//! `PROMPT_SIZE_DUMP=FILE`, the largest request body of the last 30 turns is written to `FILE`.

use std::sync::Mutex;

use app::gm::prompt::layers::{prompt_json, request_tokens, shared_front};
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::{
    GmSettings, LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo, Purpose, ToolDefinition,
};
use app::service::{Game, MoveRequest, SummaryOutcome, TurnsInFlight};
use app::wire::view::{CompanionForm, MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use futures::stream::BoxStream;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use server::llm::openai::{OpenAiAdapter, OpenAiSettings};
use server::store::SqlStore;

const TURNS: u32 = 300;
const BUCKET: u32 = 30;
/// The most bytes a request body may have at turn 300 (issue 50).
const BUDGET_BYTES: usize = 12_000;

/// One call as sent.
struct Call {
    turn: u32,
    purpose: Purpose,
    tokens: usize,
    wire_bytes: usize,
    shared: f64,
    /// The share identical to the front of the previous call of the same kind.
    shared_same_kind: f64,
}

/// The scripted model, recording every request.
struct Recording {
    inner: ScriptedLlm,
    wire: OpenAiAdapter,
    turn: Mutex<u32>,
    last: Mutex<String>,
    /// The last prompt of each kind.
    last_of: Mutex<Vec<(Purpose, String)>>,
    calls: Mutex<Vec<Call>>,
    /// The largest request body at the last turns, as sent.
    largest: Mutex<Vec<u8>>,
    /// Every tool any call sent, as last sent (the opening's `write_plan` too).
    tools: Mutex<Vec<ToolDefinition>>,
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
        let mut last_of = self.last_of.lock().unwrap();
        let shared_same_kind = match last_of.iter_mut().find(|(p, _)| *p == request.purpose) {
            Some((_, previous)) => {
                let share = shared_front(previous, &prompt) as f64 / prompt.len() as f64;
                *previous = prompt.clone();
                share
            }
            None => {
                last_of.push((request.purpose, prompt.clone()));
                0.0
            }
        };
        let body = serde_json::to_vec(&self.wire.wire_request(request.clone(), true)).unwrap();
        let wire_bytes = body.len();
        let turn = *self.turn.lock().unwrap();
        let mut largest = self.largest.lock().unwrap();
        if turn > TURNS - BUCKET && wire_bytes > largest.len() {
            *largest = body;
        }
        self.calls.lock().unwrap().push(Call {
            turn,
            purpose: request.purpose,
            tokens: request_tokens(request),
            wire_bytes,
            shared,
            shared_same_kind,
        });
        *last = prompt;
        let mut tools = self.tools.lock().unwrap();
        for tool in request.tools.iter() {
            match tools.iter_mut().find(|known| known.name == tool.name) {
                Some(known) => *known = tool.clone(),
                None => tools.push(tool.clone()),
            }
        }
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

/// Scenes of about 600 characters; every 4th turn thorns that hurt (a roll, then the damage it
/// backs) and, two turns later, the cut bandaged, every 20th a journal note (a new person), as a campaign goes. Every call
/// follows the rules (each change of hit points backed by a roll), so no refusal rides in the
/// next request: the bench measures what a game that plays by the rules sends.
fn steps() -> Vec<Step> {
    let mut steps = vec![
        Step::call("write_plan", plan()),
        Step::text("A road through the wet hills. Rain is coming."),
    ];
    for turn in 2..=TURNS {
        if turn % 4 == 0 {
            // Not an attack: the rules refuse to roll one with roll_dice (a foe's attack is a
            // fight), and a refused roll leaves the damage after it unbacked.
            steps.push(Step::call(
                "roll_dice",
                json!({"dice": "1d4", "reason": "Thorns along the path"}),
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
            // Healing follows the rules too: a roll backs it (an unbacked change is refused,
            // and its refusal would ride in the next narration).
            steps.push(Step::call(
                "roll_dice",
                json!({"dice": "1d4", "reason": "Bandage the cut"}),
            ));
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

/// A plan of the size a model writes: four chapters, three threats, four key people.
fn plan() -> serde_json::Value {
    json!({
        "goal": "Open the barrow in the hills and end what wakes inside it",
        "chapters": [
            {"title": "The wet road", "goal": "Cross the hills to the hamlet", "reach": "The hamlet", "ifFailed": "the road floods and the barrow waits another year"},
            {"title": "The smith's promise", "goal": "Learn what Mira forged for the barrow", "meet": "Mira the smith", "ifFailed": "the seal's secret dies with her"},
            {"title": "The iron key", "goal": "Recover the key the bandits took", "find": "Iron key", "ifFailed": "the barrow must be broken open"},
            {"title": "The barrow", "goal": "Reach the barrow's inner hall", "reach": "The inner hall", "ifFailed": "the sleeper walks the hills"}
        ],
        "threats": [
            {"name": "The bandits", "segments": 6, "fills": "every night the hero camps on the road", "whenFull": "they reach the barrow first"},
            {"name": "The sleeper", "segments": 8, "fills": "each time the barrow's seal is disturbed", "whenFull": "it wakes and walks"},
            {"name": "The rain", "segments": 4, "fills": "each day of travel", "whenFull": "the river floods the road"}
        ],
        "people": [
            {"name": "Mira the smith", "motive": "to undo the seal she forged", "knows": "the seal's weak point", "secret": "she was paid by the bandits", "attitude": "friendly"},
            {"name": "Oswin the ferryman", "motive": "passage money", "knows": "the bandits' camp", "secret": "he is their lookout", "attitude": "wary"},
            {"name": "The bandit chief", "motive": "the barrow's gold", "knows": "where the key is hidden", "secret": "he fears the sleeper", "attitude": "hostile"},
            {"name": "Old Tam", "motive": "to see his son again", "knows": "the barrow's old songs", "secret": "his son is the sleeper's thrall", "attitude": "indifferent"}
        ]
    })
}

fn scenario() -> Scenario {
    Scenario {
        steps: steps(),
        actions: vec![Step::json(json!({"actions": [
            {"id": "press-on", "description": "Press on down the road", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null},
            {"id": "rest", "description": "Rest a while", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        summaries: vec![Step::text(
            "Wren left Fenwick for the barrow in the hills, walked many wet \
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
        last_of: Mutex::new(Vec::new()),
        calls: Mutex::new(Vec::new()),
        largest: Mutex::new(Vec::new()),
        tools: Mutex::new(Vec::new()),
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
    let mut form = NewCampaign::new(
        "A road through the wet hills to a barrow.",
        "Wren",
        "Wizard",
    );
    form.companions.push(CompanionForm {
        name: "Bran".into(),
        class: "Cleric".into(),
    });
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
        for layer in &sent.layers {
            println!(
                "  {:<28} {:>6} tokens {:>7} bytes",
                layer.name, layer.tokens, layer.bytes
            );
        }
        println!("  tools: {}", sent.tools.join(", "));
    }
    print_tools(&llm.tools.into_inner().unwrap());
    if let Ok(path) = std::env::var("PROMPT_SIZE_DUMP") {
        std::fs::write(&path, llm.largest.into_inner().unwrap()).unwrap();
        println!("the largest request body of the last turns written to {path}");
    }
    llm.calls.into_inner().unwrap()
}

/// The tokens of `tools` as the prompt's budget counts them (a request of those tools alone).
fn tools_tokens(tools: &[ToolDefinition]) -> usize {
    request_tokens(&LlmRequest {
        tools: tools.into(),
        ..LlmRequest::default()
    })
}

/// Each tool's cost in tokens as last sent.
fn print_tools(tools: &[ToolDefinition]) {
    println!("\neach tool as last sent, in tokens:");
    for tool in tools {
        println!(
            "  {:<22} {:>5} tokens",
            tool.name,
            tools_tokens(std::slice::from_ref(tool))
        );
    }
    println!("  {:<22} {:>5} tokens", "all together", tools_tokens(tools));
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
    print_same_kind(&calls);
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
    print_budget(&calls);
}

/// The share of each call identical to the front of the previous call of its kind (what a
/// provider's cache keeps for each kind of call).
fn print_same_kind(calls: &[Call]) {
    for purpose in [Purpose::Narration, Purpose::Actions, Purpose::Summary] {
        let of: Vec<f64> = calls
            .iter()
            .filter(|c| c.purpose == purpose)
            .skip(1)
            .map(|c| c.shared_same_kind)
            .collect();
        println!(
            "  {:<10} identical front with the previous call of its kind: {:.1}%",
            purpose.label(),
            of.iter().sum::<f64>() / of.len().max(1) as f64 * 100.0
        );
    }
}

/// The largest call of each kind at turn 300, and the largest at the last turns, beside the
/// budget.
fn print_budget(calls: &[Call]) {
    println!("\nrequest bytes at turn {TURNS} (budget ≤ {BUDGET_BYTES} bytes):");
    let mut largest = 0;
    for purpose in [Purpose::Narration, Purpose::Actions, Purpose::Summary] {
        let at = |turn: u32| {
            calls
                .iter()
                .filter(|c| c.purpose == purpose && c.turn == turn)
                .map(|c| c.wire_bytes)
                .max()
        };
        let last = (TURNS - BUCKET + 1..=TURNS)
            .rev()
            .find_map(|turn| at(turn).map(|b| (turn, b)));
        if let Some((turn, bytes)) = last {
            largest = largest.max(bytes);
            let verdict = if bytes <= BUDGET_BYTES {
                "within"
            } else {
                "OVER"
            };
            println!(
                "  {:<10} {bytes:>6} bytes (turn {turn}; budget ≤ {BUDGET_BYTES} bytes: {verdict})",
                purpose.label()
            );
        }
    }
    let late = calls.iter().filter(|c| c.turn > TURNS - BUCKET);
    let over = late.clone().filter(|c| c.wire_bytes > BUDGET_BYTES).count();
    println!(
        "  largest call at turns {}–{TURNS}: {} bytes; {over} of {} calls over the budget",
        TURNS - BUCKET + 1,
        late.clone()
            .map(|c| c.wire_bytes)
            .max()
            .unwrap_or(0)
            .max(largest),
        late.count()
    );
}
