//! The two-phase turn against the scripted model: tools, rolls, rejections, caps and repairs.

use crate::support::mira_at;
use app::campaign::state::{CampaignState, ContextTurn};
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::{ActionList, CharacterSheet, Resolution, Slug};
use app::gm::scripted::{ScriptedError, ScriptedLlm, Step};
use app::gm::turn::candidates::fallback_actions;
use app::gm::{
    narrate, offer_actions, GmSettings, LlmError, Memory, Message, MoveText, Narration, PlayerMove,
    ToolChoice, TurnError,
};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;

fn sheet() -> CharacterSheet {
    mira_at("The flooded crypt")
}

fn start() -> CampaignState {
    CampaignState::start("A storm", sheet())
}

fn typed(text: &str) -> PlayerMove {
    PlayerMove::Text(MoveText::parse(text).unwrap())
}

async fn run(
    llm: &ScriptedLlm,
    sheet: &CharacterSheet,
    player_move: PlayerMove,
) -> (Result<Narration, TurnError>, Vec<TurnEvent>) {
    let mut streamed = Vec::new();
    let state = CampaignState::start("A storm", sheet.clone());
    let result = narrate(
        llm,
        &GmSettings::default(),
        &state,
        Memory::default(),
        &player_move,
        &mut StdRng::seed_from_u64(7),
        &mut |event| streamed.push(event.clone()),
    )
    .await;
    (result, streamed)
}

