//! What an item is to the rules: plain gear, a weapon (damage dice and type, finesse, ranged),
//! armour (its armour-class rule), a shield (+2 AC) or a consumable with an effect (healing dice,
//! a condition it cures).
//!
//! Every kind is bounded when it is made or read: a weapon deals at most
//! [`MAX_WEAPON_DAMAGE`], a potion heals at most [`MAX_HEALING`], armour's base AC is
//! 10..=19, and dice only add (no subtracted terms, no keep rules). An item stored before items
//! had kinds is plain gear: [`ItemKind`] defaults to [`ItemKind::Gear`], which is never written.
//!
//! Serialised internally tagged: `{"type":"weapon","damage":"1d8","damageType":"slashing"}`,
//! `{"type":"armor","category":"medium","base":14}`, `{"type":"shield"}`,
//! `{"type":"consumable","heal":"2d4+2"}`, `{"type":"consumable","cure":"Poisoned"}`.

use serde::{Deserialize, Serialize};

pub use super::bestiary::DamageType;
use super::dice::DiceExpr;
use super::text::ConditionName;

/// The most damage a weapon's dice may deal (2d12).
pub const MAX_WEAPON_DAMAGE: i32 = 24;
/// The most a consumable's dice may heal (10d4+20, the SRD's supreme healing).
pub const MAX_HEALING: i32 = 60;
/// What a shield adds to armour class.
pub const SHIELD_BONUS: u8 = 2;
/// The lowest base armour class of armour.
pub const MIN_ARMOR_BASE: u8 = 10;
/// The highest base armour class of armour (plate, +1).
pub const MAX_ARMOR_BASE: u8 = 19;
/// The most a medium armour lets the DEX modifier add.
pub const MEDIUM_ARMOR_DEX_CAP: i8 = 2;

/// Why an item's kind is out of bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ItemKindError {
    /// Dice that subtract, keep some dice, can roll below 1 or above the kind's most.
    #[error("{what} dice must only add dice and bonuses and roll 1 to {max} (got \"{dice}\")")]
    Dice {
        /// Weapon damage or healing.
        what: &'static str,
        /// The most allowed.
        max: i32,
        /// The dice, in canonical notation.
        dice: String,
    },
    /// Armour whose base AC is outside 10..=19.
    #[error("armour's base AC must be {MIN_ARMOR_BASE}..={MAX_ARMOR_BASE} (got {base})")]
    ArmorBase {
        /// The rejected base.
        base: i64,
    },
}

/// Checks that `dice` only add and total 1..=`max`.
fn bounded_dice(dice: DiceExpr, what: &'static str, max: i32) -> Result<DiceExpr, ItemKindError> {
    let adds = dice
        .terms()
        .iter()
        .all(|term| !term.is_negative() && term.keep().is_none());
    if adds && dice.modifier() >= 0 && dice.min_total() >= 1 && dice.max_total() <= max {
        Ok(dice)
    } else {
        Err(ItemKindError::Dice {
            what,
            max,
            dice: dice.to_string(),
        })
    }
}

fn is_false(value: &bool) -> bool {
    !value
}

/// What a weapon does: its damage dice and type, and whether it is a finesse weapon (the better
/// of STR and DEX) or a ranged one (DEX).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "WeaponProfileWire", rename_all = "camelCase")]
pub struct WeaponProfile {
    damage: DiceExpr,
    damage_type: DamageType,
    #[serde(skip_serializing_if = "is_false")]
    finesse: bool,
    #[serde(skip_serializing_if = "is_false")]
    ranged: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WeaponProfileWire {
    damage: DiceExpr,
    damage_type: DamageType,
    #[serde(default)]
    finesse: bool,
    #[serde(default)]
    ranged: bool,
}

impl TryFrom<WeaponProfileWire> for WeaponProfile {
    type Error = ItemKindError;

    fn try_from(wire: WeaponProfileWire) -> Result<Self, Self::Error> {
        Self::new(wire.damage, wire.damage_type, wire.finesse, wire.ranged)
    }
}

impl WeaponProfile {
    /// A weapon dealing `damage` of `damage_type`; its dice must only add and deal 1 to
    /// [`MAX_WEAPON_DAMAGE`].
    pub fn new(
        damage: DiceExpr,
        damage_type: DamageType,
        finesse: bool,
        ranged: bool,
    ) -> Result<Self, ItemKindError> {
        Ok(Self {
            damage: bounded_dice(damage, "weapon damage", MAX_WEAPON_DAMAGE)?,
            damage_type,
            finesse,
            ranged,
        })
    }

    /// The damage dice, before the attribute modifier.
    pub fn damage(&self) -> &DiceExpr {
        &self.damage
    }

    /// The damage type.
    pub fn damage_type(&self) -> DamageType {
        self.damage_type
    }

    /// Whether it attacks with the better of STR and DEX.
    pub fn is_finesse(&self) -> bool {
        self.finesse
    }

