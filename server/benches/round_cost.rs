//! What a round at a table of friends costs the model: with one, two and four players (a
//! companion beside them in each case), ten rounds of scripted play through the table's
//! service, every seat moving each round. Prints per round the model calls, the prompt tokens
//! sent (cl100k, tool definitions included) and the completion tokens, by phase. A round is
//! narrated once whatever the number of seats: its cost grows only with the lines each seat's
//! move and hero add to the prompt.
//!
//! Run with `cargo bench -p server --bench round_cost` (or `make bench`).

use std::sync::Mutex;

use app::game::creation::CharacterDraft;
use app::gm::prompt::layers::request_tokens;
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::{GmSettings, LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo, Purpose};
use app::service::live::LiveTurns;
use app::service::table::Table;
use app::service::{Game, TurnsInFlight};
use app::wire::view::{CompanionForm, MoveInput, NewCampaign, RoundState};
use app::wire::PlayerId;
use futures::stream::BoxStream;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use server::store::SqlStore;

const ROUNDS: u32 = 10;

/// The scripted model, counting each request's tokens by purpose.
struct Counting {
    inner: ScriptedLlm,
    calls: Mutex<Vec<(Purpose, usize)>>,
}

impl LlmPort for Counting {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let tokens = request_tokens(&request);
        self.calls.lock().unwrap().push((request.purpose, tokens));
        self.inner.stream(request)
    }
}

fn scenario() -> Scenario {
    Scenario {
        steps: vec![Step::text(
            "The road climbs through pines toward the old watchtower. Rain on the stones, \
             smoke from a camp below, a raven that follows the party from branch to branch.",
        )],
        actions: vec![Step::json(json!({"actions": [
            {"id": "press-on", "description": "Press on up the road", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null},
            {"id": "scout", "description": "Scout the tree line", "diceRoll": "1d20", "diceReason": "Wisdom", "difficultyClass": 12, "attribute": "WIS"}
        ]}))],
        cycle: true,
        ..Scenario::default()
    }
}

/// Model calls, prompt tokens and completion tokens per round with `seats` players.
async fn rounds(seats: usize) -> (f64, f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let store = SqlStore::open(&url).await.unwrap();
    let llm = Counting {
        inner: ScriptedLlm::new(scenario()),
        calls: Mutex::new(Vec::new()),
    };
    let gm = GmSettings::default();
    let in_flight = TurnsInFlight::new(std::sync::Arc::new(store.clone()));
    let live = LiveTurns::default();
    let table = Table {
        game: Game {
            store: &store,
            llm: &llm,
            gm: &gm,
            in_flight: &in_flight,
            span: tracing::Span::none(),
        },
        tables: &store,
        live: &live,
    };
    let mut rng = StdRng::seed_from_u64(7);
    let host = PlayerId::random(&mut rng);
    let form = NewCampaign {
        companions: vec![CompanionForm {
            name: "Bran".into(),
            class: "Cleric".into(),
        }],
        ..NewCampaign::new("A watchtower in the pines", "Aria", "Fighter")
    };
    let id = table
        .game
        .create(&host, &form, 1, &mut rng, &mut |_| {})
        .await
        .unwrap()
        .id;
    table.game.ensure_actions(&host, &id, 1).await.unwrap();
    let players = seat_friends(&table, &host, &id, seats, &mut rng).await;
    let before = llm.calls.lock().unwrap().len();
    let usage_before = table.game.current(&host, &id).await.unwrap().state.usage;
    for _ in 0..ROUNDS {
        let turn = table.game.current(&host, &id).await.unwrap().state.turn;
        for (n, player) in players.iter().enumerate() {
            let input = MoveInput::Action {
                id: if n % 2 == 0 { "press-on" } else { "scout" }.into(),
            };
            let state = table
                .submit(player, &id, turn, &input, 10, &mut rng, &mut |_| {})
                .await
                .unwrap();
            assert_eq!(
                matches!(state, RoundState::Narrated { .. }),
                n + 1 == players.len()
            );
        }
        table.game.ensure_actions(&host, &id, 10).await.unwrap();
    }
    let (count, prompt) = {
        let calls = llm.calls.lock().unwrap();
        let round_calls = &calls[before..];
        let prompt: usize = round_calls.iter().map(|(_, tokens)| tokens).sum();
        (round_calls.len(), prompt)
    };
    let usage = table.game.current(&host, &id).await.unwrap().state.usage;
    let completion = usage.completion_tokens - usage_before.completion_tokens;
    let per = f64::from(ROUNDS);
    (
        count as f64 / per,
        prompt as f64 / per,
        f64::from(completion) / per,
    )
}

/// The host and the friends invited to seat with heroes of their own, `seats` players in all.
async fn seat_friends(
    table: &Table<'_>,
    host: &PlayerId,
    id: &app::wire::CampaignId,
    seats: usize,
    rng: &mut StdRng,
) -> Vec<PlayerId> {
    let mut players = vec![host.clone()];
    for (n, name) in ["Mira", "Cato", "Dara"].iter().take(seats - 1).enumerate() {
        let invitation = table.invite(host, id, 2, rng).await.unwrap();
        let code = invitation.path.trim_start_matches("/join/").to_owned();
        let friend = PlayerId::random(rng);
        let hero = CharacterDraft {
            name: (*name).into(),
            class: ["Rogue", "Wizard", "Ranger"][n].into(),
            ..CharacterDraft::default()
        };
        table.join(&friend, &code, &hero, 3).await.unwrap();
        players.push(friend);
    }
    players
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!("A round at a table of friends ({ROUNDS} rounds, a companion at each table):");
    println!(
        "{:>8} {:>16} {:>22} {:>20}",
        "players", "model calls", "prompt tokens sent", "completion tokens"
    );
    for seats in [1, 2, 4] {
        let (calls, prompt, completion) = rounds(seats).await;
        println!("{seats:>8} {calls:>16.1} {prompt:>22.0} {completion:>20.0}");
    }
}
