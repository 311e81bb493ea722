//! The hero's weapon as the fight uses it: a name, an attack bonus, damage dice, a bonus to
//! the damage (added once, never doubled) and a damage type, all bounded. The caller builds it
//! from the sheet; the model never writes one.

use serde::{Deserialize, Serialize};

use crate::game::bestiary::{AttackName, CreatureError, Damage, DamageError, DamageType};
use crate::game::dice::DiceExpr;

/// A weapon or attack the hero uses, as the caller works it out from the sheet: its name, the
/// attack bonus, the damage dice, the bonus added to them, and the damage type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "AttackProfileData", into = "AttackProfileData")]
pub struct AttackProfile {
    name: AttackName,
    to_hit_bonus: i8,
    damage: DiceExpr,
    damage_bonus: i8,
    damage_type: DamageType,
}

/// An attack profile as stored.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AttackProfileData {
    name: AttackName,
    to_hit_bonus: i8,
    damage: DiceExpr,
    damage_bonus: i8,
    damage_type: DamageType,
}

impl AttackProfile {
    /// The lowest bonus, to hit or to damage.
    pub const MIN_BONUS: i8 = -10;
    /// The highest bonus, to hit or to damage.
    pub const MAX_BONUS: i8 = 20;

    /// A profile: `to_hit_bonus` and `damage_bonus` within −10..=+20, `damage` plain dice
    /// (no kh/kl, nothing subtracted, at most 50 dice a term).
    pub fn new(
        name: AttackName,
        to_hit_bonus: i8,
        damage: DiceExpr,
        damage_bonus: i8,
        damage_type: DamageType,
    ) -> Result<Self, CreatureError> {
        for (what, value) in [
            ("attack bonus", to_hit_bonus),
            ("damage bonus", damage_bonus),
        ] {
            if !(Self::MIN_BONUS..=Self::MAX_BONUS).contains(&value) {
                return Err(CreatureError::OutOfRange {
                    what,
                    min: Self::MIN_BONUS.into(),
                    max: Self::MAX_BONUS.into(),
                    got: value.into(),
                });
            }
        }
        let profile = Self {
            name,
            to_hit_bonus,
            damage,
            damage_bonus,
            damage_type,
        };
        profile.total_damage()?;
        Ok(profile)
    }

    /// The weapon's name.
    pub fn name(&self) -> &AttackName {
        &self.name
    }

    /// The bonus added to the d20.
    pub fn to_hit_bonus(&self) -> i8 {
        self.to_hit_bonus
    }

    /// The damage dice, without the damage bonus.
    pub fn damage(&self) -> &DiceExpr {
        &self.damage
    }

    /// The bonus added to the damage (not doubled on a critical hit).
    pub fn damage_bonus(&self) -> i8 {
        self.damage_bonus
    }

    /// The damage type.
    pub fn damage_type(&self) -> DamageType {
        self.damage_type
    }

    /// The damage as rolled: the dice with the bonus in their modifier (`1d8` + 3 → `1d8+3`).
    pub fn total_damage(&self) -> Result<Damage, DamageError> {
        let dice = DiceExpr::parse(
            &self
                .damage
                .notation_with_bonus(i32::from(self.damage_bonus)),
        )?;
        Damage::new(dice, self.damage_type)
    }
}

impl TryFrom<AttackProfileData> for AttackProfile {
    type Error = CreatureError;

    fn try_from(data: AttackProfileData) -> Result<Self, Self::Error> {
        Self::new(
            data.name,
            data.to_hit_bonus,
            data.damage,
            data.damage_bonus,
            data.damage_type,
        )
    }
}

impl From<AttackProfile> for AttackProfileData {
    fn from(profile: AttackProfile) -> Self {
        Self {
            name: profile.name,
            to_hit_bonus: profile.to_hit_bonus,
            damage: profile.damage,
            damage_bonus: profile.damage_bonus,
            damage_type: profile.damage_type,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> AttackName {
        AttackName::new(text).unwrap()
    }

    #[test]
    fn profiles_are_bounded_and_add_their_bonus_once() {
        let profile = AttackProfile::new(
            name("Longsword"),
            5,
            "1d8".parse().unwrap(),
            3,
            DamageType::Slashing,
        )
        .unwrap();
        assert_eq!(
            profile.total_damage().unwrap().to_string(),
            "1d8+3 slashing"
        );
        let err = AttackProfile::new(name("x"), 21, "1d8".parse().unwrap(), 0, DamageType::Fire)
            .unwrap_err();
        assert_eq!(err.to_string(), "attack bonus must be -10..=20 (got 21)");
        let err = AttackProfile::new(name("x"), 0, "1d8".parse().unwrap(), -11, DamageType::Fire)
            .unwrap_err();
        assert_eq!(err.to_string(), "damage bonus must be -10..=20 (got -11)");
        assert!(AttackProfile::new(
            name("x"),
            0,
            "2d20kh1".parse().unwrap(),
            0,
            DamageType::Fire
        )
        .is_err());
        // The bonus must still fit the notation's modifier bound.
        let err = AttackProfile::new(
            name("x"),
            0,
            "1d4+995".parse().unwrap(),
            10,
            DamageType::Fire,
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("modifier must be within -1000..=1000"),
            "{err}"
        );
        let json = serde_json::to_value(&profile).unwrap();
        assert_eq!(json["toHitBonus"], 5);
        assert_eq!(json["damageType"], "slashing");
        assert_eq!(
            serde_json::from_value::<AttackProfile>(json).unwrap(),
            profile
        );
    }
}
