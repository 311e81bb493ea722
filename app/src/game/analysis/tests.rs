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
fn a_check_says_its_chance_and_the_face_it_needed() {
    assert_eq!(
        check_analysis(&check("1d20+4", 12)).unwrap(),
        "Before the roll: 65% to succeed. 1d20+4 vs DC 12 needs 8 or more on the d20."
    );
    assert_eq!(
        check_analysis(&check("2d20kl1+4", 12)).unwrap(),
        "Before the roll: 42% to succeed. 2d20kl1+4 vs DC 12 needs 8 or more on the lower d20."
    );
    // Other dice have a chance and no face to name.
    assert_eq!(
        check_analysis(&check("2d6", 7)).unwrap(),
        "Before the roll: 58% to succeed. 2d6 vs DC 7."
    );
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
