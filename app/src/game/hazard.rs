//! Hazards: a trap, a fall, fire, poison — harm that no foe's attack deals. The game master names
//! the hazard and how bad it is; the rules roll its damage from the SRD 5.1's damage severity by
//! level, and the save that halves or avoids it when the scene gives one.
//!
//! | character level | setback | dangerous | deadly |
//! |---|---|---|---|
//! | 1–4 | 1d10 | 2d10 | 4d10 |
//! | 5–10 | 2d10 | 4d10 | 10d10 |
//! | 11–16 | 4d10 | 10d10 | 18d10 |
//! | 17–20 | 10d10 | 18d10 | 24d10 |
//!
//! A save's difficulty comes from the same severity: setback 10, dangerous 13, deadly 17 (the
//! middle of the SRD's bands for traps), and a success halves the damage.

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::attributes::Attribute;
use super::delta::StateDelta;
use super::dice::{Check, DiceExpr, DifficultyClass, Roll};
use super::progression::Level;
use super::sheet::CharacterSheet;

/// How bad a hazard is for a hero of the character's level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HazardSeverity {
    /// Hurts, rarely kills.
    Setback,
    /// Can badly wound.
    Dangerous,
    /// Can kill outright.
    Deadly,
}

impl HazardSeverity {
    /// The damage dice at `level` (the SRD's damage severity by level).
    pub fn damage_dice(self, level: Level) -> DiceExpr {
        let tier = match level.value() {
            0..=4 => 0,
            5..=10 => 1,
            11..=16 => 2,
            _ => 3,
        };
        let counts: [u32; 4] = match self {
            HazardSeverity::Setback => [1, 2, 4, 10],
            HazardSeverity::Dangerous => [2, 4, 10, 18],
            HazardSeverity::Deadly => [4, 10, 18, 24],
        };
        DiceExpr::parse(&format!("{}d10", counts[tier])).expect("the table's dice are valid")
    }

    /// The difficulty class of the save against it.
    pub fn dc(self) -> DifficultyClass {
        let value = match self {
            HazardSeverity::Setback => 10,
            HazardSeverity::Dangerous => 13,
            HazardSeverity::Deadly => 17,
        };
        DifficultyClass::new(value).expect("the table's DCs are valid")
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            HazardSeverity::Setback => "setback",
            HazardSeverity::Dangerous => "dangerous",
            HazardSeverity::Deadly => "deadly",
        }
    }
}

/// A hazard as the rules rolled it: its damage, the save if there was one, and what it dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardRoll {
    /// How bad it was.
    pub severity: HazardSeverity,
    /// The attribute of the save the scene gave, and its roll against the severity's DC.
    pub save: Option<(Attribute, Check)>,
    /// The damage dice as rolled.
    pub damage: Roll,
    /// The damage dealt: the roll's total, halved (rounded down) after a successful save.
    pub dealt: u32,
}

impl HazardRoll {
    /// Rolls `severity`'s damage for `sheet`'s level and, when the scene gives one, the save
    /// with attribute `save`.
    pub fn roll<R: Rng + ?Sized>(
        sheet: &CharacterSheet,
        severity: HazardSeverity,
        save: Option<Attribute>,
        rng: &mut R,
    ) -> Self {
        let save = save.map(|save| {
            let bonus = sheet.save_bonus(save);
            let d20 = DiceExpr::d20().roll_with_bonus(bonus, rng);
            (save, Check::new(d20, severity.dc()))
        });
        let damage = severity.damage_dice(sheet.level()).roll(rng);
        let dealt = dealt(&damage, save.as_ref());
        Self {
            severity,
            save,
            damage,
            dealt,
        }
    }

    /// Whether this is exactly what the rules roll for `sheet` with the faces it shows.
    pub fn is_the_rules(&self, sheet: &CharacterSheet) -> bool {
        let save_ok = self.save.as_ref().is_none_or(|(save, check)| {
            let roll = check.roll();
            roll.attribute() == Some(sheet.save_bonus(*save))
                && DiceExpr::d20().explains(roll)
                && *check == Check::new(roll.clone(), self.severity.dc())
        });
        save_ok
            && self
                .severity
                .damage_dice(sheet.level())
                .explains(&self.damage)
            && self.dealt == dealt(&self.damage, self.save.as_ref())
    }

