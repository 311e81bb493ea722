//! What the rules knew before a roll, for the player to open beside it: the chance of success
//! worked out from the dice and the modifier (never the model's estimate), what the die had to
//! show, and for the oracle the bands of its d100.

use crate::game::combat::AttackResolution;
use crate::game::dice::{Chance, Check, DiceExpr, Keep};
use crate::game::oracle::OracleReading;
use crate::game::outcome_table::OutcomeTable;

/// A check's analysis: why the difficulty (what it is for, where the DC sits on the SRD's scale),
/// the character's edge (the modifier and its parts, advantage or disadvantage), then the chance:
/// `DC 12 for Stealth: between easy (10) and medium (15). Your edge: DEX +2, proficiency +2.
/// Before the roll: 65% to succeed. 1d20+4 vs DC 12 needs 8 or more on the d20.` `None` for
/// dice too many to work out.
pub fn check_analysis(check: &Check, reason: &str) -> Option<String> {
    let dice = DiceExpr::parse(check.roll().notation()).ok()?;
    let chance = Chance::to_meet(&dice, 0, check.dc())?;
    let needs = d20_face_needed(&dice, i32::from(check.dc().value()))
        .map(|face| format!(" needs {face} or more on {}", d20_words(&dice)))
        .unwrap_or_default();
    let edge = match dice.terms().first().and_then(|term| term.keep()) {
        Some(Keep::Highest(_)) => ", with advantage",
        Some(Keep::Lowest(_)) => ", with disadvantage",
        None => "",
    };
    let bonus = match check.roll().attribute() {
        Some(bonus) => bonus.to_string(),
        None if dice.modifier() != 0 => format!("{:+}", dice.modifier()),
        None => "no modifier".to_owned(),
    };
    Some(format!(
        "{} for {reason}: {}. Your edge: {bonus}{edge}. Before the roll: {chance} to succeed. \
         {dice} vs {}{needs}.",
        check.dc(),
        difficulty_words(check.dc().value()),
        check.dc()
    ))
}

/// Where a DC sits on the SRD's scale of typical difficulties: `medium (15)`, `between easy (10)
/// and medium (15)`.
fn difficulty_words(dc: u8) -> String {
    const SCALE: [(u8, &str); 6] = [
        (5, "very easy"),
        (10, "easy"),
        (15, "medium"),
        (20, "hard"),
        (25, "very hard"),
        (30, "nearly impossible"),
    ];
    let above = SCALE.iter().find(|(step, _)| *step >= dc);
    let below = SCALE.iter().rev().find(|(step, _)| *step < dc);
    match (below, above) {
        (_, Some((step, words))) if *step == dc => format!("{words} ({step})"),
        (Some((low, low_words)), Some((high, high_words))) => {
            format!("between {low_words} ({low}) and {high_words} ({high})")
        }
        _ => format!("under very easy ({})", SCALE[0].0),
    }
}

/// An attack's analysis: `Before the roll: 50% to hit. 1d20+4 vs AC 15 needs 11 or more on the
/// d20; a natural 20 always hits, a natural 1 always misses.`
pub fn attack_analysis(attack: &AttackResolution) -> Option<String> {
    let dice = DiceExpr::parse(attack.roll().notation()).ok()?;
    let armor_class = attack.armor_class().value();
    let chance = Chance::to_hit(attack.edge(), dice.modifier(), armor_class);
    let face = d20_face_needed(&dice, i32::from(armor_class))?.clamp(2, 20);
    Some(format!(
        "Before the roll: {chance} to hit. {dice} vs AC {armor_class} needs {face} or more on {}; \
         a natural 20 always hits, a natural 1 always misses.",
        d20_words(&dice)
    ))
}

/// The oracle's analysis: `Before the roll: a yes on 1 to 70 of the d100 (70%): "yes, and" on
/// 1 to 14, "no, but" on 71 to 76.`
pub fn oracle_analysis(reading: &OracleReading) -> String {
    let threshold = reading.likelihood.threshold();
    let yes_and = threshold / 5;
    let no_but = threshold + (100 - threshold) / 5;
    let mut out = format!(
        "Before the roll: {}, so a yes on 1 to {threshold} of the d100 ({threshold}%)",
        reading.likelihood.words()
    );
    if yes_and >= 1 {
        out.push_str(&format!(": \"yes, and\" on 1 to {yes_and}"));
    }
    if no_but > threshold {
        out.push_str(&format!(", \"no, but\" on {} to {no_but}", threshold + 1));
    }
    out.push('.');
    out
}

/// An outcome table's analysis: `Before the roll, on the d6: nobody 3 in 6 (50%), a ghoul 2 in
/// 6 (33%), the priest 1 in 6 (17%).`
pub fn table_analysis(table: &OutcomeTable) -> String {
    let sides = table.die().sides();
    let shares: Vec<String> = table
        .outcomes()
        .iter()
        .map(|outcome| {
            let width = outcome.width();
            let percent = (u32::from(width) * 100 + u32::from(sides) / 2) / u32::from(sides);
            format!("{} {width} in {sides} ({percent}%)", outcome.outcome)
        })
        .collect();
    format!(
        "Before the roll, on the {}: {}.",
        table.die(),
        shares.join(", ")
    )
}

/// The face a lone d20 (two with an edge) must show for `dice` to total `target`, when the
/// dice are a d20 and a modifier.
fn d20_face_needed(dice: &DiceExpr, target: i32) -> Option<i32> {
    let [term] = dice.terms() else {
        return None;
    };
    (term.sides() == 20 && term.kept_count() == 1 && !term.is_negative())
        .then(|| (target - dice.modifier()).clamp(1, 21))
}

/// Which d20 the face is read on: `the d20`, or `the higher d20` with advantage.
fn d20_words(dice: &DiceExpr) -> &'static str {
    match dice.terms().first().and_then(|term| term.keep()) {
        Some(Keep::Highest(_)) => "the higher d20",
        Some(Keep::Lowest(_)) => "the lower d20",
        None => "the d20",
    }
}

#[cfg(test)]
mod tests;
