use proptest::prelude::*;

use super::*;

fn dc(value: i64) -> DifficultyClass {
    DifficultyClass::new(value).unwrap()
}

fn chance(notation: &str, bonus: i32, value: i64) -> Chance {
    Chance::to_meet(&DiceExpr::parse(notation).unwrap(), bonus, dc(value)).unwrap()
}

/// Every outcome of every die of `dice`, one by one: the share whose total with `bonus` meets
/// `dc` (the slow, obvious count the arithmetic must agree with).
fn enumerated(dice: &DiceExpr, bonus: i32, dc: DifficultyClass) -> f64 {
    let mut outcomes: Vec<i32> = vec![dice.modifier() + bonus];
    for term in dice.terms() {
        let mut term_totals = Vec::new();
        let mut faces = vec![1_u16; usize::from(term.count())];
        let all = u64::from(term.sides()).pow(u32::from(term.count()));
        for _ in 0..all {
            let mut sorted = faces.clone();
            sorted.sort_unstable();
            let kept = usize::from(term.kept_count());
            let chosen = match term.keep() {
                Some(Keep::Lowest(_)) => &sorted[..kept],
                _ => &sorted[sorted.len() - kept..],
            };
            let sum: i32 = chosen.iter().map(|f| i32::from(*f)).sum();
            term_totals.push(if term.is_negative() { -sum } else { sum });
            advance(&mut faces, term.sides());
        }
        outcomes = outcomes
            .iter()
            .flat_map(|a| term_totals.iter().map(move |b| a + b))
            .collect();
    }
    let met = outcomes
        .iter()
        .filter(|total| **total >= i32::from(dc.value()))
        .count();
    met as f64 / outcomes.len() as f64
}

#[test]
fn a_d20_check_counts_the_faces_that_meet_the_dc() {
    // +4 against DC 12: 8 to 20, 13 faces of 20.
    assert_eq!(chance("1d20", 4, 12).percent(), 65);
    assert_eq!(chance("1d20+4", 0, 12).to_string(), "65%");
    // Needing a 1 or less always succeeds; needing a 21 never does.
    assert_eq!(chance("1d20", 10, 5).probability(), 1.0);
    assert_eq!(chance("1d20", 0, 21).probability(), 0.0);
}

#[test]
fn advantage_and_disadvantage_are_the_better_and_worse_of_two() {
    // A flat 50% becomes 75% and 25%.
    assert_eq!(chance("2d20kh1", 0, 11).percent(), 75);
    assert_eq!(chance("2d20kl1", 0, 11).percent(), 25);
}

#[test]
fn dice_other_than_a_d20_are_counted_by_their_sums() {
    // 2d6 totals 7 or more in 21 of 36 outcomes.
    let two_d6 = chance("2d6", 0, 7).probability();
    assert!((two_d6 - 21.0 / 36.0).abs() < 1e-12, "{two_d6}");
    // 4d6 keeping the highest three totals 18 only on three or four sixes: 21 of 1,296.
    let eighteen = chance("4d6kh3", 0, 18).probability();
    assert!((eighteen - 21.0 / 1296.0).abs() < 1e-12, "{eighteen}");
}

#[test]
fn an_attack_hits_on_a_natural_20_and_misses_on_a_natural_1() {
    // +4 against AC 15: 11 to 20 hit.
    assert_eq!(Chance::to_hit(Edge::Normal, 4, 15).percent(), 50);
    // Against AC 30 only a natural 20 hits; against AC 2 a natural 1 still misses.
    assert_eq!(Chance::to_hit(Edge::Normal, 0, 30).probability(), 0.05);
    assert_eq!(Chance::to_hit(Edge::Normal, 5, 2).probability(), 0.95);
    // Two d20s, the higher kept: 1 - (1/2)^2.
    assert_eq!(Chance::to_hit(Edge::Advantage, 4, 15).percent(), 75);
    assert_eq!(Chance::to_hit(Edge::Disadvantage, 4, 15).percent(), 25);
}

#[test]
fn a_chance_neither_none_nor_certain_never_shows_as_either() {
    // 1 in 8,000: three twenties.
    assert_eq!(chance("3d20", -30, 30).percent(), 1);
    assert_eq!(chance("3d20", 0, 4).percent(), 99);
    assert_eq!(chance("1d20", 0, 30).percent(), 0);
}

#[test]
fn dice_too_many_to_work_out_have_no_chance_rather_than_a_wrong_one() {
    let many = DiceExpr::parse("100d1000").unwrap();
    assert_eq!(Chance::to_meet(&many, 0, dc(30)), None);
    let kept = DiceExpr::parse("10d20kh1").unwrap();
    assert_eq!(Chance::to_meet(&kept, 0, dc(15)), None);
}

/// Small dice expressions: up to three terms of up to three dice of up to 12 sides, some
/// negative, some keeping dice.
fn small_expr() -> impl Strategy<Value = DiceExpr> {
    let term = (
        1_u8..=3,
        prop::sample::select(vec![2_u16, 4, 6, 8, 12]),
        0_u8..=4,
        any::<bool>(),
    )
        .prop_map(|(count, sides, keep, negative)| {
            let keep = match keep {
                1 if count > 1 => format!("kh{}", count - 1),
                2 if count > 1 => "kl1".to_owned(),
                _ => String::new(),
            };
            (format!("{count}d{sides}{keep}"), negative)
        });
    (prop::collection::vec(term, 1..=3), -5_i32..=5).prop_map(|(terms, modifier)| {
        let mut notation = String::new();
        for (i, (term, negative)) in terms.into_iter().enumerate() {
            let sign = if negative {
                "-"
            } else if i > 0 {
                "+"
            } else {
                ""
            };
            notation.push_str(sign);
            notation.push_str(&term);
        }
        notation.push_str(&format!("{modifier:+}"));
        DiceExpr::parse(&notation).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(0x2026), ..ProptestConfig::default() })]

    #[test]
    fn the_chance_is_the_share_of_every_outcome_that_meets_the_dc(
        dice in small_expr(),
        bonus in -3_i32..=6,
        value in 1_i64..=30,
    ) {
        let worked_out = Chance::to_meet(&dice, bonus, dc(value)).unwrap().probability();
        let counted = enumerated(&dice, bonus, dc(value));
        prop_assert!((worked_out - counted).abs() < 1e-9, "{dice}: {worked_out} vs {counted}");
    }
}