    /// Whether it attacks at range, with DEX.
    pub fn is_ranged(&self) -> bool {
        self.ranged
    }
}

/// How much of the DEX modifier armour lets through: all (light), up to +2 (medium), none
/// (heavy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArmorCategory {
    /// Base + DEX.
    Light,
    /// Base + DEX, at most +2.
    Medium,
    /// Base alone.
    Heavy,
}

/// Armour's rule for armour class: a base and how much DEX adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ArmorRuleWire")]
pub struct ArmorRule {
    category: ArmorCategory,
    base: u8,
}

#[derive(Deserialize)]
struct ArmorRuleWire {
    category: ArmorCategory,
    base: i64,
}

impl TryFrom<ArmorRuleWire> for ArmorRule {
    type Error = ItemKindError;

    fn try_from(wire: ArmorRuleWire) -> Result<Self, Self::Error> {
        Self::new(wire.category, wire.base)
    }
}

impl ArmorRule {
    /// Armour of `category` with base AC `base`, 10..=19.
    pub fn new(category: ArmorCategory, base: i64) -> Result<Self, ItemKindError> {
        u8::try_from(base)
            .ok()
            .filter(|b| (MIN_ARMOR_BASE..=MAX_ARMOR_BASE).contains(b))
            .map(|base| Self { category, base })
            .ok_or(ItemKindError::ArmorBase { base })
    }

    /// Light, medium or heavy.
    pub fn category(self) -> ArmorCategory {
        self.category
    }

    /// The base armour class.
    pub fn base(self) -> u8 {
        self.base
    }

    /// The armour class it gives a wearer whose DEX modifier is `dex`.
    pub fn armor_class(self, dex: i8) -> i16 {
        let dex = match self.category {
            ArmorCategory::Light => dex,
            ArmorCategory::Medium => dex.min(MEDIUM_ARMOR_DEX_CAP),
            ArmorCategory::Heavy => 0,
        };
        i16::from(self.base) + i16::from(dex)
    }
}

/// What using a consumable does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "EffectWire", rename_all = "lowercase")]
pub enum Effect {
    /// Heals the rolled dice (up to maximum hit points).
    Heal(DiceExpr),
    /// Ends the named condition.
    Cure(ConditionName),
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum EffectWire {
    Heal(DiceExpr),
    Cure(ConditionName),
}

impl TryFrom<EffectWire> for Effect {
    type Error = ItemKindError;

    fn try_from(wire: EffectWire) -> Result<Self, Self::Error> {
        match wire {
            EffectWire::Heal(dice) => Effect::heal(dice),
            EffectWire::Cure(condition) => Ok(Effect::Cure(condition)),
        }
    }
}

impl Effect {
    /// Healing by `dice`, which must only add and heal 1 to [`MAX_HEALING`].
    pub fn heal(dice: DiceExpr) -> Result<Self, ItemKindError> {
        Ok(Effect::Heal(bounded_dice(dice, "healing", MAX_HEALING)?))
    }
}

/// The slot an equipped item takes: one weapon, one armour, one shield at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Slot {
    /// The main weapon.
    Weapon,
    /// Worn armour.
    Armor,
    /// A shield.
    Shield,
}

impl Slot {
    /// The slot's name (`weapon`, `armour`, `shield`).
    pub fn name(self) -> &'static str {
        match self {
            Slot::Weapon => "weapon",
            Slot::Armor => "armour",
            Slot::Shield => "shield",
        }
    }
}

/// What an item is to the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ItemKind {
    /// Anything the rules give no numbers to (rope, a key, a lute).
    #[default]
    Gear,
    /// A weapon.
    Weapon(WeaponProfile),
    /// Armour.
    Armor(ArmorRule),
    /// A shield: +2 AC.
    Shield,
    /// Used up for its effect.
    Consumable(Effect),
}

impl ItemKind {
    /// Whether it is plain gear (the kind of every item stored before items had kinds).
    pub fn is_gear(&self) -> bool {
        matches!(self, ItemKind::Gear)
    }

    /// The slot it takes when equipped, or `None` if it cannot be equipped.
    pub fn slot(&self) -> Option<Slot> {
        match self {
            ItemKind::Weapon(_) => Some(Slot::Weapon),
            ItemKind::Armor(_) => Some(Slot::Armor),
            ItemKind::Shield => Some(Slot::Shield),
            ItemKind::Gear | ItemKind::Consumable(_) => None,
        }
    }

    /// Its effect, if it is a consumable.
    pub fn effect(&self) -> Option<&Effect> {
        match self {
            ItemKind::Consumable(effect) => Some(effect),
            _ => None,
        }
    }

