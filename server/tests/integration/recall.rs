//! Recall over a long campaign: a name and a detail told once, early, never journaled and folded
//! out of the summary, come back into the prompt when the player names them 280 turns later, and
//! not while nothing mentions them; the prompt stays within its budget and flat; the inspector
//! says what was recalled and why; the player finds the passage by searching the story.

use crate::support::table::{Seat, Table};
use app::gm::prompt::layers::request_tokens;
use app::gm::scripted::{Scenario, ScriptedLlm, Step};
use app::gm::{GmSettings, LlmRequest, Message, Purpose};
use app::service::ServiceError;
use app::wire::view::{MoveInput, NewCampaign};
use serde_json::json;

/// The only scene that names the ferryman and his ring.
const FERRY: &str = "At the ford you meet Oswin the ferryman. He swears the silver ring on his \
                     finger was his mother's, and that he will never sell it.";

/// The turn the player names him again.
const ASKED: u32 = 290;

fn scene(turn: u32) -> String {
    if turn == 7 {
        return FERRY.to_owned();
    }
    format!(
        "Scene {turn}. The road bends through wet hills and the wind carries peat smoke from \
         beyond the ridge. A cart has lost a wheel in the ditch; a crow sits on the axle and \
         watches you. The milestones are carved with names instead of distances, and one of \
         them is fresh. The first lamps of a hamlet flicker below, where a dog barks twice."
    )
}

fn scenario(turns: u32) -> Scenario {
    Scenario {
        steps: (1..=turns).map(|turn| Step::text(scene(turn))).collect(),
        actions: vec![Step::json(json!({"actions": [
            {"id": "press-on", "description": "Press on down the road", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
        ]}))],
        summaries: vec![Step::text(
            "Wren walked the long road through the hills, day after wet day.",
        )],
        cycle: true,
        ..Scenario::default()
    }
}

fn move_of(turn: u32) -> String {
    if turn == ASKED {
        "I ask Oswin whether he still has the silver ring".to_owned()
    } else {
        format!("I walk on (move {turn})")
    }
}

fn system(request: &LlmRequest) -> &str {
    system_of(&request.messages)
}

fn system_of(messages: &[Message]) -> &str {
    match &messages[0] {
        Message::System { content } => content,
        other => panic!("the first message is the system prompt, not {other:?}"),
    }
}

/// The latest narration request the model received.
fn last_narration(seat: &Seat) -> LlmRequest {
    seat.table
        .llm
        .requests()
        .into_iter()
        .rev()
        .find(|request| request.purpose == Purpose::Narration)
        .expect("a narration")
}

#[tokio::test]
async fn a_detail_from_turn_seven_is_recalled_when_named_at_turn_two_hundred_ninety() {
    // A budget with room for a window of a few turns beside the rules and the tools (the
    // default's 2,700 tokens hold only the latest turn besides them).
    let gm = GmSettings {
        prompt_max_tokens: 4_000,
        ..GmSettings::default()
    };
    let budget = gm.prompt_budget();
    let mut seat = Seat::new(Table::serving(ScriptedLlm::new(scenario(300)), gm).await, 5);
    let form = NewCampaign::new(
        "A road through the wet hills to a barrow.",
        "Wren",
        "Ranger",
    );
    let id = seat.create(&form).await;
    // The narration request of each turn (the opening's first).
    let mut narrations = vec![last_narration(&seat)];
    for turn in 2..=300 {
        let input = MoveInput::Text {
            text: move_of(turn),
        };
        seat.try_play(&id, turn, input).await.unwrap();
        narrations.push(last_narration(&seat));
        seat.game().summarize(&seat.owner, &id, 100).await.unwrap();
    }
    let state = seat.state(&id).await;
    assert!(state.journal.is_empty(), "nothing was journaled");
    let summary = state.summary.expect("the early turns are folded");
    assert!(!summary.text.contains("Oswin") && summary.through_turn > 7);

    // The request of turn n is narrations[n - 1].
    let asked = system(&narrations[ASKED as usize - 1]);
    assert!(
        asked.contains(
            "# From earlier in the story (recalled by the rules)\n- Turn 7: At the ford you meet \
             Oswin the ferryman. He swears the silver ring on his finger was his mother's, and \
             that he will never sell it."
        ),
        "{asked}"
    );
    let journal_at = asked.find("# The character now").unwrap();
    assert!(asked.find("# From earlier").unwrap() < journal_at);
    for turn in [8, 100, 289, 291, 300] {
        let prompt = system(&narrations[turn - 1]);
        assert!(!prompt.contains("Oswin"), "turn {turn}: {prompt}");
    }

    let sizes: Vec<usize> = narrations.iter().map(request_tokens).collect();
    assert!(
        sizes.iter().all(|&size| size <= budget),
        "within {budget}: {sizes:?}"
    );
    let late = &sizes[99..];
    let (least, most) = (late.iter().min().unwrap(), late.iter().max().unwrap());
    assert!(
        most - least <= budget / 4,
        "flat from turn 100 on: {least}..{most}"
    );

    let context = seat.game().gm_context(&seat.owner, &id).await.unwrap();
    let recalled = context.recalled;
    assert!(recalled.is_empty(), "turn 300 named nobody: {recalled:?}");
    let found = seat
        .game()
        .search_story(&seat.owner, &id, "ferryman")
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].turn, found[0].words.as_slice()),
        (7, &["ferryman".to_owned()][..])
    );
    assert!(found[0]
        .text
        .starts_with("At the ford you meet Oswin the ferryman."));
    let moves = seat
        .game()
        .search_story(&seat.owner, &id, "whether")
        .await
        .unwrap();
    assert_eq!(moves.len(), 1, "the player's own moves are searched too");
    assert_eq!(moves[0].turn, ASKED);
}

#[tokio::test]
async fn the_inspector_says_what_was_recalled_and_why() {
    let mut seat = Seat::new(Table::playing(scenario(30)).await, 5);
    let form = NewCampaign::new(
        "A road through the wet hills to a barrow.",
        "Wren",
        "Ranger",
    );
    let id = seat.create(&form).await;
    for turn in 2..=30 {
        let text = if turn == 30 {
            "Where is Oswin's ferry?".to_owned()
        } else {
            move_of(turn)
        };
        seat.try_play(&id, turn, MoveInput::Text { text })
            .await
            .unwrap();
        seat.game().summarize(&seat.owner, &id, 100).await.unwrap();
    }
    let context = seat.game().gm_context(&seat.owner, &id).await.unwrap();
    let request = context.request.expect("the last request");
    let recalled = context.recalled;
    assert_eq!(recalled.len(), 1, "{recalled:?}");
    assert_eq!(recalled[0].turn, 7);
    assert_eq!(recalled[0].words, ["oswin"]);
    assert_eq!(recalled[0].text, "At the ford you meet Oswin the ferryman.");
    let layers = &last_narration(&seat).messages;
    assert!(system_of(layers).contains("- Turn 7: At the ford you meet Oswin the ferryman.\n"));
    assert_ne!(
        request.purpose, "narration",
        "shown after later requests too"
    );

    let refused = seat.game().search_story(&seat.owner, &id, " ?! ").await;
    assert!(matches!(
        refused,
        Err(ServiceError::Invalid {
            field: "search",
            ..
        })
    ));
    let stranger = app::wire::PlayerId::random(&mut rand::rng());
    let hidden = seat.game().search_story(&stranger, &id, "oswin").await;
    assert!(matches!(hidden, Err(ServiceError::NotFound)), "{hidden:?}");
}
