//! Tests of the state deltas: clamping, errors that change nothing, the labels of what changed,
//! the rests, experience and levels, and the stakes of 0 HP.

use super::*;
use crate::game::inventory::Quantity;
use crate::game::sheet::tests::mira;
use crate::game::sheet::{CharacterSheet, Sanity};
use crate::game::stakes::Vitality;
use crate::game::text::{ConditionDuration, ItemName};

fn add_item(name: &str, quantity: i64) -> StateDelta {
    StateDelta::AddItem {
        item: NewItem::new(
            ItemName::new(name).unwrap(),
            None,
            Quantity::new(quantity).unwrap(),
        )
        .unwrap(),
    }
}

fn change_item(slug: &str, change: i32) -> StateDelta {
    StateDelta::ChangeItemQuantity {
        slug: Slug::new(slug).unwrap(),
        change,
    }
}

fn labels(delta: StateDelta, sheet: &mut CharacterSheet) -> Vec<String> {
    delta.apply(sheet).unwrap().labels()
}

#[test]
fn hp_is_clamped_and_reports_the_actual_change() {
    let mut sheet = mira();
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: -5 }, &mut sheet),
        ["−5 HP"]
    );
    assert_eq!(sheet.hit_points().current(), 5);
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: -50 }, &mut sheet),
        ["−5 HP", "Down (0 ✓, 0 ✗)"]
    );
    assert_eq!(sheet.hit_points().current(), 0);
    assert_eq!(
        labels(StateDelta::SetHp { hp: 0 }, &mut sheet),
        Vec::<String>::new()
    );
    assert_eq!(
        labels(StateDelta::SetHp { hp: 99 }, &mut sheet),
        ["+10 HP", "On your feet"]
    );
    assert_eq!(sheet.hit_points().current(), 10);
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: i32::MIN }, &mut sheet),
        ["−10 HP", "Down (0 ✓, 0 ✗)"]
    );
}

#[test]
fn max_hp_drags_current_down() {
    let mut sheet = mira();
    assert_eq!(
        labels(StateDelta::SetMaxHp { max_hp: 6 }, &mut sheet),
        ["Max HP 6", "−4 HP"]
    );
    assert_eq!(
        labels(StateDelta::SetMaxHp { max_hp: 5000 }, &mut sheet),
        ["Max HP 999"]
    );
    assert_eq!(sheet.hit_points().current(), 6);
    assert_eq!(
        labels(StateDelta::SetMaxHp { max_hp: -3 }, &mut sheet),
        ["Max HP 1", "−5 HP"]
    );
}

#[test]
fn level_and_attributes_are_clamped() {
    let mut sheet = mira();
    assert_eq!(
        labels(StateDelta::SetLevel { level: 25 }, &mut sheet),
        ["Level 20"]
    );
    assert_eq!(
        labels(StateDelta::SetLevel { level: 0 }, &mut sheet),
        ["Level 1"]
    );
    let set = |score| StateDelta::SetAttribute {
        attribute: Attribute::Strength,
        score,
    };
    assert_eq!(labels(set(14), &mut sheet), ["STR 14"]);
    assert_eq!(labels(set(40), &mut sheet), ["STR 30"]);
    assert_eq!(labels(set(-2), &mut sheet), ["STR 1"]);
    assert_eq!(sheet.attributes().strength.value(), 1);
}

#[test]
fn sanity_needs_a_sanity_score() {
    let mut sheet = mira();
    let err = StateDelta::ChangeSanity { amount: -5 }
        .apply(&mut sheet)
        .unwrap_err();
    assert_eq!(err.to_string(), "This character has no sanity score");
    let mut sheet = mira().with_sanity(Sanity::new(100).unwrap());
    assert_eq!(
        labels(StateDelta::ChangeSanity { amount: -10 }, &mut sheet),
        ["−10 Sanity"]
    );
    assert_eq!(
        labels(StateDelta::ChangeSanity { amount: 50 }, &mut sheet),
        ["+10 Sanity"]
    );
}

