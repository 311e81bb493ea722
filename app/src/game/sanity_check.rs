//! Sanity with teeth, for games that track it: when the character meets horror, the rules roll a
//! Wisdom save against a difficulty the horror's severity sets, and on a failure the sanity it
//! costs. At 0 the mind breaks: a lasting [`MADNESS`] (disadvantage on checks) in a heroic game,
//! and in a gritty one the end of the story as well. A long rest gives some back (see
//! [`delta`](super::delta)).
//!
//! | severity | DC | loss on a failure |
//! |---|---|---|
//! | minor (a corpse, a wrong sound) | 10 | 1d6 |
//! | serious (a thing that should not be) | 13 | 2d6 |
//! | dire (the unbearable, seen whole) | 16 | 3d6 |

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::attributes::Attribute;
use super::condition_kind::ConditionKind;
use super::conditions::Condition;
use super::delta::StateDelta;
use super::dice::{Check, DiceExpr, DifficultyClass, Roll};
use super::sheet::CharacterSheet;
use super::stakes::Stakes;
use super::text::{ConditionName, ConditionNotes};

/// The lasting condition of a broken mind.
pub const MADNESS: &str = "Madness";

/// How dreadful a horror is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A corpse, a wrong sound in the dark.
    Minor,
    /// A thing that should not be.
    Serious,
    /// The unbearable, seen whole.
    Dire,
}

impl Severity {
    /// The save's difficulty class.
    pub fn dc(self) -> DifficultyClass {
        let value = match self {
            Severity::Minor => 10,
            Severity::Serious => 13,
            Severity::Dire => 16,
        };
        DifficultyClass::new(value).expect("the table's DCs are valid")
    }

    /// The dice of the sanity a failure costs.
    pub fn loss_dice(self) -> DiceExpr {
        let notation = match self {
            Severity::Minor => "1d6",
            Severity::Serious => "2d6",
            Severity::Dire => "3d6",
        };
        DiceExpr::parse(notation).expect("the table's dice are valid")
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Serious => "serious",
            Severity::Dire => "dire",
        }
    }
}

/// A sanity check as the rules rolled it: the save and, on a failure, the loss.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanityCheck {
    /// How dreadful the horror was.
    pub severity: Severity,
    /// The Wisdom save against the severity's DC.
    pub save: Check,
    /// The sanity lost, rolled on a failure.
    pub loss: Option<Roll>,
}

impl SanityCheck {
    /// Rolls the save of `sheet` against `severity`, then the loss if it fails.
    pub fn roll<R: Rng + ?Sized>(sheet: &CharacterSheet, severity: Severity, rng: &mut R) -> Self {
        let bonus = sheet.save_bonus(Attribute::Wisdom);
        let save = Check::new(DiceExpr::d20().roll_with_bonus(bonus, rng), severity.dc());
        let loss = (!save.is_success()).then(|| severity.loss_dice().roll(rng));
        Self {
            severity,
            save,
            loss,
        }
    }

    /// Whether this is exactly what the rules roll for `sheet` with the faces it shows.
    pub fn is_the_rules(&self, sheet: &CharacterSheet) -> bool {
        let bonus = sheet.save_bonus(Attribute::Wisdom);
        let save = self.save.roll();
        let save_ok = save.attribute() == Some(bonus)
            && DiceExpr::d20().explains(save)
            && self.save == Check::new(save.clone(), self.severity.dc());
        let loss_ok = match &self.loss {
            None => self.save.is_success(),
            Some(loss) => !self.save.is_success() && self.severity.loss_dice().explains(loss),
        };
        save_ok && loss_ok
    }

    /// What it does to `sheet`: the sanity lost and, when that breaks the mind, [`MADNESS`]
    /// (and in a gritty game, the end: hit points to 0).
    pub fn deltas(&self, sheet: &CharacterSheet) -> Vec<StateDelta> {
        let Some(loss) = &self.loss else {
            return Vec::new();
        };
        let lost = loss.total().max(0);
        let mut deltas = vec![StateDelta::ChangeSanity { amount: -lost }];
        let before = sheet.sanity().map_or(0, |s| i32::from(s.value()));
        if before > 0 && before <= lost {
            deltas.push(StateDelta::AddCondition {
                condition: madness(),
            });
            if sheet.stakes() == Stakes::Gritty {
                deltas.push(StateDelta::SetHp { hp: 0 });
            }
        }
        deltas
    }

    /// The line for the story and the model: `Sanity save (serious horror: the thing in the
    /// well): Rolled 1d20+1 ... vs DC 13: failure; 7 sanity lost (2d6: 3, 4)`.
    pub fn describe(&self, reason: &str) -> String {
        let mut line = self.save.describe(&format!(
            "Sanity save ({} horror: {reason})",
            self.severity.name()
        ));
        if let Some(loss) = &self.loss {
            let faces: Vec<String> = loss
                .terms()
                .iter()
                .flat_map(|term| term.dice().iter().map(|die| die.value().to_string()))
                .collect();
            line.push_str(&format!(
                "; {} sanity lost ({}: {})",
                loss.total().max(0),
                loss.notation(),
                faces.join(", ")
            ));
        }
        line
    }
}

/// The condition of a broken mind: lasting, with the rules' effect.
fn madness() -> Condition {
    let mut condition = Condition::named(ConditionName::new(MADNESS).expect("a valid name"));
    condition.notes = Some(
        ConditionNotes::new("The mind broke at 0 sanity; it lasts until it is healed")
            .expect("valid notes"),
    );
    let typed = condition.typed();
    debug_assert_eq!(typed.kind, Some(ConditionKind::Madness));
    typed
}

#[cfg(test)]
mod tests;
