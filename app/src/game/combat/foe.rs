//! A foe in a fight: a creature with a label of its own (`Goblin 2`), its current hit points
//! within 0..=max, its conditions, whether it fled, and the ally who last hurt it (if the last
//! to hurt it was no ally). A foe at 0 HP is defeated.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::bestiary::Creature;
use crate::game::dice::Edge;
use crate::game::text::{excerpt, BoundedText, TextKind};

/// The rules of [`FoeLabel`]: a creature's name and a number, at most 52 characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoeLabelKind {}

impl TextKind for FoeLabelKind {
    const LABEL: &'static str = "foe label";
    const MAX_CHARS: usize = 52;
}

/// What a foe is called in a fight: its creature's name, numbered when several share it
/// (`Goblin 1`, `Goblin 2`).
pub type FoeLabel = BoundedText<FoeLabelKind>;

/// A condition a foe can be under, and what it does in a fight.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FoeCondition {
    /// Cannot see: attacks against it have advantage, its attacks disadvantage.
    Blinded,
    /// Afraid: its attacks have disadvantage.
    Frightened,
    /// Cannot move or act: attacks against it have advantage; it loses its turns.
    Paralyzed,
    /// Sickened: its attacks have disadvantage.
    Poisoned,
    /// On the ground: attacks against it have advantage; it gets up on its turn.
    Prone,
    /// Held fast: attacks against it have advantage, its attacks disadvantage.
    Restrained,
    /// Dazed: attacks against it have advantage; it loses its turns.
    Stunned,
    /// Asleep or knocked out: attacks against it have advantage; it loses its turns; a blow
    /// wakes it.
    Unconscious,
    /// Shining with a spell's light: attacks against it have advantage.
    Outlined,
}

impl FoeCondition {
    /// All nine.
    pub const ALL: [FoeCondition; 9] = [
        FoeCondition::Blinded,
        FoeCondition::Frightened,
        FoeCondition::Paralyzed,
        FoeCondition::Poisoned,
        FoeCondition::Prone,
        FoeCondition::Restrained,
        FoeCondition::Stunned,
        FoeCondition::Unconscious,
        FoeCondition::Outlined,
    ];

    /// The condition's name in lower case (`prone`).
    pub fn name(self) -> &'static str {
        match self {
            FoeCondition::Blinded => "blinded",
            FoeCondition::Frightened => "frightened",
            FoeCondition::Paralyzed => "paralyzed",
            FoeCondition::Poisoned => "poisoned",
            FoeCondition::Prone => "prone",
            FoeCondition::Restrained => "restrained",
            FoeCondition::Stunned => "stunned",
            FoeCondition::Unconscious => "unconscious",
            FoeCondition::Outlined => "outlined",
        }
    }

    /// Whether attacks against a foe under it have advantage.
    pub fn exposes(self) -> bool {
        matches!(
            self,
            FoeCondition::Blinded
                | FoeCondition::Paralyzed
                | FoeCondition::Prone
                | FoeCondition::Restrained
                | FoeCondition::Stunned
                | FoeCondition::Unconscious
                | FoeCondition::Outlined
        )
    }

    /// Whether a foe under it attacks with disadvantage.
    pub fn hampers(self) -> bool {
        matches!(
            self,
            FoeCondition::Blinded
                | FoeCondition::Frightened
                | FoeCondition::Poisoned
                | FoeCondition::Prone
                | FoeCondition::Restrained
        )
    }

    /// Whether a foe under it loses its turns.
    pub fn incapacitates(self) -> bool {
        matches!(
            self,
            FoeCondition::Paralyzed | FoeCondition::Stunned | FoeCondition::Unconscious
        )
    }
}

impl fmt::Display for FoeCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no foe condition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown foe condition \"{0}\"; expected blinded, frightened, paralyzed, poisoned, prone, \
     restrained, stunned, unconscious or outlined"
)]
pub struct FoeConditionError(String);

impl FromStr for FoeCondition {
    type Err = FoeConditionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim();
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(key))
            .ok_or_else(|| FoeConditionError(excerpt(key)))
    }
}

/// A foe's hit points before and after a blow, and its maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HpChange {
    /// Hit points before.
    pub from: u16,
    /// Hit points after, 0..=from.
    pub to: u16,
    /// The foe's maximum.
    pub max: u16,
}

