//! The bundled local game master: a real turn against the real `llama-server` and SmolLM2
//! (installed by `scripts/setup-llm.sh`; a missing install fails here, it is never skipped), a
//! whole fight played with it (the rules start it and resolve every exchange, a wizard's spell
//! among them; the model only narrates), a journal the rules note for it, a campaign whose plan
//! the rules build and whose next scene the director steers once the rules count four still
//! turns (every move the rules then offer naming something of the plan or the scene), and the
//! text-tools path through the real adapter against a scripted reply on the wire.
//!
//! Against the real model only structure is asserted (a non-empty scene, a schema-valid action
//! list, the process stopped, the journal the rules keep from the premise and the player's
//! words), never the model's content, nor how long it took: each call is bounded by the
//! adapter's own timeouts and each phase of the game by its deadline, so nothing here waits on
//! a clock of its own.

use crate::support::recorded_game;

use std::time::Duration;

use crate::support::sse::{delta, sse, sse_response};
use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::state::{CampaignState, ContextTurn};
use app::campaign::turn_event::TurnEvent;
use app::game::spine::director::IDLE_THRESHOLD;
use app::game::spine::shapes::Shape;
use app::game::spine::SpineEvent;
use app::game::text::{CharacterName, ClassName, LocationName};
use app::game::CharacterSheet;
use app::gm::prose::scene::{last_scene, things_named};
use app::gm::turn::candidates::candidate_moves;
use app::gm::{narrate, offer_actions, GmSettings, Memory, MoveText, Narration, PlayerMove};
use app::service::MoveRequest;
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::PlayerId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};
use server::llm::bundled::BundledSettings;
use server::llm::choice::{LlmChoice, ToolMode};
use server::llm::openai::OpenAiSettings;
use server::llm::provider::Provider;
use wiremock::{
    matchers::{body_string_contains, method, path},
    Mock, MockServer, ResponseTemplate,
};

fn sheet() -> CharacterSheet {
    CharacterSheet::new(
        CharacterName::new("Mira").unwrap(),
        ClassName::new("Ranger").unwrap(),
        LocationName::new("The flooded crypt").unwrap(),
    )
}