    /// What the rules make of it, for the player and the model: `1d8 slashing, finesse`,
    /// `AC 14 + DEX (max 2)`, `+2 AC`, `heals 2d4+2`, `cures Poisoned`; empty for gear.
    pub fn summary(&self) -> String {
        match self {
            ItemKind::Gear => String::new(),
            ItemKind::Weapon(weapon) => {
                let mut out = format!("{} {}", weapon.damage, weapon.damage_type);
                if weapon.finesse {
                    out.push_str(", finesse");
                }
                if weapon.ranged {
                    out.push_str(", ranged");
                }
                out
            }
            ItemKind::Armor(armor) => match armor.category {
                ArmorCategory::Light => format!("AC {} + DEX", armor.base),
                ArmorCategory::Medium => {
                    format!("AC {} + DEX (max {MEDIUM_ARMOR_DEX_CAP})", armor.base)
                }
                ArmorCategory::Heavy => format!("AC {}", armor.base),
            },
            ItemKind::Shield => format!("+{SHIELD_BONUS} AC"),
            ItemKind::Consumable(Effect::Heal(dice)) => format!("heals {dice}"),
            ItemKind::Consumable(Effect::Cure(condition)) => format!("cures {condition}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dice(notation: &str) -> DiceExpr {
        DiceExpr::parse(notation).unwrap()
    }

    #[test]
    fn weapon_dice_are_bounded() {
        assert!(WeaponProfile::new(dice("2d12"), DamageType::Slashing, false, false).is_ok());
        for bad in ["3d12", "1d8-1", "2d20kh1", "1d6-1d4", "1d4+30"] {
            let err =
                WeaponProfile::new(dice(bad), DamageType::Piercing, false, false).unwrap_err();
            assert!(
                err.to_string().starts_with("weapon damage dice"),
                "{bad}: {err}"
            );
        }
        assert!(Effect::heal(dice("10d4+20")).is_ok());
        assert_eq!(
            Effect::heal(dice("20d4")).unwrap_err().to_string(),
            "healing dice must only add dice and bonuses and roll 1 to 60 (got \"20d4\")"
        );
    }

    #[test]
    fn armor_rules_use_dex_as_their_category_says() {
        let light = ArmorRule::new(ArmorCategory::Light, 11).unwrap();
        let medium = ArmorRule::new(ArmorCategory::Medium, 14).unwrap();
        let heavy = ArmorRule::new(ArmorCategory::Heavy, 16).unwrap();
        assert_eq!([-5, 0, 10].map(|dex| light.armor_class(dex)), [6, 11, 21]);
        assert_eq!(
            [-5, 1, 2, 10].map(|dex| medium.armor_class(dex)),
            [9, 15, 16, 16]
        );
        assert_eq!([-5, 10].map(|dex| heavy.armor_class(dex)), [16, 16]);
        assert_eq!(
            ArmorRule::new(ArmorCategory::Heavy, 25)
                .unwrap_err()
                .to_string(),
            "armour's base AC must be 10..=19 (got 25)"
        );
    }

    #[test]
    fn kinds_serialise_tagged_and_read_back_within_bounds() {
        let sword = ItemKind::Weapon(
            WeaponProfile::new(dice("1d6"), DamageType::Piercing, true, false).unwrap(),
        );
        let potion = ItemKind::Consumable(Effect::heal(dice("2d4+2")).unwrap());
        let antitoxin = ItemKind::Consumable(Effect::Cure(ConditionName::new("Poisoned").unwrap()));
        let mail = ItemKind::Armor(ArmorRule::new(ArmorCategory::Medium, 14).unwrap());
        let expected = [
            json!({"type": "weapon", "damage": "1d6", "damageType": "piercing", "finesse": true}),
            json!({"type": "consumable", "heal": "2d4+2"}),
            json!({"type": "consumable", "cure": "Poisoned"}),
            json!({"type": "armor", "category": "medium", "base": 14}),
            json!({"type": "shield"}),
            json!({"type": "gear"}),
        ];
        let kinds = [
            sword,
            potion,
            antitoxin,
            mail,
            ItemKind::Shield,
            ItemKind::Gear,
        ];
        for (kind, json) in kinds.into_iter().zip(expected) {
            assert_eq!(serde_json::to_value(&kind).unwrap(), json);
            assert_eq!(serde_json::from_value::<ItemKind>(json).unwrap(), kind);
        }
        for bad in [
            json!({"type": "weapon", "damage": "9d12", "damageType": "fire"}),
            json!({"type": "armor", "category": "light", "base": 40}),
            json!({"type": "consumable", "heal": "1d4-5"}),
            json!({"type": "wand"}),
        ] {
            assert!(
                serde_json::from_value::<ItemKind>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn summaries_say_what_the_rules_make_of_an_item() {
        let bow = WeaponProfile::new(dice("1d8"), DamageType::Piercing, false, true).unwrap();
        assert_eq!(ItemKind::Weapon(bow).summary(), "1d8 piercing, ranged");
        let mail = ArmorRule::new(ArmorCategory::Medium, 14).unwrap();
        assert_eq!(ItemKind::Armor(mail).summary(), "AC 14 + DEX (max 2)");
        assert_eq!(ItemKind::Shield.summary(), "+2 AC");
        assert_eq!(ItemKind::Gear.summary(), "");
        assert_eq!(ItemKind::Shield.slot(), Some(Slot::Shield));
        assert_eq!(ItemKind::Gear.slot(), None);
    }
}
