//! Levels that mean something, through the service: skills chosen at creation add the level's
//! proficiency bonus to their checks (the badge and the rolled check agree); the ability score
//! improvement of level 4 is spent from the panel (refused before it is due, past 20, twice, or
//! as +1 twice to one score, each refusal changing nothing), shows in the next action's badge
//! and in the ledger; a file with it imports again, one whose improvement was swapped does not,
//! and a file from before proficiencies counted still imports.

use crate::support::table::{Seat, Table};
use app::game::improvement::AbilityImprovement;
use app::game::Attribute;
use app::gm::scripted::{Scenario, ScriptedCall, Step};
use app::service::ServiceError;
use app::wire::view::{LedgerRow, MoveInput, NewCampaign, TurnUpdate};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

const IMPROVED: &str = "Ability score improvement chosen in the character panel";

/// An opening, then three awards that bring level 4, then quiet scenes; a Stealth check offered
/// every turn.
fn scenario() -> Scenario {
    Scenario {
        steps: vec![
            Step::text("A dry archive under the flood."),
            awards(&[300, 600, 1800]),
            Step::text("The archive's lessons settle into you."),
            Step::text("The stair waits."),
        ],
        actions: vec![Step::json(json!({"actions": [
            {"id": "read", "description": "Read on", "diceRoll": null},
            {"id": "sneak", "description": "Sneak down the stair", "diceRoll": "1d20",
             "diceReason": "Stealth", "difficultyClass": 12}
        ]}))],
        cycle: true,
        ..Scenario::default()
    }
}

/// One reply awarding each of `amounts` (each brings a level from level 1).
fn awards(amounts: &[u32]) -> Step {
    let calls = amounts.iter().map(|amount| ScriptedCall {
        name: "award_experience".to_owned(),
        arguments: json!({"amount": amount, "reason": "The archive's lessons"}),
    });
    Step {
        tool_calls: calls.collect(),
        ..Step::default()
    }
}

/// Lyra the Ranger, proficient in Athletics, Perception and Stealth, her opening played.
async fn lyra() -> (Seat, CampaignId) {
    let mut seat = Seat::new(Table::playing(scenario()).await, 71);
    let mut form = NewCampaign::new("A dry archive under the flood.", "Lyra", "Ranger");
    form.character.skills = vec!["Stealth".into(), "athletics".into(), "Perception".into()];
    let id = seat.create(&form).await;
    (seat, id)
}

fn sneak_badge(updates: &[TurnUpdate]) -> Option<String> {
    updates.iter().find_map(|update| match update {
        TurnUpdate::Actions { actions } => actions
            .iter()
            .find(|a| a.id == "sneak")
            .and_then(|a| a.badge.clone()),
        _ => None,
    })
}

fn refusal(answer: Result<Vec<TurnUpdate>, ServiceError>) -> String {
    match answer {
        Err(ServiceError::Invalid {
            field: "ability score improvement",
            reason,
        }) => reason.to_string(),
        other => panic!("refused as an invalid improvement: {other:?}"),
    }
}

async fn file(seat: &Seat, id: &CampaignId) -> Value {
    serde_json::to_value(seat.game().export(&seat.owner, id).await.unwrap()).unwrap()
}

async fn import(seat: &Seat, file: &Value) -> Result<CampaignId, ServiceError> {
    let mut rng = StdRng::seed_from_u64(3);
    let imported = seat
        .game()
        .import(&seat.owner, &file.to_string(), 9, &mut rng)
        .await;
    imported.map(|summary| summary.id)
}

const DEX_PLUS_TWO: AbilityImprovement = AbilityImprovement::PlusTwo {
    attribute: Attribute::Dexterity,
};

