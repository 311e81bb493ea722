//! The character panel's own changes, through the rules: a consumable used (its dice rolled by
//! the server, shown in the ledger), a weapon, armour or shield equipped or put away (the armour
//! class follows); what the rules refuse changes nothing, another player's campaign is not
//! found, and an exported campaign with these changes imports again while a forged roll does not.

use crate::support::table;

use app::game::Slug;
use app::gm::scripted::{Scenario, Step};
use app::service::{Game, ServiceError};
use app::wire::view::{CampaignView, Handling, LedgerRow, MoveInput, NewCampaign, TurnUpdate};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::{json, Value};
use table::Table;

const USED: &str = "Used from the character panel";

/// An opening, then a claw that takes 3 HP, then a quiet turn.
fn scenario() -> Scenario {
    Scenario {
        steps: vec![
            Step::text("A crypt, knocking."),
            Step::calls(&[
                (
                    "roll_dice",
                    json!({"dice": "1d4+2", "reason": "Ghoul claw"}),
                ),
                ("update_character", json!({"hpChange": -3})),
            ]),
            Step::text("The ghoul's claw finds you."),
            Step::text("The crypt is quiet."),
        ],
        actions: vec![
            Step::json(json!({"actions": [
                {"id": "search", "description": "Search the alcove", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
            ]}));
            3
        ],
        cycle: false,
        ..Scenario::default()
    }
}

struct World {
    table: Table,
    rng: StdRng,
}

impl World {
    async fn new() -> Self {
        Self {
            table: Table::playing(scenario()).await,
            rng: StdRng::seed_from_u64(33),
        }
    }

    fn game(&self) -> Game<'_> {
        self.table.game()
    }

    /// Mira the Ranger, 3 HP down after two turns, carrying one healing potion.
    async fn campaign(&mut self, owner: &PlayerId) -> CampaignId {
        let form = NewCampaign::new("A crypt, knocking.", "Mira", "Ranger");
        let mut rng = self.rng.clone();
        let id = self.table.open_campaign(owner, &form, &mut rng).await;
        for (turn, text) in [(2, "I listen"), (3, "I wait")] {
            let input = MoveInput::Text { text: text.into() };
            let table = &self.table;
            table
                .play_turn(owner, &id, turn, &input, &mut rng)
                .await
                .unwrap();
        }
        self.rng = rng;
        id
    }

    async fn view(&self, owner: &PlayerId, id: &CampaignId) -> CampaignView {
        self.game().load(owner, id, 3).await.unwrap()
    }

    /// The campaign's exported file.
    async fn file(&self, owner: &PlayerId, id: &CampaignId) -> Value {
        serde_json::to_value(self.game().export(owner, id).await.unwrap()).unwrap()
    }

    async fn import(&mut self, owner: &PlayerId, file: &Value) -> Result<CampaignId, ServiceError> {
        let mut rng = self.rng.clone();
        let imported = self
            .game()
            .import(owner, &file.to_string(), 4, &mut rng)
            .await;
        self.rng = rng;
        imported.map(|summary| summary.id)
    }
}

fn slug(raw: &str) -> Slug {
    Slug::new(raw).unwrap()
}

fn quantity(view: &CampaignView, slug: &str) -> Option<u16> {
    let item = view.sheet.inventory.iter().find(|item| item.slug == slug);
    item.map(|item| item.quantity)
}

fn handling(view: &CampaignView, slug: &str) -> Handling {
    let item = view.sheet.inventory.iter().find(|item| item.slug == slug);
    item.expect("carried").handling
}

fn refused_as_invalid(answer: Result<Vec<TurnUpdate>, ServiceError>) -> String {
    match answer {
        Err(ServiceError::Invalid {
            field: "item",
            reason,
        }) => reason.to_string(),
        other => panic!("refused as an invalid item: {other:?}"),
    }
}