/// Stored foe data that breaks a foe's bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{label}: {hp} HP is outside 0..={max}")]
pub struct FoeHpError {
    label: String,
    hp: u16,
    max: u16,
}

/// One foe in a fight. Its maximum hit points are its creature's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "FoeData", into = "FoeData")]
pub struct Foe {
    label: FoeLabel,
    creature: Creature,
    hp: u16,
    conditions: BTreeSet<FoeCondition>,
    fled: bool,
    hurt_by: Option<usize>,
}

/// A foe as stored in the snapshot.
#[derive(Serialize, Deserialize)]
struct FoeData {
    label: FoeLabel,
    creature: Creature,
    hp: u16,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    conditions: BTreeSet<FoeCondition>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    fled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hurt_by: Option<usize>,
}

impl Foe {
    /// A fresh foe: `creature` at its full hit points, under no condition.
    pub fn new(label: FoeLabel, creature: Creature) -> Self {
        Self {
            label,
            hp: creature.hit_points(),
            creature,
            conditions: BTreeSet::new(),
            fled: false,
            hurt_by: None,
        }
    }

    /// Its label in this fight.
    pub fn label(&self) -> &FoeLabel {
        &self.label
    }

    /// What it is.
    pub fn creature(&self) -> &Creature {
        &self.creature
    }

    /// The edge its conditions give attacks on it: advantage while one of them exposes it
    /// (prone, restrained, stunned…), else none.
    pub fn edge_against_it(&self) -> Edge {
        if self.conditions().any(FoeCondition::exposes) {
            Edge::Advantage
        } else {
            Edge::Normal
        }
    }

    /// Its current hit points, 0..=[`Foe::max_hit_points`].
    pub fn hit_points(&self) -> u16 {
        self.hp
    }

    /// Its maximum hit points.
    pub fn max_hit_points(&self) -> u16 {
        self.creature.hit_points()
    }

    /// The conditions it is under, in a fixed order.
    pub fn conditions(&self) -> impl Iterator<Item = FoeCondition> + '_ {
        self.conditions.iter().copied()
    }

    /// Whether it is under `condition`.
    pub fn has(&self, condition: FoeCondition) -> bool {
        self.conditions.contains(&condition)
    }

    /// Whether it is at 0 HP.
    pub fn is_defeated(&self) -> bool {
        self.hp == 0
    }

    /// Whether it ran from the fight.
    pub fn has_fled(&self) -> bool {
        self.fled
    }

    /// Whether it is still in the fight: neither defeated nor fled.
    pub fn is_standing(&self) -> bool {
        !self.is_defeated() && !self.fled
    }

    /// The ally (by its place in the encounter) who hurt it last, unless the hero hurt it since.
    pub(super) fn hurt_by(&self) -> Option<usize> {
        self.hurt_by
    }

    /// Takes `amount` damage from the hero (or `ally`, by its place in the encounter); hit points
    /// stop at 0, and a blow wakes a sleeper.
    pub(super) fn take_damage_from(&mut self, amount: u32, ally: Option<usize>) -> HpChange {
        if amount > 0 {
            self.conditions.remove(&FoeCondition::Unconscious);
            self.hurt_by = ally;
        }
        let from = self.hp;
        let loss = u16::try_from(amount).unwrap_or(u16::MAX);
        self.hp = from.saturating_sub(loss);
        HpChange {
            from,
            to: self.hp,
            max: self.max_hit_points(),
        }
    }

    /// Takes `amount` damage from the hero; hit points stop at 0, and a blow wakes a sleeper.
    pub(super) fn take_damage(&mut self, amount: u32) -> HpChange {
        self.take_damage_from(amount, None)
    }

    /// Puts it under `condition`; whether that changed anything.
    pub(super) fn add_condition(&mut self, condition: FoeCondition) -> bool {
        self.conditions.insert(condition)
    }

    /// Lifts `condition`; whether it was under it.
    pub(super) fn remove_condition(&mut self, condition: FoeCondition) -> bool {
        self.conditions.remove(&condition)
    }

    /// Leaves the fight.
    pub(super) fn flee(&mut self) {
        self.fled = true;
    }

    /// `Goblin 2: 3/7 HP, prone`, `Goblin 1: down`, `Wolf: fled`.
    pub fn status(&self) -> String {
        if self.is_defeated() {
            return format!("{}: down", self.label);
        }
        if self.fled {
            return format!("{}: fled", self.label);
        }
        let mut out = format!(
            "{} ({}): {}/{} HP",
            self.label,
            self.creature.armor_class(),
            self.hp,
            self.max_hit_points()
        );
        for condition in &self.conditions {
            out.push_str(", ");
            out.push_str(condition.name());
        }
        out
    }
}

