use proptest::prelude::*;
use rand::SeedableRng;

use super::*;

fn row(from: u8, to: u8, outcome: &str) -> Outcome {
    Outcome {
        from,
        to,
        outcome: outcome.parse().unwrap(),
    }
}

fn name() -> TableName {
    "Who answers the door?".parse().unwrap()
}

fn door(rows: Vec<Outcome>) -> Result<OutcomeTable, TableError> {
    OutcomeTable::new(name(), TableDie::D6, rows)
}

#[test]
fn a_table_that_covers_its_die_once_is_kept_in_the_order_of_its_faces() {
    let table = door(vec![
        row(6, 6, "the priest"),
        row(1, 3, "nobody"),
        row(4, 5, "a ghoul"),
    ])
    .unwrap();
    let ranges: Vec<String> = table.outcomes().iter().map(Outcome::range).collect();
    assert_eq!(ranges, ["1–3", "4–5", "6"]);
    assert_eq!(
        table.describe(),
        "Who answers the door? (d6): 1–3 nobody; 4–5 a ghoul; 6 the priest"
    );
    assert_eq!(table.index_of(5), Some(1));
}

#[test]
fn gaps_overlaps_and_faces_past_the_die_are_refused_with_the_reason() {
    let gap = door(vec![row(1, 2, "nobody"), row(5, 6, "a ghoul")]).unwrap_err();
    assert_eq!(
        gap.to_string(),
        "no outcome covers 3–4 of the d6; the ranges must cover every face"
    );
    let short = door(vec![row(1, 2, "nobody"), row(3, 5, "a ghoul")]).unwrap_err();
    assert!(matches!(short, TableError::Gap { from: 6, to: 6, .. }));
    let overlap = door(vec![row(1, 4, "nobody"), row(4, 6, "a ghoul")]).unwrap_err();
    assert_eq!(
        overlap.to_string(),
        "4 is in two ranges; each face of the die may bring one outcome only"
    );
    let past = door(vec![row(1, 3, "nobody"), row(4, 8, "a ghoul")]).unwrap_err();
    assert_eq!(
        past.to_string(),
        "the range 4–8 is past the d6, whose faces are 1 to 6"
    );
    let zero = door(vec![row(0, 3, "nobody"), row(4, 6, "a ghoul")]).unwrap_err();
    assert!(matches!(zero, TableError::PastTheDie { from: 0, .. }));
    let reversed = door(vec![row(3, 1, "nobody"), row(4, 6, "a ghoul")]).unwrap_err();
    assert!(matches!(reversed, TableError::Reversed { from: 3, to: 1 }));
    assert_eq!(door(vec![row(1, 6, "all")]), Err(TableError::TooFew));
    let eleven: Vec<Outcome> = (1..=11).map(|face| row(face, face, "x")).collect();
    let many = OutcomeTable::new(name(), TableDie::D20, eleven).unwrap_err();
    assert_eq!(many, TableError::TooMany(11));
}

#[test]
fn a_stored_table_or_roll_is_checked_again_when_read() {
    let overlapping = r#"{"name":"Door","die":"d6","outcomes":[
        {"from":1,"to":4,"outcome":"a"},{"from":3,"to":6,"outcome":"b"}]}"#;
    assert!(serde_json::from_str::<OutcomeTable>(overlapping).is_err());
    let table = door(vec![row(1, 3, "nobody"), row(4, 6, "a ghoul")]).unwrap();
    let roll = TableRoll::with_face(table.clone(), 4).unwrap();
    let json = serde_json::to_string(&roll).unwrap();
    assert_eq!(serde_json::from_str::<TableRoll>(&json).unwrap(), roll);
    let seven = json.replace("\"face\":4", "\"face\":7");
    assert!(serde_json::from_str::<TableRoll>(&seven).is_err());
    assert_eq!(
        roll.describe(),
        "Table: Who answers the door? d6 [4]: a ghoul"
    );
    assert!(TableRoll::with_face(table, 0).is_err());
}

#[test]
fn the_server_rolls_the_die_and_the_face_picks_the_outcome() {
    let table = door(vec![row(1, 3, "nobody"), row(4, 6, "a ghoul")]).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut seen = [false; 6];
    for _ in 0..200 {
        let roll = TableRoll::roll(table.clone(), &mut rng);
        seen[usize::from(roll.face()) - 1] = true;
        let expected = if roll.face() <= 3 {
            "nobody"
        } else {
            "a ghoul"
        };
        assert_eq!(roll.outcome().outcome.as_ref(), expected);
    }
    assert!(
        seen.iter().all(|seen| *seen),
        "every face comes up: {seen:?}"
    );
}

/// How many of `rows` cover each face of `die` (the slow count validation must agree with).
fn coverage(die: TableDie, rows: &[(u8, u8)]) -> Vec<usize> {
    (1..=die.sides())
        .map(|face| {
            rows.iter()
                .filter(|(from, to)| (*from..=*to).contains(&face))
                .count()
        })
        .collect()
}

fn any_die() -> impl Strategy<Value = TableDie> {
    prop_oneof![
        Just(TableDie::D6),
        Just(TableDie::D20),
        Just(TableDie::D100)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7AB1E),
        ..ProptestConfig::default()
    })]

    /// Any ranges at all: the rules accept them exactly when every face is covered once.
    #[test]
    fn a_table_is_accepted_exactly_when_it_covers_every_face_once(
        die in any_die(),
        rows in proptest::collection::vec((0u8..=101, 0u8..=101), 2..=MAX_OUTCOMES),
    ) {
        let outcomes = rows.iter().map(|(from, to)| row(*from, *to, "x")).collect();
        let accepted = OutcomeTable::new(name(), die, outcomes);
        let well_formed = rows.iter().all(|(from, to)| 1 <= *from && from <= to && *to <= die.sides());
        let once = well_formed && coverage(die, &rows).iter().all(|count| *count == 1);
        prop_assert_eq!(accepted.is_ok(), once, "{:?}", accepted);
    }

    /// A die cut into ranges at random points: always accepted, and every face brings
    /// exactly the outcome whose range holds it.
    #[test]
    fn a_die_cut_into_ranges_is_accepted_and_every_face_has_one_outcome(
        die in any_die(),
        cuts in proptest::collection::btree_set(1u8..100, 1..MAX_OUTCOMES),
    ) {
        let mut bounds: Vec<u8> = cuts.into_iter().filter(|cut| *cut < die.sides()).collect();
        prop_assume!(!bounds.is_empty());
        bounds.push(die.sides());
        let mut from = 1;
        let mut rows = Vec::new();
        for to in bounds {
            rows.push((from, to));
            from = to + 1;
        }
        let outcomes = rows.iter().rev().map(|(from, to)| row(*from, *to, "x")).collect();
        let table = OutcomeTable::new(name(), die, outcomes).unwrap();
        for face in 1..=die.sides() {
            let index = table.index_of(face).unwrap();
            prop_assert_eq!(rows[index].0 <= face && face <= rows[index].1, true);
        }
        let widths: u32 = table.outcomes().iter().map(|o| u32::from(o.width())).sum();
        prop_assert_eq!(widths, u32::from(die.sides()));
    }
}
