//! A creature's figures: armour class, hit dice, speed, the six ability modifiers, the attacks it
//! makes on its turn, and its challenge rating.
//!
//! Every figure is bounded and checked when a creature is made or read back ([`CreatureError`]),
//! so a stored encounter cannot smuggle in a foe the rules would not build.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::challenge::ChallengeRating;
use super::damage::{self, check_damage_dice, Damage, DamageError};
use crate::game::attributes::Attribute;
use crate::game::dice::DiceExpr;
use crate::game::text::{BoundedText, TextError, TextKind};

/// The rules of [`CreatureName`]: a creature's name, at most 48 characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CreatureNameKind {}

impl TextKind for CreatureNameKind {
    const LABEL: &'static str = "creature name";
    const MAX_CHARS: usize = 48;
}

/// A creature's name (`Goblin`, `Young Green Dragon`).
pub type CreatureName = BoundedText<CreatureNameKind>;

/// The rules of [`AttackName`]: an attack's or weapon's name, at most 40 characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackNameKind {}

impl TextKind for AttackNameKind {
    const LABEL: &'static str = "attack name";
    const MAX_CHARS: usize = 40;
}

/// An attack's or weapon's name (`scimitar`, `bite`, `Longsword`).
pub type AttackName = BoundedText<AttackNameKind>;

/// Why a creature's figures were rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreatureError {
    /// A name or attack name that is empty or too long.
    #[error(transparent)]
    Text(#[from] TextError),
    /// Damage dice that cannot be damage.
    #[error(transparent)]
    Damage(#[from] DamageError),
    /// A number outside its bounds.
    #[error("{what} must be {min}..={max} (got {got})")]
    OutOfRange {
        /// Which figure.
        what: &'static str,
        /// The lowest allowed.
        min: i64,
        /// The highest allowed.
        max: i64,
        /// The rejected value.
        got: i64,
    },
    /// Hit dice that keep, drop or subtract dice.
    #[error("hit dice \"{dice}\" must add plain dice")]
    HitDice {
        /// The notation.
        dice: String,
    },
    /// The hit points written beside the hit dice are not their average.
    #[error("{name}: {hp} HP is not the average of {dice} ({average})")]
    HitPointsMismatch {
        /// The creature.
        name: String,
        /// The hit points written.
        hp: i64,
        /// The hit dice.
        dice: String,
        /// Their average.
        average: i32,
    },
}

/// Checks that `value` lies within `min..=max`.
fn bounded(what: &'static str, value: i64, min: i64, max: i64) -> Result<(), CreatureError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(CreatureError::OutOfRange {
            what,
            min,
            max,
            got: value,
        })
    }
}

/// An armour class, 1..=30: the number an attack roll must meet or beat to hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct ArmorClass(u8);

impl ArmorClass {
    /// The lowest armour class.
    pub const MIN: u8 = 1;
    /// The highest armour class.
    pub const MAX: u8 = 30;

    /// The armour class `value`, or an error outside 1..=30.
    pub fn new(value: i64) -> Result<Self, CreatureError> {
        bounded("armour class", value, Self::MIN.into(), Self::MAX.into())?;
        // Within 1..=30: fits u8.
        Ok(Self(value as u8))
    }

    /// The armour class as a number.
    pub fn value(self) -> u8 {
        self.0
    }
}

impl TryFrom<i64> for ArmorClass {
    type Error = CreatureError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<ArmorClass> for u8 {
    fn from(ac: ArmorClass) -> u8 {
        ac.0
    }
}

impl fmt::Display for ArmorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AC {}", self.0)
    }
}

/// A creature's six ability modifiers, −5..=+10 each. Serialised as an array in sheet order:
/// `[STR, DEX, CON, INT, WIS, CHA]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "[i8; 6]", into = "[i8; 6]")]
pub struct AbilityModifiers([i8; 6]);

impl AbilityModifiers {
    /// The modifiers in sheet order (STR, DEX, CON, INT, WIS, CHA), each within −5..=+10.
    pub fn new(modifiers: [i8; 6]) -> Result<Self, CreatureError> {
        for m in modifiers {
            bounded("ability modifier", m.into(), -5, 10)?;
        }
        Ok(Self(modifiers))
    }

    /// The modifier of `attribute`.
    pub fn get(&self, attribute: Attribute) -> i8 {
        let index = Attribute::ALL
            .iter()
            .position(|a| *a == attribute)
            .unwrap_or(0);
        self.0[index]
    }
}