#[test]
fn item_labels() {
    let mut sheet = mira();
    assert_eq!(
        labels(add_item("Rusty key", 1), &mut sheet),
        ["+ Rusty key"]
    );
    assert_eq!(labels(add_item("Torch", 2), &mut sheet), ["+2 Torch"]);
    assert_eq!(labels(add_item("torch", 1), &mut sheet), ["+1 Torch"]);
    assert_eq!(labels(change_item("torch", -1), &mut sheet), ["−1 Torch"]);
    assert_eq!(labels(add_item("Rope", 3), &mut sheet), ["+3 Rope"]);
    assert_eq!(labels(change_item("Rope", -3), &mut sheet), ["− Rope"]);
    assert!(sheet.inventory().get(&Slug::new("rope").unwrap()).is_none());
    assert_eq!(
        labels(change_item("torch", 0), &mut sheet),
        Vec::<String>::new()
    );
}

#[test]
fn missing_item_is_an_error_and_changes_nothing() {
    let mut sheet = mira();
    let before = sheet.clone();
    let err = change_item("sandwich", -1).apply(&mut sheet).unwrap_err();
    assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
    assert_eq!(sheet, before);
}

#[test]
fn condition_labels_and_errors() {
    let mut sheet = mira();
    let poisoned = Condition::named(ConditionName::new("Poisoned").unwrap());
    let add = StateDelta::AddCondition {
        condition: poisoned.clone(),
    };
    assert_eq!(labels(add.clone(), &mut sheet), ["Poisoned"]);
    assert_eq!(labels(add, &mut sheet), Vec::<String>::new());
    let mut longer = poisoned.clone();
    longer.duration = Some(ConditionDuration::new("1 hour").unwrap());
    assert_eq!(
        labels(StateDelta::AddCondition { condition: longer }, &mut sheet),
        ["Poisoned"]
    );
    let remove = StateDelta::RemoveCondition {
        name: ConditionName::new("poisoned").unwrap(),
    };
    assert_eq!(labels(remove.clone(), &mut sheet), ["− Poisoned"]);
    assert_eq!(
        remove.apply(&mut sheet).unwrap_err().to_string(),
        "No condition \"poisoned\" to remove"
    );
}

#[test]
fn a_timed_condition_ends_when_game_time_passes_it() {
    let mut sheet = mira();
    let mut poisoned = Condition::named(ConditionName::new("Poisoned").unwrap());
    poisoned.duration = Some(ConditionDuration::new("1 hour").unwrap());
    let add = StateDelta::AddCondition {
        condition: poisoned.typed(),
    };
    add.apply(&mut sheet).unwrap();
    let start = sheet.time().minutes();
    let gained = &sheet.conditions().list()[0];
    assert_eq!(gained.ends_at, Some(start + 60));
    assert_eq!(
        sheet.conditions().roll_effects().attacks,
        crate::game::dice::Edge::Disadvantage
    );
    assert_eq!(
        labels(StateDelta::AdvanceTime { minutes: 59 }, &mut sheet),
        ["+59 min"]
    );
    assert_eq!(
        labels(StateDelta::AdvanceTime { minutes: 1 }, &mut sheet),
        ["+1 min", "− Poisoned"]
    );
    assert!(sheet.conditions().is_empty());
}