/// The tool messages the model received in its last request.
fn tool_results_seen(llm: &ScriptedLlm) -> Vec<String> {
    let requests = llm.requests();
    let last = requests.last().expect("at least one request");
    last.messages
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.to_string()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn an_npc_attack_is_the_rules_and_its_exchange_reaches_the_model() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::call(
            "roll_dice",
            json!({"dice": "1d20+3", "reason": "Goblin attack"}),
        ),
        Step::call("start_encounter", json!({"foes": ["Goblin"]})),
        Step::text("The goblin's blade flashes in the torchlight."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I raise my shield")).await;
    let narration = result.unwrap();

    let seen = tool_results_seen(&llm);
    assert!(
        seen[0].starts_with("refused: attacks and their damage are the rules'"),
        "{seen:?}"
    );
    let fought = narration.events.iter().find_map(|event| match event {
        TurnEvent::ToolResult {
            effect: Some(ToolEffect::Fought { record, changes }),
            result,
            ..
        } => Some((record.clone(), changes.clone(), result.clone())),
        _ => None,
    });
    let (record, changes, result) = fought.expect("the fight began");
    assert!(
        result.starts_with("The rules resolved:\nInitiative:"),
        "{result}"
    );
    assert_eq!(seen[1], result, "the model reads the exchange");
    // Whatever the goblin did before the hero's turn is on the sheet, by the rules.
    let damage = record.exchange.damage_to_hero;
    assert_eq!(
        u32::from(sheet().hit_points().current() - narration.sheet.hit_points().current()),
        damage.min(u32::from(sheet().hit_points().current()))
    );
    assert_eq!(changes.is_empty(), damage == 0);
}

/// The turn's ledger check: the notes left, the claims read and the notes the model was asked
/// to correct.
fn ledger_check(events: &[TurnEvent]) -> (Vec<String>, u32, Vec<String>) {
    events
        .iter()
        .find_map(|event| match event {
            TurnEvent::LedgerChecked {
                notes,
                claims,
                asked,
            } => Some((notes.clone(), *claims, asked.clone())),
            _ => None,
        })
        .expect("the scene was checked")
}

#[tokio::test]
async fn prose_that_contradicts_the_rules_is_corrected_once_or_gets_their_note() {
    let hurt = || {
        Step::calls(&[
            (
                "roll_dice",
                json!({"dice": "1d4+4", "reason": "Troll's club"}),
            ),
            ("update_character", json!({"hpChange": -5})),
        ])
    };
    let wrong = || Step::text("The troll's club smashes into you and you take 12 damage.");
    let hp = sheet().hit_points().current() - 5;

    // Asked once with the ledger in hand, the model corrects its scene.
    let fixed = Step::text("The troll's club smashes into you and you take 5 damage.");
    let llm = ScriptedLlm::from_steps(vec![hurt(), wrong(), fixed]);
    let (result, _) = run(&llm, &sheet(), typed("I duck")).await;
    let narration = result.unwrap();
    assert_eq!(
        narration.text,
        "The troll's club smashes into you and you take 5 damage."
    );
    let twelve = vec!["the rules say: 5 damage, not 12".to_owned()];
    assert_eq!(
        ledger_check(&narration.events),
        (Vec::new(), 1, twelve.clone()),
        "recorded: one claim read in the corrected scene, the first draft's note asked about"
    );
    let asked = llm
        .requests()
        .last()
        .unwrap()
        .messages
        .last()
        .unwrap()
        .clone();
    assert!(
        format!("{asked:?}").contains("the rules say: 5 damage, not 12"),
        "{asked:?}"
    );

    // A model that insists: the player gets the rules' note, and the sheet keeps 5.
    let llm = ScriptedLlm::from_steps(vec![hurt(), wrong(), wrong()]);
    let (result, _) = run(&llm, &sheet(), typed("I duck")).await;
    let narration = result.unwrap();
    assert_eq!(ledger_check(&narration.events), (twelve.clone(), 1, twelve));
    assert_eq!(
        narration.sheet.hit_points().current(),
        hp,
        "the sheet keeps 5"
    );

    // A scene that agrees is not asked about again.
    let llm = ScriptedLlm::from_steps(vec![
        hurt(),
        Step::text("The club clips you: you take 5 damage."),
    ]);
    let (result, _) = run(&llm, &sheet(), typed("I duck")).await;
    assert_eq!(
        ledger_check(&result.unwrap().events),
        (Vec::new(), 1, Vec::new())
    );
    assert_eq!(
        llm.requests().len(),
        2,
        "one call with the tool, one after it"
    );
}

#[tokio::test]
async fn an_item_is_added_then_used_up() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::call(
            "add_inventory",
            json!({"items": [{"name": "Torch", "description": "Pitch-soaked", "quantity": "2"}]}),
        ),
        Step::call(
            "update_inventory",
            json!({"updates": [{"slug": "torch", "quantityChange": -2}]}),
        ),
        Step::text("You light both torches; they burn out by the stairs."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I light torches")).await;
    let narration = result.unwrap();

    let changes: Vec<Vec<String>> = narration
        .events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Changed { changes, .. }),
                ..
            } => Some(changes.labels()),
            _ => None,
        })
        .collect();
    assert_eq!(
        changes,
        vec![
            vec!["+2 Torch".to_owned()],
            vec!["\u{2212} Torch".to_owned()]
        ]
    );
    assert!(narration.sheet.inventory().is_empty());
}

#[tokio::test]
async fn a_rejected_call_tells_the_model_why_and_leaves_the_sheet_alone() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::call(
            "update_inventory",
            json!({"updates": [{"slug": "sandwich", "quantityChange": -1}]}),
        ),
        Step::text("You pat your pockets: no sandwich."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I eat my sandwich")).await;
    let narration = result.unwrap();

    let seen = tool_results_seen(&llm);
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0].contains("No item \"sandwich\" in inventory"),
        "{}",
        seen[0]
    );
    assert!(narration
        .events
        .iter()
        .any(|event| matches!(event, TurnEvent::ToolResult { effect: None, .. })));
    assert_eq!(narration.sheet, sheet());
}