    /// What it does to the sheet: the damage dealt, if any.
    pub fn deltas(&self) -> Vec<StateDelta> {
        if self.dealt == 0 {
            return Vec::new();
        }
        let amount = -i32::try_from(self.dealt).unwrap_or(i32::MAX);
        vec![StateDelta::ChangeHp { amount }]
    }

    /// The line for the story and the model: `Hazard (dangerous: falling rocks): Rolled 1d20+2
    /// for DEX save … vs DC 13: success; 2d10 [3, 8] = 11, halved: 5 damage`.
    pub fn describe(&self, what: &str) -> String {
        let mut line = format!("Hazard ({}: {what}): ", self.severity.name());
        if let Some((save, check)) = &self.save {
            line.push_str(&check.describe(&format!("{save} save")));
            line.push_str("; ");
        }
        let faces: Vec<String> = self
            .damage
            .terms()
            .iter()
            .flat_map(|term| term.dice().iter().map(|die| die.value().to_string()))
            .collect();
        line.push_str(&format!(
            "{} [{}] = {}",
            self.damage.notation(),
            faces.join(", "),
            self.damage.total()
        ));
        if self
            .save
            .as_ref()
            .is_some_and(|(_, check)| check.is_success())
        {
            line.push_str(", halved");
        }
        line.push_str(&format!(": {} damage", self.dealt));
        line
    }
}

/// The damage a rolled hazard deals after its save.
fn dealt(damage: &Roll, save: Option<&(Attribute, Check)>) -> u32 {
    let total = u32::try_from(damage.total().max(0)).unwrap_or(0);
    if save.is_some_and(|(_, check)| check.is_success()) {
        total / 2
    } else {
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::creation::tests_support::rogue;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn damage_follows_the_severity_table_by_level() {
        let level = |n| Level::new(n).unwrap();
        let dice = |severity: HazardSeverity, n| severity.damage_dice(level(n)).to_string();
        assert_eq!(dice(HazardSeverity::Setback, 1), "1d10");
        assert_eq!(dice(HazardSeverity::Dangerous, 4), "2d10");
        assert_eq!(dice(HazardSeverity::Deadly, 5), "10d10");
        assert_eq!(dice(HazardSeverity::Dangerous, 16), "10d10");
        assert_eq!(dice(HazardSeverity::Deadly, 20), "24d10");
        assert_eq!(HazardSeverity::Deadly.dc().value(), 17);
    }

    #[test]
    fn a_rolled_hazard_is_the_rules_and_a_forged_one_is_not() {
        let sheet = rogue();
        let mut rng = StdRng::seed_from_u64(3);
        for save in [
            None,
            Some(Attribute::Dexterity),
            Some(Attribute::Constitution),
        ] {
            for _ in 0..20 {
                let hazard = HazardRoll::roll(&sheet, HazardSeverity::Dangerous, save, &mut rng);
                assert!(hazard.is_the_rules(&sheet), "{hazard:?}");
                assert_eq!(hazard.damage.notation(), "2d10");
                let expected = match &hazard.save {
                    Some((_, check)) if check.is_success() => hazard.damage.total() / 2,
                    _ => hazard.damage.total(),
                };
                assert_eq!(i64::from(hazard.dealt), i64::from(expected));
                let mut forged = hazard.clone();
                forged.dealt += 20;
                assert!(!forged.is_the_rules(&sheet));
                let mut deadlier = hazard.clone();
                deadlier.severity = HazardSeverity::Deadly;
                assert!(!deadlier.is_the_rules(&sheet));
            }
        }
    }

    #[test]
    fn the_line_gives_the_dice_and_the_damage() {
        let sheet = rogue();
        let mut rng = StdRng::seed_from_u64(9);
        let hazard = HazardRoll::roll(&sheet, HazardSeverity::Setback, None, &mut rng);
        let line = hazard.describe("a spiked pit");
        assert!(
            line.starts_with("Hazard (setback: a spiked pit): 1d10 ["),
            "{line}"
        );
        assert!(
            line.ends_with(&format!(": {} damage", hazard.dealt)),
            "{line}"
        );
        assert_eq!(
            hazard.deltas(),
            vec![StateDelta::ChangeHp {
                amount: -i32::try_from(hazard.dealt).unwrap()
            }]
        );
    }
}
