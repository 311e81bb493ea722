//! Folding a campaign's log gives back exactly what the live turn produced.
#![cfg(feature = "ssr")]

use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::projection::CampaignState;
use app::campaign::view::StoryEntry;
use app::game::text::{CharacterName, ClassName, LocationName};
use app::game::CharacterSheet;
use app::gm::scripted::{ScriptedLlm, Step};
use app::gm::{narrate, offer_actions, GmSettings, MoveText, PlayerMove};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

#[tokio::test]
async fn the_fold_of_a_stored_turn_matches_the_live_turn() {
    let sheet = CharacterSheet::new(
        CharacterName::new("Mira").unwrap(),
        ClassName::new("Ranger").unwrap(),
        LocationName::new("Crypt").unwrap(),
    );
    let llm = ScriptedLlm::from_steps(vec![
        Step::call("update_character", json!({"hpChange": -3})),
        Step::call(
            "add_inventory",
            json!({"items": [{"name": "Rusty key", "quantity": 1}]}),
        ),
        Step::text("A dart grazes you. <script>alert(1)</script> You pocket a **key**."),
        Step::json(json!({"actions": [{"id": "open", "description": "Open the door"}]})),
    ]);
    let narration = narrate(
        &llm,
        &GmSettings::default(),
        &sheet,
        &[],
        &PlayerMove::Text(MoveText::parse("I search the alcove").unwrap()),
        &mut StdRng::seed_from_u64(1),
        &mut |_| {},
    )
    .await
    .unwrap();
    let actions = offer_actions(
        &llm,
        &GmSettings::default(),
        &narration.sheet,
        &narration.messages,
    )
    .await
    .unwrap();

    let mut log = vec![StoredEvent {
        turn: 0,
        event: CampaignEvent::Started {
            premise: "p".into(),
            sheet,
        },
    }];
    log.extend(
        CampaignEvent::from_narration(&narration)
            .into_iter()
            .map(|event| StoredEvent { turn: 1, event }),
    );
    let state = CampaignState::project(&log).unwrap();

    assert_eq!(state.turn, 1);
    assert_eq!(state.sheet, narration.sheet);
    assert_eq!(state.sheet.hit_points().current(), 7);
    assert_eq!(state.llm_history, narration.messages);
    assert_eq!(
        state.actions, None,
        "actions not stored yet: they must be generated on load"
    );
    let story = &state.story;
    assert_eq!(
        story[0],
        StoryEntry::Move {
            text: "I search the alcove".into()
        }
    );
    assert_eq!(
        story[1],
        StoryEntry::Changes {
            labels: vec!["\u{2212}3 HP".into()]
        }
    );
    assert_eq!(
        story[2],
        StoryEntry::Changes {
            labels: vec!["+ Rusty key".into()]
        }
    );
    let StoryEntry::Scene { html } = &story[3] else {
        panic!("a scene")
    };
    assert!(
        html.contains("&lt;script&gt;") && html.contains("<strong>key</strong>"),
        "{html}"
    );

    log.extend(actions.into_iter().map(|event| StoredEvent {
        turn: 1,
        event: CampaignEvent::Turn(event),
    }));
    let state = CampaignState::project(&log).unwrap();
    let buttons = state.action_views();
    assert_eq!(buttons.len(), 1);
    assert_eq!(buttons[0].description, "Open the door");
}

#[test]
fn a_log_without_its_start_is_refused() {
    assert!(CampaignState::project(&[]).is_err());
}