impl TryFrom<[i8; 6]> for AbilityModifiers {
    type Error = CreatureError;

    fn try_from(modifiers: [i8; 6]) -> Result<Self, Self::Error> {
        Self::new(modifiers)
    }
}

impl From<AbilityModifiers> for [i8; 6] {
    fn from(modifiers: AbilityModifiers) -> [i8; 6] {
        modifiers.0
    }
}

/// One attack a creature makes: its name, attack bonus, damage and any damage riding on it
/// (a hell hound's bite: `1d8+3 piercing` plus `2d6 fire`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "AttackData", into = "AttackData")]
pub struct Attack {
    name: AttackName,
    to_hit: i8,
    damage: Damage,
    extra: Option<Damage>,
}

/// An attack as written in the bestiary and the snapshot.
#[derive(Serialize, Deserialize)]
struct AttackData {
    name: AttackName,
    to_hit: i8,
    damage: Damage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    extra: Option<Damage>,
}

impl Attack {
    /// The lowest attack bonus.
    pub const MIN_TO_HIT: i8 = -5;
    /// The highest attack bonus.
    pub const MAX_TO_HIT: i8 = 20;

    /// An attack with bonus `to_hit` (−5..=+20) dealing `damage`, plus `extra` if given.
    pub fn new(
        name: AttackName,
        to_hit: i8,
        damage: Damage,
        extra: Option<Damage>,
    ) -> Result<Self, CreatureError> {
        bounded(
            "attack bonus",
            to_hit.into(),
            Self::MIN_TO_HIT.into(),
            Self::MAX_TO_HIT.into(),
        )?;
        Ok(Self {
            name,
            to_hit,
            damage,
            extra,
        })
    }

    /// The attack's name (`scimitar`).
    pub fn name(&self) -> &AttackName {
        &self.name
    }

    /// The bonus added to the d20.
    pub fn to_hit(&self) -> i8 {
        self.to_hit
    }

    /// The damage on a hit.
    pub fn damage(&self) -> &Damage {
        &self.damage
    }

    /// Damage of another type dealt with it, if any.
    pub fn extra(&self) -> Option<&Damage> {
        self.extra.as_ref()
    }
}

impl TryFrom<AttackData> for Attack {
    type Error = CreatureError;

    fn try_from(data: AttackData) -> Result<Self, Self::Error> {
        Self::new(data.name, data.to_hit, data.damage, data.extra)
    }
}

impl From<Attack> for AttackData {
    fn from(attack: Attack) -> Self {
        Self {
            name: attack.name,
            to_hit: attack.to_hit,
            damage: attack.damage,
            extra: attack.extra,
        }
    }
}

/// A kind of creature and its figures. Its hit points are the average of its hit dice, as the
/// SRD prints them; its experience follows from its challenge rating.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "CreatureData", into = "CreatureData")]
pub struct Creature {
    name: CreatureName,
    armor_class: ArmorClass,
    hit_dice: DiceExpr,
    speed_ft: u16,
    abilities: AbilityModifiers,
    attacks: Vec<Attack>,
    challenge: ChallengeRating,
}

/// A creature as written in the bestiary and the snapshot. `hp`, when given, must be the
/// average of `hit_dice` (a check on the data); `xp` is written out for readers and ignored.
#[derive(Serialize, Deserialize)]
struct CreatureData {
    name: CreatureName,
    ac: ArmorClass,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hp: Option<i64>,
    hit_dice: DiceExpr,
    speed: u16,
    mods: AbilityModifiers,
    cr: ChallengeRating,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    xp: Option<u32>,
    attacks: Vec<Attack>,
}

/// The figures of a [`Creature`] before they are checked.
#[derive(Clone, Debug)]
pub struct CreatureFigures {
    /// Its name.
    pub name: CreatureName,
    /// Its armour class.
    pub armor_class: ArmorClass,
    /// Its hit dice (a plain sum; the average is its hit points, 1..=999).
    pub hit_dice: DiceExpr,
    /// Its fastest speed in feet, 0..=300.
    pub speed_ft: u16,
    /// Its ability modifiers.
    pub abilities: AbilityModifiers,
    /// The attacks it makes on each of its turns, 1..=4.
    pub attacks: Vec<Attack>,
    /// Its challenge rating.
    pub challenge: ChallengeRating,
}