#[tokio::test]
async fn a_skill_of_the_hero_s_adds_proficiency_to_the_badge_and_the_roll() {
    let (mut seat, id) = lyra().await;
    let view = seat.game().load(&seat.owner, &id, 3).await.unwrap();
    assert_eq!(
        view.sheet.skills,
        ["Athletics +3", "Perception +4", "Stealth +4"]
    );
    assert_eq!(view.sheet.saves, ["STR +3", "DEX +4"]);
    let sneak = view.actions.iter().find(|a| a.id == "sneak").unwrap();
    // DEX 15 (+2) and proficiency +2.
    assert_eq!(sneak.badge.as_deref(), Some("1d20+4 vs DC 12"));

    seat.play(&id, 2, MoveInput::Action { id: "sneak".into() })
        .await;
    let ledger = seat.game().ledger(&seat.owner, &id, None).await.unwrap();
    let rolled = ledger.rows.iter().find_map(|row| match row {
        LedgerRow::Roll {
            notation, reason, ..
        } if reason.contains("Stealth") => Some(notation.clone()),
        _ => None,
    });
    assert_eq!(rolled.as_deref(), Some("1d20+4"));
    let copy = import(&seat, &file(&seat, &id).await).await;
    assert!(copy.is_ok(), "{copy:?}");
}

#[tokio::test]
async fn the_level_four_improvement_is_spent_once_in_the_panel_and_checked_on_import() {
    let (mut seat, id) = lyra().await;
    let game = seat.game();
    let early = refusal(
        game.improve_abilities(&seat.owner, &id, DEX_PLUS_TWO, 5)
            .await,
    );
    assert!(
        early.contains("No ability score improvement is due at level 1"),
        "{early}"
    );

    seat.play(&id, 2, MoveInput::Action { id: "read".into() })
        .await;
    let leveled = seat.state(&id).await;
    assert_eq!(leveled.sheet.level().value(), 4);
    assert_eq!(leveled.sheet.improvements_due(), 1);
    let events = file(&seat, &id).await["events"].as_array().unwrap().len();
    let game = seat.game();
    let same = AbilityImprovement::PlusOneEach {
        first: Attribute::Wisdom,
        second: Attribute::Wisdom,
    };
    assert!(
        refusal(game.improve_abilities(&seat.owner, &id, same, 5).await)
            .contains("two different scores")
    );
    assert_eq!(
        file(&seat, &id).await["events"].as_array().unwrap().len(),
        events
    );

    let updates = game
        .improve_abilities(&seat.owner, &id, DEX_PLUS_TWO, 5)
        .await
        .unwrap();
    // DEX 17 (+3) and proficiency +2.
    assert_eq!(sneak_badge(&updates).as_deref(), Some("1d20+5 vs DC 12"));
    let after = seat.state(&id).await;
    assert_eq!(after.sheet.attributes().dexterity.value(), 17);
    assert_eq!(after.sheet.improvements_due(), 0);
    let again = seat
        .game()
        .improve_abilities(&seat.owner, &id, DEX_PLUS_TWO, 5)
        .await;
    assert!(refusal(again).contains("level 4"));
    let ledger = seat.game().ledger(&seat.owner, &id, None).await.unwrap();
    let raised = ledger.rows.iter().any(|row| {
        matches!(row,
        LedgerRow::Change { what, before, after, cause, .. }
            if what == "DEX" && before == "15" && after == "17"
                && ledger.causes[*cause as usize] == IMPROVED)
    });
    assert!(
        raised,
        "the ledger names the improvement: {:?}",
        ledger.rows
    );

    let file = file(&seat, &id).await;
    let copy = import(&seat, &file).await.expect("the campaign verifies");
    let copied = seat.state(&copy).await;
    assert_eq!(copied.sheet, after.sheet);
    let at = file["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|stored| stored["event"]["cause"] == IMPROVED)
        .expect("the improvement is in the file");
    let mut forged = file.clone();
    forged["events"][at]["event"]["deltas"][0]["improvement"]["attribute"] = json!("STR");
    let refused = import(&seat, &forged).await.unwrap_err().to_string();
    assert!(refused.contains(&format!("event {at} ")), "{refused}");
}

#[tokio::test]
async fn a_file_from_before_proficiencies_counted_still_imports() {
    let (seat, id) = lyra().await;
    let mut file = file(&seat, &id).await;
    let first = &mut file["events"][0]["event"];
    let sheet = first
        .as_object_mut()
        .and_then(|event| {
            event
                .values_mut()
                .find(|v| v.get("proficiencies").is_some())
        })
        .expect("the opening event holds the sheet");
    sheet.as_object_mut().unwrap().remove("proficiencies");
    let copy = import(&seat, &file).await.expect("an older file verifies");
    let copied = seat.state(&copy).await;
    assert!(copied.sheet.proficiencies().is_empty());
}
