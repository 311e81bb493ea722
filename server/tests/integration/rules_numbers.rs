//! No number left to the model's word, outside a fight: a change of hit points must be backed
//! by a roll the rules made this turn (no more than its total); a hazard's damage is the rules'
//! from its severity and the hero's level, shown as a roll and in the ledger; an offered action
//! that uses what the hero lacks is repaired away; a typed move that uses what they lack is
//! answered by the rules before the narrator runs, with nothing spent.

use crate::support::table::{Seat, Table};
use app::campaign::event::CampaignEvent;
use app::campaign::store::CampaignStore;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::Slug;
use app::gm::scripted::{Scenario, Step};
use app::gm::Purpose;
use app::service::ServiceError;
use app::wire::view::{LedgerRow, MoveInput, NewCampaign, StoryEntry};
use app::wire::CampaignId;
use serde_json::json;

fn wait() -> Step {
    Step::json(json!({"actions": [
        {"id": "wait", "description": "Wait and listen", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

fn typed(text: &str) -> MoveInput {
    MoveInput::Text { text: text.into() }
}

async fn seated(steps: Vec<Step>, actions: Vec<Step>, class: &str) -> (Seat, CampaignId) {
    let scenario = Scenario {
        steps,
        actions,
        ..Scenario::default()
    };
    let mut seat = Seat::new(Table::playing(scenario).await, 5);
    let form = NewCampaign::new("A ruined watchtower.", "Wren", class);
    let id = seat.create(&form).await;
    (seat, id)
}

/// The results the model read for each tool call of the campaign, in order.
async fn tool_results(seat: &Seat, id: &CampaignId) -> Vec<(String, String, bool)> {
    let (_, log) = seat.table.store.log(&seat.owner, id).await.unwrap();
    log.iter()
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::ToolResult {
                tool,
                result,
                effect,
                ..
            }) => Some((tool.clone(), result.clone(), effect.is_some())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn damage_no_roll_backs_is_refused_and_the_sheet_unchanged() {
    let steps = vec![
        Step::text("The tower is quiet."),
        // A goblin hits for 20 with no fight and no roll; then 1d8+2 and 20 anyway.
        Step::call("update_character", json!({"hpChange": -20})),
        Step::call(
            "roll_dice",
            json!({"dice": "1d8+2", "reason": "Thug's club"}),
        ),
        Step::call("update_character", json!({"hpChange": -20})),
        // Within the roll's total (at least 3), it lands.
        Step::call("update_character", json!({"hpChange": -3})),
        Step::text("A thug's club clips you."),
    ];
    let (mut seat, id) = seated(steps, vec![wait(), wait()], "Fighter").await;
    let before = seat.state(&id).await.sheet;
    seat.play(&id, 2, typed("I climb the stairs")).await;
    let results = tool_results(&seat, &id).await;
    let hp_calls: Vec<_> = results
        .iter()
        .filter(|(tool, ..)| tool == "update_character")
        .collect();
    assert_eq!(hp_calls.len(), 3, "{results:?}");
    for (_, result, applied) in &hp_calls[..2] {
        assert!(!applied, "{result}");
        assert!(
            result.starts_with("refused: -20 HP is not backed by a roll"),
            "{result}"
        );
        assert!(
            result.contains("start_encounter") && result.contains("hazard"),
            "{result}"
        );
    }
    assert!(hp_calls[2].2, "{:?}", hp_calls[2]);
    let after = seat.state(&id).await.sheet;
    assert_eq!(
        after.hit_points().current(),
        before.hit_points().current() - 3,
        "only the backed 3 landed"
    );
}

#[tokio::test]
async fn a_dangerous_trap_deals_the_tables_dice_at_the_heros_level() {
    let steps = vec![
        Step::text("The tower is quiet."),
        Step::call(
            "hazard",
            json!({"what": "A spiked pit", "severity": "dangerous", "save": "DEX"}),
        ),
        Step::text("The floor drops away beneath you."),
    ];
    let (mut seat, id) = seated(steps, vec![wait(), wait()], "Fighter").await;
    let before = seat.state(&id).await.sheet;
    seat.play(&id, 2, typed("I cross the hall")).await;
    let state = seat.state(&id).await;
    let (_, log) = seat.table.store.log(&seat.owner, &id).await.unwrap();
    let (hazard, changes) = log
        .iter()
        .find_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::ToolResult {
                effect:
                    Some(ToolEffect::Hazard {
                        hazard, changes, ..
                    }),
                ..
            }) => Some((hazard.clone(), changes.clone())),
            _ => None,
        })
        .expect("the rules rolled the hazard");
    // Level 1, dangerous: 2d10 (the SRD's damage severity by level), DEX save against DC 13.
    assert_eq!(hazard.damage.notation(), "2d10");
    assert!(hazard.is_the_rules(&before));
    let (_, save) = hazard.save.as_ref().expect("the scene gave a save");
    assert_eq!(save.dc().value(), 13);
    let total = u32::try_from(hazard.damage.total()).unwrap();
    let dealt = if save.is_success() { total / 2 } else { total };
    assert_eq!(hazard.dealt, dealt);
    assert!(!changes.is_empty() || dealt == 0);
    let lost =
        u32::from(before.hit_points().current()) - u32::from(state.sheet.hit_points().current());
    assert_eq!(lost, dealt.min(u32::from(before.hit_points().current())));

    // A roll line in the story, and rows in the ledger.
    let view = seat.game().load(&seat.owner, &id, 3).await.unwrap();
    let line = view
        .story
        .entries
        .iter()
        .find_map(|entry| match entry {
            StoryEntry::Roll { line, .. }
                if line.starts_with("Hazard (dangerous: A spiked pit)") =>
            {
                Some(line.clone())
            }
            _ => None,
        })
        .expect("the hazard's roll line");
    assert!(line.ends_with(&format!(": {dealt} damage")), "{line}");
    let ledger = seat.game().ledger(&seat.owner, &id, None).await.unwrap();
    let row = ledger
        .rows
        .iter()
        .find_map(|row| match row {
            LedgerRow::Roll {
                reason,
                notation,
                total: rolled,
                verdict,
                ..
            } if reason == "Hazard (dangerous): A spiked pit" => {
                Some((notation.clone(), *rolled, verdict.clone()))
            }
            _ => None,
        })
        .expect("the hazard's ledger row");
    assert_eq!(
        row,
        (
            "2d10".to_owned(),
            hazard.damage.total(),
            Some(format!("{dealt} damage"))
        )
    );
    assert!(
        ledger.rows.iter().any(|row| matches!(row,
        LedgerRow::Roll { reason, dc: Some(13), .. } if reason == "Player DEX save: A spiked pit"))
    );
}

#[tokio::test]
async fn an_offered_action_with_a_bow_the_hero_lacks_is_repaired_away() {
    let with_bow = json!({"actions": [
        {"id": "shoot", "description": "Shoot the wolf with your bow", "diceRoll": "1d20", "diceReason": "Attack", "difficultyClass": 12, "attribute": "DEX"},
        {"id": "hide", "description": "Hide behind the wall", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]});
    let steps = vec![Step::text("A wolf pads out of the trees.")];
    // The opening's list names a bow, and so does its repair: the bow's action is dropped.
    let actions = vec![Step::json(with_bow.clone()), Step::json(with_bow), wait()];
    let (seat, id) = seated(steps, actions, "Wizard").await;
    let state = seat.state(&id).await;
    let offered = state.actions.expect("actions on offer");
    let descriptions: Vec<&str> = offered
        .actions()
        .iter()
        .map(|action| action.description().as_str())
        .collect();
    assert_eq!(descriptions, ["Hide behind the wall"]);
    let requests = seat.table.llm.requests();
    let asked: Vec<_> = requests
        .iter()
        .filter(|request| request.purpose == Purpose::Actions)
        .collect();
    assert_eq!(asked.len(), 2, "asked once, then once to repair");
    let last = serde_json::to_string(&asked[1].messages).unwrap();
    assert!(last.contains("you have no bow"), "{last}");
}

#[tokio::test]
async fn a_potion_the_hero_no_longer_has_is_answered_by_the_rules_with_nothing_spent() {
    let steps = vec![Step::text("The tower is quiet."), Step::text("You drink.")];
    let (mut seat, id) = seated(steps, vec![wait(), wait()], "Fighter").await;
    let potion = Slug::new("healing-potion").unwrap();
    seat.game()
        .drop_item(&seat.owner, &id, &potion, 2)
        .await
        .expect("the fighter carried a healing potion");
    let before = seat.state(&id).await;
    let calls = seat.table.llm.requests().len();
    let refused = seat
        .try_play(&id, before.turn + 1, typed("I drink my potion"))
        .await
        .unwrap_err();
    let ServiceError::Invalid { field, reason } = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!(
        (*field, reason.to_string()),
        ("move", "you have no potion; nothing was spent".to_owned())
    );
    let after = seat.state(&id).await;
    assert_eq!(after, before, "nothing spent, nothing changed");
    assert_eq!(
        seat.table.llm.requests().len(),
        calls,
        "the narrator never ran"
    );
    // With the potion still carried, the same words are a move.
    let (mut seat, id) = seated(
        vec![Step::text("The tower is quiet."), Step::text("You drink.")],
        vec![wait(), wait()],
        "Fighter",
    )
    .await;
    seat.play(&id, 2, typed("I drink my potion")).await;
}