/// The install `scripts/setup-llm.sh` made (the test command runs it first).
fn installed() -> BundledSettings {
    BundledSettings::from_lookup(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// The bundled model started as the app starts it when nothing else runs here.
async fn start_bundled() -> Provider {
    let choice = LlmChoice::Local {
        probe: Vec::new(),
        bundled: installed(),
    };
    Provider::start(&choice, None)
        .await
        .unwrap_or_else(|error| panic!("the bundled model must start: {error}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundled_model_plays_a_full_turn_and_stops_with_the_app() {
    let mut provider = start_bundled().await;
    let bundled = provider.bundled.take().expect("the bundled server runs");
    let base_url = bundled.base_url().to_owned();
    let pid = bundled.id().expect("a process id");
    assert_eq!(provider.master.model, "SmolLM2-135M-Instruct");
    assert!(
        provider.master.advice.is_some(),
        "the player is told it is rough"
    );
    assert_eq!(provider.gm, GmSettings::small_model());

    let premise = "A lantern-lit crypt beneath a drowned village.";
    let mut state = CampaignState::start(premise, sheet());
    let opening = PlayerMove::Opening(MoveText::parse(premise).unwrap());
    let narration = narrate(
        provider.llm.as_ref(),
        &provider.gm,
        &state,
        Memory::default(),
        &opening,
        &mut StdRng::seed_from_u64(1),
        &mut |_| {},
    )
    .await
    .expect("the narration succeeds");
    assert!(!narration.text.trim().is_empty(), "a non-empty scene");

    state.sheet = narration.sheet.clone();
    state.context.push(ContextTurn {
        turn: 1,
        messages: narration.messages.clone(),
    });
    let offered = offer_actions(
        provider.llm.as_ref(),
        &provider.gm,
        &state,
        Some(&narration.sent),
    )
    .await
    .expect("the actions call succeeds");
    assert!(
        offered.sent.shared_front_bytes as usize > app::gm::prompt::messages::SMALL_GM_RULES.len(),
        "the actions request repeats the narration's front: {:?}",
        offered.sent
    );
    let offered = offered.events.iter().find_map(|event| match event {
        TurnEvent::ActionsOffered {
            actions, fallback, ..
        } => Some((actions, *fallback)),
        _ => None,
    });
    let (actions, fallback) = offered.expect("actions are offered");
    assert!(
        !fallback,
        "the model's own list was valid, not the fallback"
    );
    assert!(!actions.is_empty());

    bundled.stop().await;
    assert_gone(pid, &base_url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundled_model_gets_a_journal_the_rules_keep() {
    let mut provider = start_bundled().await;
    let board = recorded_game::Board::new().await;
    let game = board.game(provider.llm.as_ref(), &provider.gm);
    let mut rng = StdRng::seed_from_u64(31);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new(
        "A lantern-lit crypt beneath the drowned village of Hollowmere.",
        "Mira",
        "Ranger",
    );
    let played = async {
        let id = game
            .create(&owner, &form, 1, &mut rng, &mut |_| {})
            .await?
            .id;
        let moves = [
            "I wade into Hollowmere and call for Brother Tam.",
            "I ask Brother Tam what sank Hollowmere.",
        ];
        for (turn, text) in (1..).zip(moves) {
            let input = MoveInput::Text { text: text.into() };
            let request = MoveRequest {
                expected_turn: turn,
                input: &input,
            };
            game.play(&owner, &id, request, 1, &mut rng, &mut |_| {})
                .await?;
        }
        game.current(&owner, &id).await
    }
    .await
    .expect("every turn plays");
    if let Some(bundled) = provider.bundled.take() {
        bundled.stop().await;
    }
    let journal = played.state.journal.entries();
    assert!(
        journal
            .iter()
            .any(|entry| entry.by_rules && entry.name.as_str() == "Hollowmere"),
        "the place the premise names and the player walks into: {journal:#?}"
    );
    assert!(journal.iter().all(|entry| entry.by_rules), "{journal:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundled_model_plays_a_fight_to_its_end() {
    let mut provider = start_bundled().await;
    let ledger = recorded_game::play(provider.llm.as_ref(), &provider.gm)
        .await
        .expect("every turn of it plays");
    if let Some(bundled) = provider.bundled.take() {
        bundled.stop().await;
    }
    let fight: Vec<&String> = ledger.iter().filter(|l| l.contains("the fight:")).collect();
    assert!(
        fight.first().is_some_and(|l| l.contains("Initiative:")),
        "the rules started the fight: {ledger:#?}"
    );
    assert!(
        fight
            .iter()
            .any(|l| l.contains("You cast Magic Missile with a 1st-level slot")),
        "the wizard cast a spell, the rules' move: {ledger:#?}"
    );
    assert!(
        fight
            .iter()
            .any(|l| l.contains("Magic Missile hits Jackal")),
        "its darts landed by the rules: {ledger:#?}"
    );
    assert!(
        fight
            .last()
            .is_some_and(|l| l.contains("The fight is over")),
        "the fight ended within {} moves: {ledger:#?}",
        recorded_game::MAX_FIGHT_MOVES
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundled_model_gets_the_rules_plan_a_steer_and_moves_that_name_the_story() {
    let mut provider = start_bundled().await;
    let premise = "Rescue the miller's daughter from the bandits of Hollowmere.";
    let mut state = CampaignState::start(premise, sheet());
    let opening = PlayerMove::Opening(MoveText::parse(premise).unwrap());
    let mut rng = StdRng::seed_from_u64(1);
    let gm = &provider.gm;
    let told = narrate(
        provider.llm.as_ref(),
        gm,
        &state,
        Memory::default(),
        &opening,
        &mut rng,
        &mut |_| {},
    )
    .await
    .expect("the opening is narrated");
    played(&mut state, 1, &told);
    assert!(state.spine.by_rules, "the rules built the plan");
    assert_eq!(state.spine.plan, Some(Shape::of(premise).plan()));

    // Four still turns after the opening (the count is the rules', not the model's), the next
    // scene is steered: the steer is decided before the model is asked, and told to it.
    state.turn = 1 + IDLE_THRESHOLD;
    let due = state.spine.due_steer(state.turn).expect("a steer is due");
    let still = PlayerMove::Text(MoveText::parse("I sit by the fire and say nothing.").unwrap());
    let told = narrate(
        provider.llm.as_ref(),
        gm,
        &state,
        Memory::default(),
        &still,
        &mut rng,
        &mut |_| {},
    )
    .await
    .expect("the still move is narrated");
    if let Some(bundled) = provider.bundled.take() {
        bundled.stop().await;
    }
    let steered = told.events.iter().find_map(|event| match event {
        TurnEvent::Spine {
            change: SpineEvent::Steered { steer, idle },
        } => Some((steer.clone(), *idle)),
        _ => None,
    });
    assert_eq!(steered, Some((due.clone(), IDLE_THRESHOLD)));
    let asked = format!("{:?}", told.messages.first());
    assert!(
        asked.contains("[Director]") && asked.contains(&due.text),
        "{asked}"
    );

    played(&mut state, 1 + IDLE_THRESHOLD + 1, &told);
    let named = story_names(&state);
    for candidate in candidate_moves(&state) {
        let words = candidate.description.to_lowercase();
        assert!(
            named.iter().any(|name| words.contains(name.as_str())),
            "{words:?} names none of {named:?}"
        );
    }
}

/// `told`'s events applied to `state` as turn `turn`, and its messages kept for the model.
fn played(state: &mut CampaignState, turn: u32, told: &Narration) {
    for event in &told.events {
        let stored = StoredEvent {
            turn,
            event: CampaignEvent::Turn(event.clone()),
        };
        state.apply(&stored).expect("the rules' own events apply");
    }
    state.context.push(ContextTurn {
        turn,
        messages: told.messages.clone(),
    });
}

/// Everything of the plan and the scene a move may name, lower case: the plan's people, threats
/// and chapter goals, the map's places, the journal's names, the things the last scene names.
fn story_names(state: &CampaignState) -> Vec<String> {
    let mut names: Vec<String> = state
        .map
        .places()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    names.extend(state.journal.entries().iter().map(|e| e.name.to_string()));
    if let Some(plan) = &state.spine.plan {
        names.extend(plan.people().iter().map(|p| p.name.to_string()));
        names.extend(plan.threats().iter().map(|t| t.name.to_string()));
        names.extend(plan.chapters().iter().map(|c| c.mark.describe()));
    }
    names.extend(things_named(last_scene(state).unwrap_or_default()));
    names
        .into_iter()
        .map(|name| {
            let name = name.to_lowercase();
            ["meet ", "reach ", "find "]
                .iter()
                .find_map(|verb| name.strip_prefix(verb).map(str::to_owned))
                .unwrap_or(name)
        })
        .collect()
}

/// The bundled server's process has ended and nothing answers on its port.
async fn assert_gone(pid: u32, base_url: &str) {
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "llama-server is gone"
    );
    let after = reqwest::Client::new()
        .get(format!("{base_url}/models"))
        .timeout(Duration::from_secs(2))
        .send()
        .await;
    assert!(after.is_err(), "nothing answers on its port any more");
}

/// A streamed reply of `content`.
fn streamed_reply(content: &str) -> ResponseTemplate {
    sse_response(sse(&[
        delta(json!({"role": "assistant", "content": content}), None),
        delta(json!({}), Some("stop")),
    ]))
}

#[tokio::test]
async fn a_text_tool_roll_in_a_scripted_reply_is_parsed_and_rolled() {
    let server = MockServer::start().await;
    // The second call carries the roll's result; it gets the scene.
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_string_contains("[Tool result]"))
        .respond_with(streamed_reply(
            "The goblin's blade glances off your shield.",
        ))
        .with_priority(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(streamed_reply(
            "The goblin lunges.\n<tool name=\"roll_dice\">{\"dice\": \"1d20+3\", \"reason\": \
             \"Falling rocks\"}</tool>",
        ))
        .with_priority(2)
        .expect(1)
        .mount(&server)
        .await;

    let settings = OpenAiSettings::new(format!("{}/v1", server.uri()), "tiny");
    let provider = Provider::start(&LlmChoice::Endpoint(settings), Some(ToolMode::Text))
        .await
        .unwrap();
    let narration = narrate(
        provider.llm.as_ref(),
        &provider.gm,
        &CampaignState::start("A goblin ambush", sheet()),
        Memory::default(),
        &PlayerMove::Text(MoveText::parse("I raise my shield.").unwrap()),
        &mut StdRng::seed_from_u64(3),
        &mut |_| {},
    )
    .await
    .expect("the turn succeeds");

    let roll = narration.events.iter().find_map(|event| match event {
        TurnEvent::ToolCalled { call } => Some(call),
        _ => None,
    });
    let roll = roll.expect("the tag became a tool call");
    assert_eq!(roll.name, "roll_dice");
    let result = narration.events.iter().find_map(|event| match event {
        TurnEvent::ToolResult { result, effect, .. } => Some((result, effect.is_some())),
        _ => None,
    });
    let (result, applied) = result.expect("the roll was made");
    assert!(applied, "the rules accepted the roll: {result}");
    assert!(result.contains("Falling rocks"), "{result}");
    assert_eq!(
        narration.text,
        "The goblin's blade glances off your shield."
    );

    // The model never saw native tools: they were described in the system prompt instead.
    let requests = server.received_requests().await.unwrap();
    let first: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert!(first.get("tools").is_none(), "no native tools: {first}");
    assert!(first["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("<tool name="));
}
