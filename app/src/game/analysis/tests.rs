use rand::{rngs::StdRng, SeedableRng};

use super::*;
use crate::game::dice::DifficultyClass;
use crate::game::oracle::{answer, Answer, Likelihood, Percentile};

fn check(notation: &str, dc: i64) -> Check {
    let roll = DiceExpr::parse(notation)
        .unwrap()
        .roll(&mut StdRng::seed_from_u64(5));
    Check::new(roll, DifficultyClass::new(dc).unwrap())
}

#[test]
fn a_check_says_why_its_difficulty_the_edge_its_chance_and_the_face_it_needed() {
    use crate::game::attributes::{Attribute, AttributeBonus};
    let stealth = AttributeBonus {
        attribute: Attribute::Dexterity,
        modifier: 2,
        proficiency: 2,
    };
    let roll = DiceExpr::parse("1d20")
        .unwrap()
        .roll_with_bonus(stealth, &mut StdRng::seed_from_u64(5));
    let proficient = Check::new(roll, DifficultyClass::new(12).unwrap());
    assert_eq!(
        check_analysis(&proficient, "Stealth").unwrap(),
        "DC 12 for Stealth: between easy (10) and medium (15). Your edge: DEX +2, proficiency +2. \
         Before the roll: 65% to succeed. 1d20+4 vs DC 12 needs 8 or more on the d20."
    );
    assert_eq!(
        check_analysis(&check("2d20kl1+4", 15), "Climb").unwrap(),
        "DC 15 for Climb: medium (15). Your edge: +4, with disadvantage. Before the roll: 25% to \
         succeed. 2d20kl1+4 vs DC 15 needs 11 or more on the lower d20."
    );
    // Other dice have a chance and no face to name.
    assert_eq!(
        check_analysis(&check("2d6", 3), "Luck").unwrap(),
        "DC 3 for Luck: under very easy (5). Your edge: no modifier. Before the roll: 97% to \
         succeed. 2d6 vs DC 3."
    );
    assert!(check_analysis(&check("1d20", 30), "Leap")
        .unwrap()
        .starts_with("DC 30 for Leap: nearly impossible (30)."));
    assert!(check_analysis(&check("1d20", 22), "Leap")
        .unwrap()
        .starts_with("DC 22 for Leap: between hard (20) and very hard (25)."));
}

#[test]
fn the_oracles_bands_are_the_ones_its_answer_reads() {
    let reading = |likelihood| OracleReading {
        question: "Is the door locked?".to_owned(),
        likelihood,
        roll: Percentile::try_from(1).unwrap(),
        answer: Answer::YesAnd,
    };
    assert_eq!(
        oracle_analysis(&reading(Likelihood::Likely)),
        "Before the roll: likely, so a yes on 1 to 75 of the d100 (75%): \"yes, and\" on 1 to 15, \
         \"no, but\" on 76 to 80."
    );
    // Each band the analysis names is where the rules' answer falls, for every likelihood.
    for likelihood in Likelihood::ALL {
        let threshold = likelihood.threshold();
        let (yes_and, no_but) = (threshold / 5, threshold + (100 - threshold) / 5);
        for face in 1..=100 {
            let expected = match face {
                f if f <= yes_and => Answer::YesAnd,
                f if f <= threshold => Answer::Yes,
                f if f <= no_but => Answer::NoBut,
                _ => Answer::No,
            };
            let roll = Percentile::try_from(face).unwrap();
            assert_eq!(answer(likelihood, roll), expected, "{likelihood:?} {face}");
        }
    }
}

#[test]
fn a_table_says_each_outcome_s_share_of_the_die() {
    use crate::game::outcome_table::{Outcome, OutcomeTable, TableDie};
    let row = |from, to, outcome: &str| Outcome {
        from,
        to,
        outcome: outcome.parse().unwrap(),
    };
    let table = OutcomeTable::new(
        "Who answers?".parse().unwrap(),
        TableDie::D6,
        vec![
            row(1, 3, "nobody"),
            row(4, 5, "a ghoul"),
            row(6, 6, "the priest"),
        ],
    )
    .unwrap();
    assert_eq!(
        table_analysis(&table),
        "Before the roll, on the d6: nobody 3 in 6 (50%), a ghoul 2 in 6 (33%), the priest 1 in \
         6 (17%)."
    );
}