#[tokio::test]
async fn a_healing_potion_heals_by_its_roll_is_used_up_and_in_the_ledger() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let before = w.view(&ann, &id).await;
    assert_eq!(before.sheet.hp + 3, before.sheet.max_hp, "3 HP down");
    assert_eq!(quantity(&before, "healing-potion"), Some(1));
    assert_eq!(handling(&before, "healing-potion"), Handling::Consumable);

    let mut rng = StdRng::seed_from_u64(9);
    let potion = slug("healing-potion");
    let updates = w
        .game()
        .use_item(&ann, &id, &potion, 5, &mut rng)
        .await
        .unwrap();
    let after = w.view(&ann, &id).await;

    let ledger = w.game().ledger(&ann, &id, None).await.unwrap();
    let total = ledger
        .rows
        .iter()
        .find_map(|row| match row {
            LedgerRow::Roll {
                reason,
                notation,
                total,
                ..
            } if reason == &format!("Rules: {USED}") && notation == "2d4+2" => Some(*total),
            _ => None,
        })
        .expect("the potion's roll is in the ledger");
    assert!((4..=10).contains(&total));
    let healed = u16::try_from(total).unwrap().min(3);
    assert_eq!(after.sheet.hp, before.sheet.hp + healed, "never above max");
    assert_eq!(quantity(&after, "healing-potion"), None, "used up");
    let used: Vec<_> = ledger
        .rows
        .iter()
        .filter_map(|row| match row {
            LedgerRow::Change {
                what,
                before,
                after,
                cause,
                ..
            } if ledger.causes[*cause as usize] == USED => {
                Some(format!("{what}: {before} → {after}"))
            }
            _ => None,
        })
        .collect();
    assert_eq!(used.len(), 2, "{used:?}");
    assert_eq!(used[0], "Healing potion: 1 → 0");
    assert!(used[1].starts_with("HP: "), "{used:?}");
    let TurnUpdate::Sheet { sheet } = &updates[0] else {
        panic!("the panel first: {updates:?}");
    };
    assert_eq!(**sheet, after.sheet);
    assert!(matches!(updates.last(), Some(TurnUpdate::Entry { .. })));

    // A potion used when none is carried: refused, and nothing is stored.
    let events = w.file(&ann, &id).await["events"].as_array().unwrap().len();
    let again = w.game().use_item(&ann, &id, &potion, 6, &mut rng).await;
    assert!(refused_as_invalid(again).contains("healing-potion"));
    assert_eq!(
        w.file(&ann, &id).await["events"].as_array().unwrap().len(),
        events
    );
    assert_eq!(w.view(&ann, &id).await.sheet, after.sheet);

    // Exported and imported, the campaign verifies and comes back the same.
    let file = w.file(&ann, &id).await;
    let copy = w.import(&ann, &file).await.expect("the campaign verifies");
    assert_eq!(w.view(&ann, &copy).await.sheet, after.sheet);
}

/// The ledger names the panel as the cause of equipping and putting away.
async fn assert_ledger_cites_the_panel(w: &World, owner: &PlayerId, id: &CampaignId) {
    let ledger = w.game().ledger(owner, id, None).await.unwrap();
    for cause in [
        "Equipped from the character panel",
        "Unequipped from the character panel",
    ] {
        assert!(ledger.causes.iter().any(|c| c == cause), "{cause}");
    }
}

