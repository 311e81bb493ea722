//! A fight through the service, by the rules: the narrator starts it with `start_encounter`,
//! the player's fight moves are played before each narration, the foes' attacks take the
//! character's hit points, the ledger lists every roll with the armour class it faced, the
//! fight ends by the rules, and an exported fight whose numbers are not the rules' is refused
//! naming the event. Then a scripted campaign of 20 turns in which the model keeps trying to
//! roll attacks itself: every attack roll of it is the rules'.

use crate::support::table::{Seat, Table};
use app::gm::scripted::{Scenario, Step};
use app::service::MoveRequest;
use app::wire::view::{CampaignView, LedgerRow, MoveInput, NewCampaign};
use app::wire::CampaignId;
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};

/// The model's own action, offered beside the fight's moves.
fn actions() -> Step {
    Step::json(json!({"actions": [
        {"id": "shout", "description": "Shout for help from the village", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

/// The opening; then, every turn, the model tries to roll a goblin's attack itself (refused)
/// and to start a fight against two goblins (refused while one runs) before it narrates.
fn scenario() -> Scenario {
    Scenario {
        steps: vec![
            Step::text("Goblins scramble out of the reeds."),
            Step::call(
                "roll_dice",
                json!({"dice": "1d20+4", "reason": "Goblin attack"}),
            ),
            Step::call("start_encounter", json!({"foes": ["Goblin", "Goblin"]})),
            Step::text("Steel rings in the reeds."),
        ],
        actions: vec![actions()],
        cycle: true,
        ..Scenario::default()
    }
}

/// A player at a table whose model plays [`scenario`].
async fn seated() -> Seat {
    Seat::new(Table::playing(scenario()).await, 25)
}

/// A campaign in goblin country.
async fn goblins(w: &mut Seat) -> CampaignId {
    let form = NewCampaign::new("Goblins in the reeds.", "Vex", "Fighter");
    w.create(&form).await
}

/// Every ledger row of the campaign.
async fn ledger(w: &Seat, id: &CampaignId) -> Vec<LedgerRow> {
    w.game().ledger(&w.owner, id, None).await.unwrap().rows
}

/// Plays `turns` turns, attacking with the rules' first fight move while a fight is on and
/// shouting otherwise (the model then starts the next fight).
async fn play_turns(w: &mut Seat, id: &CampaignId, turns: u32) -> Vec<Option<usize>> {
    let mut foes_standing = Vec::new();
    for turn in 2..turns + 2 {
        let view = w.game().load(&w.owner, id, 2).await.unwrap();
        if view.sheet.vitality.is_dead() {
            break;
        }
        let fighting = view.actions.iter().any(|a| a.id == "fight-1");
        let id_chosen = if fighting { "fight-1" } else { "shout" };
        let input = MoveInput::Action {
            id: id_chosen.into(),
        };
        w.play(id, turn, input).await;
        let after = w.game().load(&w.owner, id, 2).await.unwrap();
        foes_standing.push(after.encounter.map(|fight| {
            fight
                .order
                .iter()
                .filter(|f| !f.hero && f.hp.0 > 0 && !f.conditions.iter().any(|c| c == "fled"))
                .count()
        }));
    }
    foes_standing
}

/// Attack rolls in the ledger: the rules' (`Attack: …`, each with the armour class it faced)
/// and the model's own (`Game master: … attack`).
fn attack_rolls(ledger: &[LedgerRow]) -> (usize, usize) {
    let mut rules = 0;
    let mut model = 0;
    for row in ledger {
        if let LedgerRow::Roll { reason, dc, .. } = row {
            if reason.starts_with("Attack: ") {
                assert!(dc.is_some(), "{reason} shows the armour class it faced");
                rules += 1;
            } else if reason.to_lowercase().contains("attack") {
                model += 1;
            }
        }
    }
    (rules, model)
}

#[tokio::test]
async fn a_fight_is_the_rules_from_its_first_roll_to_its_last() {
    let mut w = seated().await;
    let id = goblins(&mut w).await;
    let standing = play_turns(&mut w, &id, 20).await;

    // The first turn starts the fight; it ends by the rules (every foe down, or the hero).
    assert!(standing[0].is_some(), "the fight began: {standing:?}");
    let ended = standing
        .iter()
        .position(Option::is_none)
        .expect("the fight ended");
    assert!(standing[..ended].iter().all(|s| s.is_some_and(|n| n > 0)));
    let ledger = ledger(&w, &id).await;
    let (rules, model) = attack_rolls(&ledger);
    println!(
        "20 scripted turns: {rules} attack rolls by the rules, {model} by the model ({:.0}% the rules')",
        100.0 * rules as f64 / (rules + model).max(1) as f64
    );
    assert!(rules > 0);
    assert_eq!(model, 0, "no attack was rolled by the model");
    let view = w.game().load(&w.owner, &id, 3).await.unwrap();
    let won = ledger
        .iter()
        .any(|row| matches!(row, LedgerRow::Change { what, .. } if what == "XP"));
    assert!(
        won || view.sheet.hp == 0,
        "a fight ends in experience or with the hero down: {:?}",
        view.sheet
    );
}

#[tokio::test]
async fn an_exported_fight_with_numbers_not_the_rules_is_refused_naming_the_event() {
    let mut w = seated().await;
    let id = goblins(&mut w).await;
    play_turns(&mut w, &id, 3).await;
    let export = w.game().export(&w.owner, &id).await.unwrap();
    let file = serde_json::to_value(&export).unwrap();
    let mut rng = w.rng.clone();
    let copy = w
        .game()
        .import(&w.owner, &file.to_string(), 4, &mut rng)
        .await
        .expect("the fight as played imports");
    let (a, b) = (
        w.game().load(&w.owner, &id, 5).await.unwrap(),
        w.game().load(&w.owner, &copy.id, 5).await.unwrap(),
    );
    assert_eq!(a.encounter, b.encounter);

    // A foe's hit die changed by hand, the damage left as it was.
    let events = file["events"].as_array().unwrap();
    let at = events
        .iter()
        .position(|e| e["event"]["type"] == "fought")
        .expect("a fight step in the file");
    for forge in [forged_face, forged_damage] {
        let mut forged = file.clone();
        forge(&mut forged["events"][at]["event"]["record"]);
        let refused = w
            .game()
            .import(&w.owner, &forged.to_string(), 4, &mut rng)
            .await
            .unwrap_err()
            .to_string();
        assert!(refused.contains(&format!("event {at} ")), "{refused}");
        assert!(refused.contains("fight"), "{refused}");
    }
}

/// The first recorded die shows another face.
fn forged_face(record: &mut Value) {
    let face = record["faces"][0].as_u64().unwrap();
    record["faces"][0] = json!(if face == 1 { 2 } else { face - 1 });
}

/// The hero takes one more point of damage than the dice dealt.
fn forged_damage(record: &mut Value) {
    let damage = record["exchange"]["damageToHero"].as_u64().unwrap();
    record["exchange"]["damageToHero"] = json!(damage + 1);
}

/// Fights until the hero is hurt with the fight still on: the view then.
async fn hurt_mid_fight(w: &mut Seat, id: &CampaignId) -> CampaignView {
    let mut turn = 2;
    loop {
        let before = w.game().load(&w.owner, id, 2).await.unwrap();
        let fighting = before.actions.iter().any(|a| a.id == "fight-1");
        let id_chosen = if fighting { "fight-1" } else { "shout" };
        let input = MoveInput::Action {
            id: id_chosen.into(),
        };
        w.play(id, turn, input).await;
        let view = w.game().load(&w.owner, id, 2).await.unwrap();
        if view.encounter.is_some() && view.sheet.hp < view.sheet.max_hp && view.sheet.hp > 0 {
            return view;
        }
        turn += 1;
        assert!(turn < 20, "this seed hurts the hero mid-fight");
    }
}

#[tokio::test]
async fn a_potion_from_the_panel_in_a_fight_takes_the_turn_and_the_foes_act() {
    let mut w = seated().await;
    let id = goblins(&mut w).await;
    let hurt = hurt_mid_fight(&mut w, &id).await;
    let potion = hurt
        .sheet
        .inventory
        .iter()
        .find(|item| item.name == "Healing potion")
        .expect("the fighter carries a potion")
        .slug
        .clone();
    let slug = app::game::Slug::new(&potion).unwrap();
    let mut rng = w.rng.clone();
    let updates = w
        .game()
        .use_item(&w.owner, &id, &slug, 3, &mut rng)
        .await
        .unwrap();
    let lines: Vec<String> = updates
        .iter()
        .filter_map(|update| match update {
            app::wire::view::TurnUpdate::Entry {
                entry: app::wire::view::StoryEntry::Roll { line, .. },
                ..
            } => Some(line.clone()),
            _ => None,
        })
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Goblin") && l.contains("vs AC")),
        "the goblins took their turns: {lines:?}"
    );
    let rows = ledger(&w, &id).await;
    assert!(rows.iter().any(|row| matches!(row,
        LedgerRow::Roll { reason, .. } if reason.contains("Used from the character panel"))));
    // The drunk potion is no longer a move on offer, here or when chosen anyway.
    let offered = updates.iter().find_map(|update| match update {
        app::wire::view::TurnUpdate::Actions { actions } => Some(actions.clone()),
        _ => None,
    });
    let offered = offered.expect("the actions still on offer");
    assert!(
        offered.iter().all(|a| !a.description.contains("potion")),
        "{offered:?}"
    );
    let drink = hurt
        .actions
        .iter()
        .find(|a| a.description.contains("potion"))
        .map(|a| a.id.clone());
    if let Some(drink) = drink {
        let turn = w.game().load(&w.owner, &id, 3).await.unwrap().summary.turn;
        let request = MoveRequest {
            expected_turn: turn,
            input: &MoveInput::Action { id: drink },
        };
        let refused = w
            .game()
            .play(&w.owner, &id, request, 3, &mut rng, &mut |_| {})
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("not on offer"), "{refused}");
    }
}

#[tokio::test]
async fn an_undone_swing_swings_the_same_when_chosen_again() {
    let mut w = seated().await;
    let id = goblins(&mut w).await;
    w.play(&id, 2, MoveInput::Action { id: "shout".into() })
        .await;
    let attack = || MoveInput::Action {
        id: "fight-1".into(),
    };
    w.play(&id, 3, attack()).await;
    let first = ledger(&w, &id).await;
    w.game().undo(&w.owner, &id, 3, 3).await.unwrap();
    // Other dice meanwhile: the server's RNG has moved on.
    w.rng = StdRng::seed_from_u64(999);
    w.play(&id, 3, attack()).await;
    assert_eq!(
        ledger(&w, &id).await,
        first,
        "the same faces, the same exchange"
    );
}
