//! The table's agreement through the game service: the style, lines and veils in the stable part
//! of every request; a scene that crosses a line never streamed to the player, told again once,
//! and cut when it still crosses; an action that crosses one repaired; an answer kept within
//! them; the agreement changed in play, bounded, and carried by a file.

use app::game::agreement::Style;
use app::gm::scripted::{Scenario, ScriptedLlm};
use app::gm::{LlmRequest, Message, Purpose};
use app::service::ServiceError;
use app::wire::view::{AgreementForm, MoveInput, NewCampaign, StoryEntry, TurnUpdate};

use crate::support::table::{Seat, Table};

fn scenario(json: serde_json::Value) -> Scenario {
    serde_json::from_value(json).unwrap()
}

fn system(request: &LlmRequest) -> &str {
    match request.messages.first() {
        Some(Message::System { content }) => content,
        other => panic!("no system message: {other:?}"),
    }
}

fn last_user(request: &LlmRequest) -> String {
    request
        .messages
        .iter()
        .rev()
        .find_map(|message| match message {
            Message::User { content } => Some(content.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

fn spiders() -> AgreementForm {
    AgreementForm {
        style: Style::Grim,
        lines: vec!["spiders".into(), String::new()],
        veils: vec!["torture".into()],
    }
}

fn scenes(story: &[StoryEntry]) -> Vec<String> {
    story
        .iter()
        .filter_map(|entry| match entry {
            StoryEntry::Scene { html, .. } => Some(html.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_scene_that_crosses_a_line_is_never_shown_and_told_again() {
    let script = scenario(serde_json::json!({
        "steps": [
            {"text": "The cellar is cold. A spider drops onto your hand. You freeze."},
            {"text": "The cellar is cold. Water drips somewhere."},
            {"text": "Spiders pour out of the walls. The door creaks."},
            {"text": "Spiders everywhere! A draught stirs the dust."}
        ],
        "actions": [
            {"json": {"actions": [{"id": "stroke", "description": "Stroke the spider"}]}},
            {"json": {"actions": [{"id": "listen", "description": "Listen at the door"}]}},
            {"json": {"actions": [{"id": "listen", "description": "Listen at the door"}]}}
        ]
    }));
    let mut seat = Seat::new(Table::playing(script).await, 31);
    let form = NewCampaign {
        agreement: spiders(),
        ..NewCampaign::new("A cellar", "Mira", "Ranger")
    };
    let mut shown = Vec::new();
    let id = {
        let game = seat.table.game();
        let mut sink = |update: TurnUpdate| shown.push(update);
        game.create(&seat.owner, &form, 1, &mut seat.rng, &mut sink)
            .await
            .unwrap()
            .id
    };
    seat.play(
        &id,
        2,
        MoveInput::Text {
            text: "I listen".into(),
        },
    )
    .await;

    // Nothing that crosses the line reached the player while it streamed.
    for update in &shown {
        if let TurnUpdate::Narrative { text } | TurnUpdate::NarrativeReplaced { text } = update {
            assert!(!text.to_lowercase().contains("spider"), "shown: {text}");
        }
    }
    let view = seat.game().load(&seat.owner, &id, 3).await.unwrap();
    let told = scenes(&view.story.entries);
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(told[0].contains("Water drips somewhere."), "{}", told[0]);
    // Told again and still crossing: the crossing sentence is cut, the rest kept.
    assert!(told[1].contains("A draught stirs the dust."), "{}", told[1]);
    assert!(told
        .iter()
        .all(|scene| !scene.to_lowercase().contains("spider")));
    // The action that crossed was repaired away.
    let offered: Vec<String> = view.actions.iter().map(|a| a.description.clone()).collect();
    assert_eq!(offered, ["Listen at the door"]);
    assert_eq!(view.agreement.lines()[0].as_str(), "spiders");

    let requests = seat.table.llm.requests();
    let narration = &requests[0];
    assert!(system(narration).contains(
        "# The table\nThe game master's style: grim: a hard, dark world where choices cost something.\n\
         Lines (never in the story, not even hinted at): spiders.\n\
         Veils (may happen, but off-screen: cut away and tell only what follows): torture."
    ));
    assert!(
        last_user(&requests[1]).starts_with("That scene crossed a line this table drew (spiders).")
    );
    let repair = requests
        .iter()
        .filter(|request| request.purpose == Purpose::Actions)
        .nth(1)
        .expect("the crossing action list is repaired");
    assert!(last_user(repair).contains("an action crosses a line this table drew (spiders)"));
    // The model's own history holds what the player read.
    let state = seat.state(&id).await;
    let history = format!("{:?}", state.context);
    assert!(!history.contains("A spider drops"), "{history}");
}

#[tokio::test]
async fn the_agreement_changes_in_play_within_its_bounds_and_travels_with_a_file() {
    let script = scenario(serde_json::json!({
        "cycle": true,
        "steps": [{"text": "The road bends."}],
        "answers": [{"text": "Yes. A rat nibbles the rope. The ledge is near."}],
        "actions": [{"json": {"actions": [{"id": "walk", "description": "Walk on"}]}}]
    }));
    let llm = ScriptedLlm::new(script);
    let mut seat = Seat::new(Table::serving(llm, Default::default()).await, 32);
    let id = seat
        .create(&NewCampaign::new("A road", "Oskar", "Fighter"))
        .await;
    let first = seat.table.llm.requests();
    assert!(
        !system(&first[0]).contains("# The table"),
        "no agreement, no layer"
    );

    let long = AgreementForm {
        lines: vec!["x".repeat(10_240)],
        ..AgreementForm::default()
    };
    let refused = seat.game().set_agreement(&seat.owner, &id, &long, 2).await;
    match refused {
        Err(ServiceError::Invalid { field, reason }) => {
            assert_eq!(field, "agreement");
            assert!(
                reason.to_string().contains("at most 80 characters"),
                "{reason}"
            );
        }
        other => panic!("accepted: {other:?}"),
    }
    assert_eq!(seat.state(&id).await.agreement, Default::default());

    let rats = AgreementForm {
        style: Style::Terse,
        lines: vec!["rats".into()],
        veils: Vec::new(),
    };
    let agreed = seat
        .game()
        .set_agreement(&seat.owner, &id, &rats, 2)
        .await
        .unwrap();
    assert_eq!(agreed.style(), Style::Terse);
    assert_eq!(seat.state(&id).await.agreement, agreed);
    seat.play(
        &id,
        2,
        MoveInput::Text {
            text: "I walk".into(),
        },
    )
    .await;
    let narration = seat
        .table
        .llm
        .requests()
        .into_iter()
        .rfind(|request| request.purpose == Purpose::Narration)
        .unwrap();
    assert!(system(&narration).contains("The game master's style: terse"));
    assert!(system(&narration).contains("Lines (never in the story, not even hinted at): rats."));

    // An answer out of character keeps the lines too.
    let answer = seat
        .game()
        .ask(&seat.owner, &id, "Can I reach the ledge?")
        .await
        .unwrap();
    assert_eq!(answer.answer, "Yes. The ledge is near.");

    // A file carries the agreement; a file whose line is out of bounds is refused.
    let export = seat.game().export(&seat.owner, &id).await.unwrap();
    let file = serde_json::to_string(&export).unwrap();
    let copy = seat
        .table
        .game()
        .import(&seat.owner, &file, 3, &mut seat.rng)
        .await
        .unwrap();
    assert_eq!(seat.state(&copy.id).await.agreement, agreed);
    let tampered = file.replace("\"rats\"", &format!("\"{}\"", "r".repeat(200)));
    assert!(seat
        .table
        .game()
        .import(&seat.owner, &tampered, 3, &mut seat.rng)
        .await
        .is_err());
}