#[tokio::test]
async fn malformed_and_unknown_calls_are_refused_with_reasons() {
    let llm = ScriptedLlm::from_steps(vec![
        Step {
            tool_calls: vec![
                app::gm::scripted::ScriptedCall {
                    name: "roll_dice".into(),
                    arguments: json!("{dice: 1d20"),
                },
                app::gm::scripted::ScriptedCall {
                    name: "summon_dragon".into(),
                    arguments: json!({}),
                },
                app::gm::scripted::ScriptedCall {
                    name: "roll_dice".into(),
                    arguments: json!({"dice": "0d6", "reason": "x"}),
                },
            ],
            ..Step::default()
        },
        Step::text("Nothing happens."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I wait")).await;
    result.unwrap();

    let seen = tool_results_seen(&llm);
    assert!(seen[0].contains("not valid JSON"), "{}", seen[0]);
    assert!(
        seen[1].contains("no tool named \"summon_dragon\""),
        "{}",
        seen[1]
    );
    assert!(
        seen[2].contains("dice count must be 1..=100"),
        "{}",
        seen[2]
    );
}

#[tokio::test]
async fn tool_rounds_are_capped_at_four_then_the_model_must_write() {
    let roll = || Step::call("roll_dice", json!({"dice": "1d6", "reason": "Again"}));
    let llm = ScriptedLlm::from_steps(vec![
        roll(),
        roll(),
        roll(),
        roll(),
        roll().with_text("Finally, silence."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I listen")).await;
    let narration = result.unwrap();

    let requests = llm.requests();
    assert_eq!(requests.len(), 5);
    assert!(requests[..4]
        .iter()
        .all(|request| request.tool_choice == ToolChoice::Auto));
    assert_eq!(
        requests[4].tool_choice,
        ToolChoice::None,
        "the last call may not call tools"
    );
    assert_eq!(
        requests[4].tools, requests[0].tools,
        "they are still listed, so the front stays the same"
    );
    let rolls = narration
        .events
        .iter()
        .filter(|event| matches!(event, TurnEvent::ToolResult { .. }))
        .count();
    assert_eq!(rolls, 4, "the call in the tool-less reply is ignored");
    assert_eq!(narration.text, "Finally, silence.");
}

#[tokio::test]
async fn prose_written_alongside_a_roll_is_dropped_until_the_result_is_known() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::call("roll_dice", json!({"dice": "1d20", "reason": "Trap"}))
            .with_text("The trap snaps shut on your leg!"),
        Step::text("The trap snaps shut, an inch from your boot."),
    ]);

    let (result, streamed) = run(&llm, &sheet(), typed("I step forward")).await;
    let narration = result.unwrap();

    assert_eq!(
        narration.text,
        "The trap snaps shut, an inch from your boot."
    );
    assert!(streamed.contains(&TurnEvent::NarrativeReplaced {
        text: String::new()
    }));
    let Message::Assistant { content, .. } = &narration.messages[1] else {
        panic!("assistant call message")
    };
    assert_eq!(
        content, &None,
        "the pre-empting prose is not in the model's history"
    );
}

#[tokio::test]
async fn prose_beside_a_call_that_decides_nothing_is_kept_once_in_the_history() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::call(
            "keep_journal",
            json!({"action": "note", "kind": "person", "name": "Tom", "note": "The miller."}),
        )
        .with_text("Tom the miller waves you in."),
        Step::text("Flour hangs in the air."),
    ]);

    let (result, _) = run(&llm, &sheet(), typed("I knock")).await;
    let narration = result.unwrap();

    assert_eq!(
        narration.text,
        "Tom the miller waves you in.\n\nFlour hangs in the air."
    );
    let history = serde_json::to_string(&narration.messages).unwrap();
    assert_eq!(history.matches("Tom the miller waves you in.").count(), 1);
    assert_eq!(history.matches("Flour hangs in the air.").count(), 1);
    assert_eq!(
        narration.messages.last(),
        Some(&Message::assistant("Flour hangs in the air."))
    );
    let noted = narration.events.iter().any(|event| {
        matches!(
            event,
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Noted { .. }),
                ..
            }
        )
    });
    assert!(noted, "the journal note ran");
}