impl TryFrom<FoeData> for Foe {
    type Error = FoeHpError;

    fn try_from(data: FoeData) -> Result<Self, Self::Error> {
        let max = data.creature.hit_points();
        if data.hp > max {
            return Err(FoeHpError {
                label: data.label.to_string(),
                hp: data.hp,
                max,
            });
        }
        Ok(Self {
            label: data.label,
            creature: data.creature,
            hp: data.hp,
            conditions: data.conditions,
            fled: data.fled,
            hurt_by: data.hurt_by,
        })
    }
}

impl From<Foe> for FoeData {
    fn from(foe: Foe) -> Self {
        Self {
            label: foe.label,
            creature: foe.creature,
            hp: foe.hp,
            conditions: foe.conditions,
            fled: foe.fled,
            hurt_by: foe.hurt_by,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bestiary::Bestiary;

    fn goblin() -> Foe {
        let creature = Bestiary::srd().get("Goblin").unwrap().clone();
        Foe::new(FoeLabel::new("Goblin 2").unwrap(), creature)
    }

    #[test]
    fn damage_stops_at_zero_and_defeats() {
        let mut foe = goblin();
        assert_eq!(foe.hit_points(), 7);
        assert_eq!(
            foe.take_damage(5),
            HpChange {
                from: 7,
                to: 2,
                max: 7
            }
        );
        assert!(foe.is_standing());
        assert_eq!(foe.take_damage(0).to, 2);
        assert_eq!(foe.take_damage(u32::MAX).to, 0);
        assert!(foe.is_defeated() && !foe.is_standing());
        assert_eq!(foe.take_damage(3).to, 0);
    }

    #[test]
    fn conditions_form_a_set_and_shape_the_fight() {
        let mut foe = goblin();
        assert!(foe.add_condition(FoeCondition::Prone));
        assert!(!foe.add_condition(FoeCondition::Prone));
        assert!(foe.add_condition(FoeCondition::Blinded));
        let names: Vec<FoeCondition> = foe.conditions().collect();
        assert_eq!(names, [FoeCondition::Blinded, FoeCondition::Prone]);
        assert_eq!(foe.status(), "Goblin 2 (AC 15): 7/7 HP, blinded, prone");
        assert!(foe.remove_condition(FoeCondition::Prone));
        assert!(!foe.remove_condition(FoeCondition::Prone));
        assert!(FoeCondition::Stunned.incapacitates() && FoeCondition::Stunned.exposes());
        assert!(FoeCondition::Poisoned.hampers() && !FoeCondition::Poisoned.exposes());
        assert_eq!(
            "  PRONE ".parse::<FoeCondition>().unwrap(),
            FoeCondition::Prone
        );
        assert!("asleep"
            .parse::<FoeCondition>()
            .unwrap_err()
            .to_string()
            .starts_with("unknown foe condition \"asleep\""));
    }

    #[test]
    fn status_lines() {
        let mut foe = goblin();
        foe.flee();
        assert_eq!(foe.status(), "Goblin 2: fled");
        let mut foe = goblin();
        foe.take_damage(7);
        assert_eq!(foe.status(), "Goblin 2: down");
    }

    #[test]
    fn stored_foes_are_checked() {
        let mut foe = goblin();
        foe.take_damage(4);
        foe.add_condition(FoeCondition::Prone);
        let json = serde_json::to_value(&foe).unwrap();
        assert_eq!(json["hp"], 3);
        assert_eq!(json["conditions"], serde_json::json!(["prone"]));
        assert_eq!(serde_json::from_value::<Foe>(json.clone()).unwrap(), foe);
        let mut bad = json.clone();
        bad["hp"] = 8.into();
        assert!(serde_json::from_value::<Foe>(bad)
            .unwrap_err()
            .to_string()
            .contains("Goblin 2: 8 HP is outside 0..=7"));
        let mut bad = json;
        bad["conditions"] = serde_json::json!(["asleep"]);
        assert!(serde_json::from_value::<Foe>(bad).is_err());
    }
}