#[tokio::test]
async fn gear_is_no_consumable_and_equipping_changes_the_armor_class() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let start = w.view(&ann, &id).await;
    assert_eq!(handling(&start, "leather-armor"), Handling::Equipped);
    let armour = start
        .sheet
        .inventory
        .iter()
        .find(|i| i.slug == "leather-armor");
    assert_eq!(armour.unwrap().kind, "armour AC 11 + DEX");
    let events = w.file(&ann, &id).await["events"].as_array().unwrap().len();
    let mut rng = StdRng::seed_from_u64(9);

    // What the rules refuse changes nothing.
    let game = w.game();
    let bow = slug("longbow");
    let arrows = slug("arrows");
    assert!(
        refused_as_invalid(game.use_item(&ann, &id, &bow, 5, &mut rng).await)
            .contains("not something to use up")
    );
    refused_as_invalid(game.equip_item(&ann, &id, &arrows, true, 5).await);
    refused_as_invalid(
        game.equip_item(&ann, &id, &slug("leather-armor"), true, 5)
            .await,
    );
    refused_as_invalid(game.equip_item(&ann, &id, &slug("rope"), true, 5).await);
    assert_eq!(
        w.file(&ann, &id).await["events"].as_array().unwrap().len(),
        events
    );
    assert_eq!(w.view(&ann, &id).await.sheet, start.sheet);

    let armour = slug("leather-armor");
    w.game()
        .equip_item(&ann, &id, &armour, false, 5)
        .await
        .unwrap();
    let unarmoured = w.view(&ann, &id).await;
    assert_eq!(unarmoured.sheet.armor_class + 1, start.sheet.armor_class);
    assert_eq!(handling(&unarmoured, "leather-armor"), Handling::Equippable);
    w.game()
        .equip_item(&ann, &id, &armour, true, 5)
        .await
        .unwrap();
    w.game()
        .equip_item(&ann, &id, &slug("shortsword"), true, 5)
        .await
        .unwrap();
    let armed = w.view(&ann, &id).await;
    assert_eq!(armed.sheet.armor_class, start.sheet.armor_class);
    assert_eq!(handling(&armed, "shortsword"), Handling::Equipped);
    assert_eq!(
        handling(&armed, "longbow"),
        Handling::Equippable,
        "one weapon in hand"
    );

    assert_ledger_cites_the_panel(&w, &ann, &id).await;
    let file = w.file(&ann, &id).await;
    let copy = w.import(&ann, &file).await.expect("the campaign verifies");
    assert_eq!(w.view(&ann, &copy).await.sheet, armed.sheet);

    // Another player's cookie finds nothing, and nothing changes.
    let bob = PlayerId::random(&mut w.rng);
    let game = w.game();
    let answers = [
        game.use_item(&bob, &id, &slug("healing-potion"), 6, &mut rng)
            .await,
        game.equip_item(&bob, &id, &armour, false, 6).await,
    ];
    for answer in answers {
        assert!(matches!(answer, Err(ServiceError::NotFound)), "{answer:?}");
    }
    assert_eq!(w.view(&ann, &id).await.sheet, armed.sheet);
}

#[tokio::test]
async fn a_forged_use_whose_roll_its_dice_cannot_show_is_refused() {
    let mut w = World::new().await;
    let ann = PlayerId::random(&mut w.rng);
    let id = w.campaign(&ann).await;
    let mut rng = StdRng::seed_from_u64(9);
    let potion = slug("healing-potion");
    w.game()
        .use_item(&ann, &id, &potion, 5, &mut rng)
        .await
        .unwrap();
    let file = w.file(&ann, &id).await;
    let at = file["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|stored| stored["event"]["cause"] == USED)
        .expect("the use is in the file");
    let roll = file["events"][at]["event"]["deltas"][0]["roll"].clone();
    assert_eq!(roll["notation"], "2d4+2");

    // A total its dice do not add up to, and dice of another notation.
    let mut inflated = roll.clone();
    inflated["total"] = json!(roll["total"].as_i64().unwrap() + 1);
    let mut bigger = roll.clone();
    bigger["notation"] = json!("2d4+3");
    bigger["modifier"] = json!(3);
    bigger["total"] = json!(roll["total"].as_i64().unwrap() + 1);
    for forged_roll in [inflated, bigger] {
        let mut forged = file.clone();
        forged["events"][at]["event"]["deltas"][0]["roll"] = forged_roll;
        let message = match w.import(&ann, &forged).await {
            Ok(_) => "accepted".to_owned(),
            Err(error) => error.to_string(),
        };
        assert!(message.contains(&format!("event {at} ")), "{message}");
        assert!(
            message.contains("the rules did not make this change"),
            "{message}"
        );
    }
    assert!(
        w.import(&ann, &file).await.is_ok(),
        "the true file verifies"
    );
}