#[tokio::test]
async fn a_player_action_roll_is_made_against_its_dc_and_given_to_the_narrator() {
    let actions = ActionList::parse_json(
        r#"{"actions": [{"id": "sneak", "description": "Sneak past the guard", "diceRoll": "1d20", "diceReason": "Stealth", "difficultyClass": 12, "attribute": "DEX"}]}"#,
    )
    .unwrap()
    .actions;
    let action = actions.get(&Slug::new("sneak").unwrap()).unwrap().clone();
    let llm = ScriptedLlm::from_steps(vec![Step::text("You slip past.")]);

    let (result, _) = run(&llm, &sheet(), PlayerMove::Action(action)).await;
    let narration = result.unwrap();

    let (description, resolution) = narration
        .events
        .iter()
        .find_map(|event| match event {
            TurnEvent::PlayerRoll {
                description,
                resolution,
                ..
            } => Some((description.clone(), resolution.clone())),
            _ => None,
        })
        .expect("the player's roll");
    let Resolution::Check(check) = resolution else {
        panic!("a check against the DC")
    };
    assert_eq!(check.is_success(), check.roll().total() >= 12);
    assert!(description.contains("vs DC 12"), "{description}");
    let Message::User { content } = &llm.requests()[0].messages[1] else {
        panic!("the move")
    };
    assert!(content.starts_with("Sneak past the guard"), "{content}");
    assert!(
        content.contains(&description),
        "the narrator sees the roll: {content}"
    );
}

#[tokio::test]
async fn a_provider_failure_fails_the_phase() {
    let llm = ScriptedLlm::from_steps(vec![Step::error(ScriptedError::Server)]);
    let (result, _) = run(&llm, &sheet(), typed("I wait")).await;
    assert!(matches!(
        result,
        Err(TurnError::Llm(LlmError::Server { status: 500, .. }))
    ));
}

fn valid_actions() -> serde_json::Value {
    json!({"actions": [
        {"id": "open-door", "description": "Open the door", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null},
        {"id": "force-door", "description": "Force the door", "diceRoll": "1d20", "diceReason": "Athletics", "difficultyClass": 14, "attribute": "STR"}
    ]})
}

fn offered(events: &[TurnEvent]) -> (&ActionList, bool) {
    let (actions, fallback, _) = offered_after(events);
    (actions, fallback)
}

/// The actions offered, whether they are the rules' fallback, and whether a repair made them.
fn offered_after(events: &[TurnEvent]) -> (&ActionList, bool, bool) {
    events
        .iter()
        .find_map(|event| match event {
            TurnEvent::ActionsOffered {
                actions,
                fallback,
                repaired,
            } => Some((actions, *fallback, *repaired)),
            _ => None,
        })
        .expect("actions offered")
}

#[tokio::test]
async fn the_action_request_uses_the_strict_schema_and_a_valid_answer_is_offered() {
    let llm = ScriptedLlm::from_steps(vec![Step::json(valid_actions())]);
    let mut state = CampaignState::start("A storm", sheet());
    state.context.push(ContextTurn {
        turn: 1,
        messages: vec![Message::assistant("A door.")],
    });
    let events = offer_actions(&llm, &GmSettings::default(), &state, None)
        .await
        .unwrap()
        .events;
    let (actions, fallback) = offered(&events);
    assert!(!fallback);
    assert_eq!(actions.len(), 2);
    let format = llm.requests()[0].response_format.clone().expect("a schema");
    assert!(format.strict);
    assert_eq!(format.schema["additionalProperties"], json!(false));
    assert!(
        llm.requests()[0].tools.is_empty(),
        "the action list calls no tool, so it is sent none"
    );
}

#[tokio::test]
async fn invalid_actions_are_repaired_once_with_the_error_quoted() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::json(json!({"actions": [{"id": "x", "description": "Roll", "diceRoll": "0d6"}]})),
        Step::json(valid_actions()),
    ]);
    let events = offer_actions(&llm, &GmSettings::default(), &start(), None)
        .await
        .unwrap()
        .events;
    let (actions, fallback, repaired) = offered_after(&events);
    assert!(!fallback);
    assert!(repaired, "the log says the list was repaired");
    assert_eq!(actions.len(), 2);
    let repair = llm.requests()[1].messages.last().cloned().unwrap();
    let Message::User { content } = repair else {
        panic!("a repair request")
    };
    assert!(content.contains("dice count must be 1..=100"), "{content}");
}