#[test]
fn location_and_time() {
    let mut sheet = mira();
    let crypt = LocationName::new("The crypt").unwrap();
    let move_to = StateDelta::MoveTo { location: crypt };
    assert_eq!(labels(move_to.clone(), &mut sheet), ["→ The crypt"]);
    assert_eq!(labels(move_to, &mut sheet), Vec::<String>::new());
    assert_eq!(
        labels(StateDelta::AdvanceTime { minutes: 90 }, &mut sheet),
        ["+1 h 30 min"]
    );
    assert_eq!(
        labels(StateDelta::AdvanceTime { minutes: 45 }, &mut sheet),
        ["+45 min"]
    );
    assert_eq!(
        labels(
            StateDelta::AdvanceTime {
                minutes: 3 * 1440 + 120
            },
            &mut sheet
        ),
        ["+3 d 2 h"]
    );
    assert_eq!(sheet.time().to_string(), "Day 4, 12:15");
    assert_eq!(
        labels(StateDelta::AdvanceTime { minutes: 0 }, &mut sheet),
        Vec::<String>::new()
    );
}

#[test]
fn apply_all_is_atomic() {
    let mut sheet = mira();
    let before = sheet.clone();
    let deltas = [
        StateDelta::ChangeHp { amount: -3 },
        add_item("Torch", 1),
        change_item("sandwich", -1),
    ];
    let err = StateDelta::apply_all(&deltas, &mut sheet).unwrap_err();
    assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
    assert_eq!(sheet, before);
    let changes = StateDelta::apply_all(&deltas[..2], &mut sheet).unwrap();
    assert_eq!(changes.labels(), ["−3 HP", "+ Torch"]);
    assert_eq!(changes.changes().len(), 2);
    assert!(!changes.is_empty());
}

#[test]
fn full_inventory_rejects_new_items_only() {
    let mut sheet = mira();
    let deltas: Vec<StateDelta> = (0..100)
        .map(|i| add_item(&format!("Pebble {i}"), 1))
        .collect();
    StateDelta::apply_all(&deltas, &mut sheet).unwrap();
    let err = add_item("Feather", 1).apply(&mut sheet).unwrap_err();
    assert!(matches!(err, DeltaError::Inventory(InventoryError::Full)));
    assert_eq!(labels(add_item("pebble 7", 2), &mut sheet), ["+2 Pebble 7"]);
}

#[test]
fn zero_hp_downs_a_heroic_character_who_then_saves_or_dies() {
    let mut sheet = mira();
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: -12 }, &mut sheet),
        ["−10 HP", "Down (0 ✓, 0 ✗)"]
    );
    assert_eq!(
        labels(StateDelta::DeathSave { die: 14 }, &mut sheet),
        ["Down (1 ✓, 0 ✗)"]
    );
    // Damage while down is a failed save; a natural 1 is two.
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: -3 }, &mut sheet),
        ["Down (1 ✓, 1 ✗)"]
    );
    assert_eq!(
        labels(StateDelta::DeathSave { die: 1 }, &mut sheet),
        ["Fallen"]
    );
    assert!(sheet.vitality().is_dead());
    let refused = StateDelta::ChangeHp { amount: 5 }
        .apply(&mut sheet)
        .unwrap_err();
    assert_eq!(refused, DeltaError::Fallen);
    assert_eq!(sheet.hit_points().current(), 0);
}

#[test]
fn healing_or_a_natural_twenty_brings_them_back() {
    let mut sheet = mira();
    StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
    assert_eq!(
        labels(StateDelta::DeathSave { die: 20 }, &mut sheet),
        ["+1 HP", "On your feet"]
    );
    StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
    for die in [10, 11, 12] {
        StateDelta::DeathSave { die }.apply(&mut sheet).unwrap();
    }
    assert_eq!(sheet.vitality(), Vitality::Stable);
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: 4 }, &mut sheet),
        ["+4 HP", "On your feet"]
    );
}

#[test]
fn zero_hp_ends_a_gritty_story_at_once() {
    let mut sheet = mira().with_stakes(crate::game::Stakes::Gritty);
    assert_eq!(
        labels(StateDelta::ChangeHp { amount: -10 }, &mut sheet),
        ["−10 HP", "Fallen"]
    );
    let deltas = [StateDelta::AdvanceTime { minutes: 5 }];
    assert_eq!(
        StateDelta::apply_all(&deltas, &mut sheet).unwrap_err(),
        DeltaError::Fallen
    );
}