impl Creature {
    /// The most hit points a creature may have.
    pub const MAX_HP: u16 = 999;
    /// The most attacks a creature makes on one turn.
    pub const MAX_ATTACKS: usize = 4;
    /// The fastest speed, in feet.
    pub const MAX_SPEED_FT: u16 = 300;

    /// A creature with `figures`, each checked against its bounds.
    pub fn new(figures: CreatureFigures) -> Result<Self, CreatureError> {
        let dice = &figures.hit_dice;
        if dice
            .terms()
            .iter()
            .any(|t| t.keep().is_some() || t.is_negative())
        {
            return Err(CreatureError::HitDice {
                dice: dice.to_string(),
            });
        }
        bounded(
            "hit points",
            damage::average(dice).into(),
            1,
            Self::MAX_HP.into(),
        )?;
        bounded(
            "speed",
            figures.speed_ft.into(),
            0,
            Self::MAX_SPEED_FT.into(),
        )?;
        // Usize counts are tiny: fit i64.
        bounded(
            "number of attacks",
            figures.attacks.len() as i64,
            1,
            Self::MAX_ATTACKS as i64,
        )?;
        for attack in &figures.attacks {
            check_damage_dice(attack.damage().dice())?;
        }
        Ok(Self {
            name: figures.name,
            armor_class: figures.armor_class,
            hit_dice: figures.hit_dice,
            speed_ft: figures.speed_ft,
            abilities: figures.abilities,
            attacks: figures.attacks,
            challenge: figures.challenge,
        })
    }

    /// Its name.
    pub fn name(&self) -> &CreatureName {
        &self.name
    }

    /// Its armour class.
    pub fn armor_class(&self) -> ArmorClass {
        self.armor_class
    }

    /// Its hit dice.
    pub fn hit_dice(&self) -> &DiceExpr {
        &self.hit_dice
    }

    /// Its hit points: the average of its hit dice, 1..=999.
    pub fn hit_points(&self) -> u16 {
        // Checked to be 1..=999 when made.
        u16::try_from(damage::average(&self.hit_dice)).unwrap_or(1)
    }

    /// Its fastest speed, in feet.
    pub fn speed_ft(&self) -> u16 {
        self.speed_ft
    }

    /// Its ability modifiers.
    pub fn abilities(&self) -> AbilityModifiers {
        self.abilities
    }

    /// The attacks it makes on each of its turns, in order (a troll: bite, claw, claw).
    pub fn attacks(&self) -> &[Attack] {
        &self.attacks
    }

    /// Its challenge rating.
    pub fn challenge(&self) -> ChallengeRating {
        self.challenge
    }

    /// The experience it is worth when defeated, from its rating.
    pub fn xp(&self) -> u32 {
        self.challenge.xp()
    }

    /// One line of its figures for the model:
    /// `Goblin (CR 1/4, 50 XP): AC 15, 7 HP, speed 30 ft; scimitar +4 (1d6+2 slashing)`.
    pub fn summary(&self) -> String {
        let attacks: Vec<String> = self
            .attacks
            .iter()
            .map(|a| {
                let extra = a.extra().map(|e| format!(" + {e}")).unwrap_or_default();
                format!("{} {:+} ({}{extra})", a.name(), a.to_hit(), a.damage())
            })
            .collect();
        format!(
            "{} (CR {}, {} XP): {}, {} HP, speed {} ft; {}",
            self.name,
            self.challenge,
            self.xp(),
            self.armor_class,
            self.hit_points(),
            self.speed_ft,
            attacks.join(", ")
        )
    }
}

impl TryFrom<CreatureData> for Creature {
    type Error = CreatureError;

    fn try_from(data: CreatureData) -> Result<Self, Self::Error> {
        let creature = Self::new(CreatureFigures {
            name: data.name,
            armor_class: data.ac,
            hit_dice: data.hit_dice,
            speed_ft: data.speed,
            abilities: data.mods,
            attacks: data.attacks,
            challenge: data.cr,
        })?;
        match data.hp {
            Some(hp) if hp != i64::from(creature.hit_points()) => {
                Err(CreatureError::HitPointsMismatch {
                    name: creature.name.to_string(),
                    hp,
                    dice: creature.hit_dice.to_string(),
                    average: damage::average(&creature.hit_dice),
                })
            }
            _ => Ok(creature),
        }
    }
}