#[tokio::test]
async fn invalid_twice_falls_back_to_safe_actions() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::text("{ not json"),
        Step::text("Sure! Here are actions: none"),
    ]);
    let events = offer_actions(&llm, &GmSettings::default(), &start(), None)
        .await
        .unwrap()
        .events;
    let (actions, fallback, repaired) = offered_after(&events);
    assert!(fallback && !repaired);
    assert_eq!(actions, &fallback_actions(&start()));
    assert_eq!(llm.requests().len(), 2, "one repair, no more");
}

#[tokio::test]
async fn placeholder_and_echoed_actions_are_repaired_then_replaced_by_the_scenes_own() {
    let observed = |descriptions: [&str; 3]| {
        let actions: Vec<_> = descriptions
            .iter()
            .enumerate()
            .map(|(n, d)| json!({"id": format!("a{n}"), "description": d}))
            .collect();
        Step::json(json!({ "actions": actions }))
    };
    let llm = ScriptedLlm::from_steps(vec![
        observed(["Take action 1", "Take action 2", "Ranger, level 1"]),
        observed(["Take action 1", "Mira", "Option B"]),
    ]);
    let mut state = start();
    state.context.push(ContextTurn {
        turn: 1,
        messages: vec![
            Message::user("Begin"),
            Message::assistant(
                "You stand before the drowned gate. A guard dozes under a dripping arch.",
            ),
        ],
    });

    let events = offer_actions(&llm, &GmSettings::default(), &state, None)
        .await
        .unwrap()
        .events;

    let repair = llm.requests()[1].messages.last().cloned().unwrap();
    let Message::User { content } = repair else {
        panic!("{repair:?}")
    };
    assert!(
        content.contains("is a placeholder") && content.contains("repeats the character sheet"),
        "{content}"
    );
    let (actions, fallback) = offered(&events);
    assert!(fallback);
    let descriptions: Vec<&str> = actions
        .actions()
        .iter()
        .map(|a| a.description().as_str())
        .collect();
    assert_eq!(
        descriptions,
        [
            "Examine the dripping arch closely",
            "Approach the guard carefully",
            "Search the area for anything useful",
            "Wait and listen for a moment"
        ]
    );
    assert!(
        actions.actions().iter().any(|a| a.dice_roll().is_some()),
        "one action rolls"
    );
}

#[tokio::test]
async fn a_provider_failure_during_repair_falls_back_too() {
    let llm = ScriptedLlm::from_steps(vec![
        Step::text("nope"),
        Step::error(ScriptedError::Timeout),
    ]);
    let events = offer_actions(&llm, &GmSettings::default(), &start(), None)
        .await
        .unwrap()
        .events;
    assert!(offered(&events).1);
}

#[tokio::test]
async fn a_reply_past_the_logs_bounds_is_cut_to_them_and_its_oversized_call_refused() {
    use app::campaign::bounds::{MAX_ARGUMENTS_CHARS, MAX_NAME_CHARS, MAX_NARRATION_CHARS};
    let long_reason = "r".repeat(3 * MAX_ARGUMENTS_CHARS);
    let llm = ScriptedLlm::from_steps(vec![
        Step::call("roll_dice", json!({"dice": "1d6", "reason": long_reason})),
        Step::call(&"x".repeat(4 * MAX_NAME_CHARS), json!({})),
        Step::text("A long night. ".repeat(MAX_NARRATION_CHARS)),
    ]);
    let (result, _) = run(&llm, &sheet(), typed("I wait")).await;
    let narration = result.unwrap();
    let mut calls = 0;
    for event in &narration.events {
        match event {
            TurnEvent::ToolCalled { call } => {
                calls += 1;
                assert!(call.arguments.chars().count() <= MAX_ARGUMENTS_CHARS);
                assert!(call.name.chars().count() <= MAX_NAME_CHARS);
            }
            TurnEvent::ToolResult { effect, .. } => assert_eq!(effect, &None, "refused"),
            TurnEvent::Narration { text, .. } => {
                assert_eq!(text.chars().count(), MAX_NARRATION_CHARS)
            }
            _ => {}
        }
    }
    assert_eq!(calls, 2);
}
