//! Using consumables through the sheet's deltas.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::*;
use crate::game::conditions::Condition;
use crate::game::dice::DiceExpr;
use crate::game::inventory::{NewItem, Quantity};
use crate::game::sheet::tests::mira;
use crate::game::sheet::HitPoints;
use crate::game::{Attribute, AttributeBonus, DeltaError, Stakes, StateDelta};

fn slug(raw: &str) -> Slug {
    Slug::new(raw).unwrap()
}

/// `notation` rolled with these faces, in order, plus `bonus`.
fn scripted_with(notation: &str, bonus: Option<AttributeBonus>, faces: &[u16]) -> Roll {
    let mut faces = faces.iter().copied();
    DiceExpr::parse(notation)
        .unwrap()
        .roll_faces(bonus, |_| faces.next().expect("enough faces"))
}

fn scripted(notation: &str, faces: &[u16]) -> Roll {
    scripted_with(notation, None, faces)
}

/// Mira at `hp` of 10, carrying `items`, one each.
fn hurt(hp: i64, items: &[&str]) -> CharacterSheet {
    let mut sheet = mira().with_hit_points(HitPoints::new(hp, 10).unwrap());
    for name in items {
        let item = NewItem::new(ItemName::new(name).unwrap(), None, Quantity::ONE).unwrap();
        StateDelta::AddItem { item }.apply(&mut sheet).unwrap();
    }
    sheet
}

fn drink(roll: Roll) -> StateDelta {
    StateDelta::UseItem {
        slug: slug("healing-potion"),
        roll: Some(roll),
    }
}

#[test]
fn a_healing_potion_rolls_heals_and_is_used_up() {
    let mut sheet = hurt(3, &["Healing potion"]);
    let delta = StateDelta::use_item(
        &sheet,
        &slug("healing-potion"),
        &mut StdRng::seed_from_u64(5),
    )
    .unwrap();
    let roll = delta.roll().expect("healing is rolled").clone();
    assert!(roll.notation() == "2d4+2" && (4..=10).contains(&roll.total()));
    let changes = delta.apply(&mut sheet).unwrap();
    let healed = format!("+{} HP", (roll.total()).min(7));
    assert_eq!(changes.labels(), ["− Healing potion".to_owned(), healed]);
    assert!(sheet.inventory().is_empty());
    // A potion used when none is carried.
    let none = StateDelta::use_item(
        &sheet,
        &slug("healing-potion"),
        &mut StdRng::seed_from_u64(5),
    );
    assert_eq!(
        none.unwrap_err().to_string(),
        "No item \"healing-potion\" in inventory"
    );
}

#[test]
fn healing_stops_at_the_maximum() {
    let mut sheet = hurt(9, &["Healing potion"]);
    let changes = drink(scripted("2d4+2", &[4, 4])).apply(&mut sheet).unwrap();
    assert_eq!(changes.labels(), ["− Healing potion", "+1 HP"]);
    assert_eq!(sheet.hit_points().current(), 10);
}

#[test]
fn a_potion_brings_a_downed_character_back() {
    let mut sheet = hurt(10, &["Healing potion"]);
    StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
    let changes = drink(scripted("2d4+2", &[1, 2])).apply(&mut sheet).unwrap();
    assert_eq!(
        changes.labels(),
        ["− Healing potion", "+5 HP", "On your feet"]
    );
}

#[test]
fn a_roll_its_dice_cannot_show_is_refused_and_changes_nothing() {
    let sheet = hurt(3, &["Healing potion"]);
    let mut doctored = serde_json::to_value(scripted("2d4+2", &[1, 1])).unwrap();
    doctored["total"] = 10.into();
    let bonus = AttributeBonus {
        attribute: Attribute::Constitution,
        modifier: 3,
        proficiency: 0,
    };
    let wrong = [
        Some(serde_json::from_value(doctored).unwrap()),
        Some(scripted("2d6+2", &[6, 6])),
        Some(scripted("1d4", &[4])),
        Some(scripted_with("2d4+2", Some(bonus), &[4, 4])),
        None,
    ];
    for roll in wrong {
        let mut tried = sheet.clone();
        let delta = StateDelta::UseItem {
            slug: slug("healing-potion"),
            roll,
        };
        assert_eq!(
            delta.apply(&mut tried).unwrap_err().to_string(),
            "The roll given for the Healing potion is not what its effect rolls"
        );
        assert_eq!(tried, sheet);
    }
}

#[test]
fn what_cannot_be_used_now_is_refused_before_any_roll() {
    let sheet = hurt(10, &["Healing potion", "Longsword", "Antitoxin"]);
    let mut rng = StdRng::seed_from_u64(1);
    let refusal = |raw: &str, rng: &mut StdRng| {
        StateDelta::use_item(&sheet, &slug(raw), rng)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refusal("healing-potion", &mut rng),
        "Already at full hit points; the Healing potion would be wasted"
    );
    assert_eq!(
        refusal("longsword", &mut rng),
        "Longsword is not something to use up"
    );
    assert_eq!(
        refusal("antitoxin", &mut rng),
        "Not Poisoned, so the Antitoxin would do nothing"
    );
    // No die was rolled: the RNG is where it started.
    let untouched = StdRng::seed_from_u64(1);
    assert_eq!(rng, untouched);
    let mut fallen = hurt(1, &["Healing potion"]).with_stakes(Stakes::Gritty);
    StateDelta::SetHp { hp: 0 }.apply(&mut fallen).unwrap();
    let err = StateDelta::use_item(&fallen, &slug("healing-potion"), &mut rng).unwrap_err();
    assert_eq!(err, DeltaError::Fallen);
}

#[test]
fn antitoxin_cures_poison_without_dice() {
    let mut sheet = hurt(10, &["Antitoxin"]);
    let poisoned = Condition::named(ConditionName::new("poisoned").unwrap());
    StateDelta::AddCondition {
        condition: poisoned,
    }
    .apply(&mut sheet)
    .unwrap();
    let mut rng = StdRng::seed_from_u64(2);
    let delta = StateDelta::use_item(&sheet, &slug("antitoxin"), &mut rng).unwrap();
    assert_eq!(delta.roll(), None);
    let with_roll = StateDelta::UseItem {
        slug: slug("antitoxin"),
        roll: Some(scripted("1d4", &[2])),
    };
    assert!(with_roll.apply(&mut sheet.clone()).is_err());
    let changes = delta.apply(&mut sheet).unwrap();
    assert_eq!(changes.labels(), ["− Antitoxin", "− poisoned"]);
    assert!(sheet.conditions().is_empty() && sheet.inventory().is_empty());
}

#[test]
fn a_use_is_written_with_its_roll() {
    let delta = drink(scripted("2d4+2", &[3, 1]));
    let json = serde_json::to_value(&delta).unwrap();
    assert_eq!(json["type"], "useItem");
    assert_eq!(json["roll"]["total"], 6);
    assert_eq!(serde_json::from_value::<StateDelta>(json).unwrap(), delta);
    let cure = StateDelta::UseItem {
        slug: slug("antitoxin"),
        roll: None,
    };
    assert_eq!(
        serde_json::to_value(&cure).unwrap(),
        serde_json::json!({"type": "useItem", "slug": "antitoxin"})
    );
}