#[test]
fn experience_gains_one_level_at_a_time_with_its_hit_points() {
    let mut sheet = mira();
    assert_eq!(
        labels(StateDelta::GainExperience { amount: 5_000 }, &mut sheet),
        ["+899 XP", "Level 2", "Max HP 15", "+5 HP"]
    );
    assert_eq!(sheet.level().value(), 2);
    assert_eq!(
        StateDelta::GainExperience { amount: 0 }.apply(&mut sheet),
        Err(DeltaError::Award)
    );
    assert_eq!(
        labels(StateDelta::GainExperience { amount: 1 }, &mut sheet),
        ["+1 XP", "Level 3", "Max HP 20", "+5 HP"]
    );
}

#[test]
fn rests_heal_within_the_rules() {
    let mut sheet = mira();
    StateDelta::SetHp { hp: 2 }.apply(&mut sheet).unwrap();
    let short = StateDelta::Rest {
        kind: RestKind::Short,
    };
    assert_eq!(
        labels(short.clone(), &mut sheet),
        ["Hit dice left: 0", "+5 HP", "+1 h"]
    );
    let long = StateDelta::Rest {
        kind: RestKind::Long,
    };
    assert_eq!(
        labels(long, &mut sheet),
        ["Hit dice left: 1", "+3 HP", "+8 h"]
    );
    StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
    assert_eq!(short.apply(&mut sheet), Err(DeltaError::Dying));
}

#[test]
fn hit_dice_are_a_pool_spent_on_short_rests_and_half_regained_on_long_ones() {
    let mut sheet = mira().with_level(crate::game::Level::new(5).unwrap());
    let short = StateDelta::Rest {
        kind: RestKind::Short,
    };
    let long = StateDelta::Rest {
        kind: RestKind::Long,
    };
    assert_eq!(sheet.hit_dice(), Some((5, 5)));
    for left in (0..5).rev() {
        short.apply(&mut sheet).unwrap();
        assert_eq!(sheet.hit_dice(), Some((left, 5)));
    }
    let before = sheet.clone();
    assert_eq!(short.apply(&mut sheet), Err(DeltaError::NoHitDice));
    assert_eq!(sheet, before, "a refused rest changes nothing");
    // Half of five, rounded down: two back; then two more; then the last one.
    for left in [2, 4, 5] {
        long.apply(&mut sheet).unwrap();
        assert_eq!(sheet.hit_dice(), Some((left, 5)));
    }
    // A sheet from before the pool rests as it always did.
    let mut older: CharacterSheet = serde_json::from_value({
        let mut json = serde_json::to_value(mira()).unwrap();
        json.as_object_mut().unwrap().remove("hitDiceSpent");
        json
    })
    .unwrap();
    assert_eq!(older.hit_dice(), None);
    for _ in 0..3 {
        short.apply(&mut older).unwrap();
    }
}

#[test]
fn deltas_and_changes_serialise_tagged() {
    let delta = StateDelta::SetMaxHp { max_hp: 12 };
    let json = serde_json::to_value(&delta).unwrap();
    assert_eq!(json, serde_json::json!({"type": "setMaxHp", "maxHp": 12}));
    let back: StateDelta = serde_json::from_value(json).unwrap();
    assert_eq!(back, delta);
    let add: StateDelta = serde_json::from_value(serde_json::json!({
        "type": "addItem", "item": {"name": "Rusty key", "quantity": 1}
    }))
    .unwrap();
    let mut sheet = mira();
    let changes = add.apply(&mut sheet).unwrap();
    let json = serde_json::to_value(&changes).unwrap();
    assert_eq!(json[0]["type"], "item");
    assert_eq!(json[0]["slug"], "rusty-key");
    let back: AppliedChanges = serde_json::from_value(json).unwrap();
    assert_eq!(back, changes);
}