impl From<Creature> for CreatureData {
    fn from(creature: Creature) -> Self {
        Self {
            hp: Some(creature.hit_points().into()),
            xp: Some(creature.xp()),
            name: creature.name,
            ac: creature.armor_class,
            hit_dice: creature.hit_dice,
            speed: creature.speed_ft,
            mods: creature.abilities,
            cr: creature.challenge,
            attacks: creature.attacks,
        }
    }
}

#[cfg(test)]
pub(in crate::game) mod tests {
    use super::*;

    /// A goblin built by hand (the bestiary's entry is tested against the data).
    pub(in crate::game) fn goblin() -> Creature {
        serde_json::from_str(
            r#"{"name":"Goblin","ac":15,"hp":7,"hit_dice":"2d6","speed":30,
                "mods":[-1,2,0,0,-1,-1],"cr":"1/4",
                "attacks":[{"name":"scimitar","to_hit":4,"damage":"1d6+2 slashing"}]}"#,
        )
        .unwrap()
    }

    fn with(json_patch: &str) -> Result<Creature, String> {
        let mut value = serde_json::to_value(goblin()).unwrap();
        let patch: serde_json::Value = serde_json::from_str(json_patch).unwrap();
        for (key, v) in patch.as_object().unwrap() {
            value[key] = v.clone();
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    #[test]
    fn figures_and_summary() {
        let goblin = goblin();
        assert_eq!(goblin.armor_class().value(), 15);
        assert_eq!(goblin.hit_points(), 7);
        assert_eq!(goblin.xp(), 50);
        assert_eq!(goblin.abilities().get(Attribute::Dexterity), 2);
        assert_eq!(goblin.abilities().get(Attribute::Strength), -1);
        assert_eq!(
            goblin.summary(),
            "Goblin (CR 1/4, 50 XP): AC 15, 7 HP, speed 30 ft; scimitar +4 (1d6+2 slashing)"
        );
    }

    #[test]
    fn serde_round_trip_writes_hp_and_xp() {
        let json = serde_json::to_value(goblin()).unwrap();
        assert_eq!(json["hp"], 7);
        assert_eq!(json["xp"], 50);
        assert_eq!(json["cr"], "1/4");
        assert_eq!(json["mods"], serde_json::json!([-1, 2, 0, 0, -1, -1]));
        let back: Creature = serde_json::from_value(json).unwrap();
        assert_eq!(back, goblin());
    }

    #[test]
    fn every_figure_is_bounded() {
        assert!(with(r#"{"ac":0}"#)
            .unwrap_err()
            .contains("armour class must be 1..=30"));
        assert!(with(r#"{"ac":31}"#).is_err());
        assert!(with(r#"{"hp":8}"#)
            .unwrap_err()
            .contains("Goblin: 8 HP is not the average of 2d6 (7)"));
        assert!(with(r#"{"hit_dice":"1d4-3","hp":null}"#)
            .unwrap_err()
            .contains("hit points must be 1..=999 (got -1)"));
        assert!(with(r#"{"hit_dice":"2d20kh1","hp":null}"#)
            .unwrap_err()
            .contains("must add plain dice"));
        assert!(with(r#"{"mods":[11,0,0,0,0,0]}"#)
            .unwrap_err()
            .contains("ability modifier must be -5..=10 (got 11)"));
        assert!(with(r#"{"speed":301}"#).unwrap_err().contains("speed"));
        assert!(with(r#"{"attacks":[]}"#)
            .unwrap_err()
            .contains("number of attacks must be 1..=4 (got 0)"));
        assert!(with(r#"{"cr":"1/3"}"#).is_err());
        assert!(with(r#"{"name":" "}"#)
            .unwrap_err()
            .contains("creature name is empty"));
        let attack = |to_hit: i64| {
            format!(
                r#"{{"attacks":[{{"name":"bite","to_hit":{to_hit},"damage":"1d4 piercing"}}]}}"#
            )
        };
        assert!(with(&attack(21))
            .unwrap_err()
            .contains("attack bonus must be -5..=20 (got 21)"));
        assert!(with(&attack(20)).is_ok());
    }

    #[test]
    fn hit_points_may_be_left_out() {
        let creature = with(r#"{"hp":null,"hit_dice":"7d10+21"}"#).unwrap();
        assert_eq!(creature.hit_points(), 59);
    }
}
