use proptest::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

use super::*;
use crate::game::inventory::{NewItem, Quantity};
use crate::game::sheet::tests::mira;
use crate::game::sheet::HitPoints;

/// Mira with `current` of 10 hit points, carrying `items` (name, quantity).
fn sheet(current: i64, items: &[(&str, i64)]) -> CharacterSheet {
    let mut sheet = mira().with_hit_points(HitPoints::new(current, 10).unwrap());
    let deltas: Vec<StateDelta> = items
        .iter()
        .map(|(name, count)| StateDelta::AddItem {
            item: NewItem::new(
                ItemName::new(name).unwrap(),
                None,
                Quantity::new(*count).unwrap(),
            )
            .unwrap(),
        })
        .collect();
    StateDelta::apply_all(&deltas, &mut sheet).unwrap();
    sheet
}

/// The complication whose dice show `table` on the d6 and `then` on the row's own die.
fn with_faces(sheet: &CharacterSheet, table: u16, then: u16) -> Complication {
    let mut faces = [table, then].into_iter();
    Complication::roll_faces(sheet, |_| faces.next().unwrap_or(1))
}

#[test]
fn each_face_lands_on_its_row() {
    let carrying = sheet(10, &[("Torch", 5), ("Rope", 1)]);
    let rows: Vec<Cost> = (1..=6)
        .map(|face| {
            let complication = with_faces(&carrying, face, 3);
            assert_eq!(complication.table.total(), i32::from(face));
            complication.cost
        })
        .collect();
    assert!(matches!(rows[0], Cost::Harm { damage: 3, .. }));
    assert!(matches!(rows[1], Cost::Harm { damage: 3, .. }));
    assert!(matches!(&rows[2], Cost::LostTime { roll } if roll.total() == 3));
    assert!(matches!(&rows[3], Cost::LostTime { .. }));
    assert_eq!(
        rows[4],
        Cost::LostItem {
            slug: Slug::new("torch").unwrap(),
            name: ItemName::new("Torch").unwrap(),
        }
    );
    assert_eq!(rows[5], Cost::Alerted);
}

#[test]
fn harm_never_takes_the_last_hit_point() {
    let low = sheet(3, &[]);
    let complication = with_faces(&low, 1, 4);
    assert!(matches!(complication.cost, Cost::Harm { damage: 2, .. }));
    let mut after = low.clone();
    StateDelta::apply_all(&complication.deltas(), &mut after).unwrap();
    assert_eq!(after.hit_points().current(), 1);
}

#[test]
fn rows_that_cannot_apply_fall_to_the_next() {
    // Nothing of little worth (one rope only): the lost item is a harm.
    let one_rope = sheet(10, &[("Rope", 1)]);
    assert!(matches!(
        with_faces(&one_rope, 5, 2).cost,
        Cost::Harm { damage: 2, .. }
    ));
    // At 1 hit point a harm is lost time, and so is a lost item with nothing to lose.
    let last = sheet(1, &[]);
    for face in [1, 2, 5] {
        assert!(matches!(
            with_faces(&last, face, 2).cost,
            Cost::LostTime { .. }
        ));
    }
}

#[test]
fn each_cost_changes_the_sheet_as_described() {
    let carrying = sheet(10, &[("Torch", 5)]);
    let cases = [
        (1, "a minor harm: 3 damage (1d4: 3)"),
        (3, "lost time: 30 minutes (1d6: 3 × 10)"),
        (5, "a Torch lost"),
        (6, "a foe alerted: Noticed for 1 hour"),
    ];
    for (face, described) in cases {
        let complication = with_faces(&carrying, face, 3);
        assert!(
            complication.describe().starts_with(described),
            "{}",
            complication.describe()
        );
        let mut after = carrying.clone();
        let changes = StateDelta::apply_all(&complication.deltas(), &mut after).unwrap();
        assert!(!changes.is_empty(), "face {face} changes something");
    }
    let mut after = carrying.clone();
    StateDelta::apply_all(&with_faces(&carrying, 5, 1).deltas(), &mut after).unwrap();
    let torches = after.inventory().get(&Slug::new("torch").unwrap()).unwrap();
    assert_eq!(torches.quantity().value(), 4);
    StateDelta::apply_all(&with_faces(&carrying, 6, 1).deltas(), &mut after).unwrap();
    let noticed = ConditionName::new(NOTICED).unwrap();
    assert!(after.conditions().get(&noticed).is_some());
}

#[test]
fn a_forged_complication_is_not_the_rules() {
    let carrying = sheet(10, &[("Torch", 5), ("Arrow", 20)]);
    let honest = with_faces(&carrying, 1, 3);
    assert!(honest.is_the_rules(&carrying));
    let mut heavier = honest.clone();
    heavier.cost = Cost::Harm {
        roll: with_faces(&carrying, 1, 3).table,
        damage: 9,
    };
    assert!(!heavier.is_the_rules(&carrying));
    // The arrows are the largest stack: losing a torch is not what the table says.
    let mut other_item = with_faces(&carrying, 5, 1);
    assert!(other_item.is_the_rules(&carrying));
    other_item.cost = Cost::LostItem {
        slug: Slug::new("torch").unwrap(),
        name: ItemName::new("Torch").unwrap(),
    };
    assert!(!other_item.is_the_rules(&carrying));
    // Another row than the die shows.
    let mut wrong_row = with_faces(&carrying, 6, 1);
    wrong_row.cost = with_faces(&carrying, 3, 1).cost;
    assert!(!wrong_row.is_the_rules(&carrying));
}

proptest! {
    /// Whatever the dice, a complication is the rules', changes the sheet, and leaves the
    /// character standing with at least 1 hit point.
    #[test]
    fn every_complication_costs_something_and_never_kills(
        seed in any::<u64>(),
        current in 1i64..=10,
        torches in 0i64..=3,
    ) {
        let items: Vec<(&str, i64)> = if torches > 0 { vec![("Torch", torches)] } else { vec![] };
        let before = sheet(current, &items);
        let complication = Complication::roll(&before, &mut StdRng::seed_from_u64(seed));
        prop_assert!(complication.is_the_rules(&before));
        let mut after = before.clone();
        let changes = StateDelta::apply_all(&complication.deltas(), &mut after).unwrap();
        prop_assert!(!changes.is_empty());
        prop_assert!(after.hit_points().current() >= 1);
        prop_assert!(
            after.hit_points().current() + 4 >= before.hit_points().current(),
            "a minor harm is at most 1d4"
        );
    }
}
