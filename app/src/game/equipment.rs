//! What the character wears and wields, and the numbers that follow from the sheet alone:
//! armour class and a weapon's attack.
//!
//! - Armour class: 10 + DEX modifier unarmoured, else the worn armour's rule (light: base + DEX,
//!   medium: base + DEX up to +2, heavy: base), +2 with a shield.
//! - A weapon attack: to hit, the attribute modifier plus the proficiency bonus of the level
//!   (every character counts as proficient with every weapon for now); the attribute is STR,
//!   DEX for a ranged weapon, the better of the two for a finesse one. Damage is the weapon's
//!   dice plus the same modifier. With no weapon, an unarmed strike: 1 + STR bludgeoning.
//!
//! Not modelled yet: strength requirements and stealth of heavy armour, two-handed weapons
//! (a longbow and a shield may both be equipped), thrown and versatile weapons.

use rand::Rng;

use super::attributes::{Attribute, AttributeBonus};
use super::bestiary::ArmorClass;
use super::dice::{DiceExpr, Roll};
use super::inventory::Item;
use super::item_kind::{DamageType, ItemKind, Slot, SHIELD_BONUS};
use super::progression::proficiency_bonus;
use super::sheet::CharacterSheet;
use super::text::{ItemName, Slug};

/// What an unarmed strike is called.
pub const UNARMED_STRIKE: &str = "Unarmed strike";

/// The armour class unarmoured, before DEX.
const UNARMORED_BASE: i16 = 10;

/// The items in each slot, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Equipped<'a> {
    /// The main weapon.
    pub weapon: Option<&'a Item>,
    /// Worn armour.
    pub armor: Option<&'a Item>,
    /// The shield.
    pub shield: Option<&'a Item>,
}

/// Why a weapon attack cannot be made with an item.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttackError {
    /// The item is not carried.
    #[error("No item \"{slug}\" in inventory")]
    NotCarried {
        /// The slug asked for.
        slug: Slug,
    },
    /// The item is not a weapon.
    #[error("{name} is not a weapon")]
    NotAWeapon {
        /// The item's name.
        name: ItemName,
    },
}

/// A weapon's attack by this character: to hit, and damage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeaponAttack {
    weapon: Option<(Slug, ItemName)>,
    ability: AttributeBonus,
    proficiency: i8,
    damage: Option<DiceExpr>,
    damage_type: DamageType,
    ranged: bool,
}

/// Damage rolled for a hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamageRoll {
    /// The dice with the attribute modifier, or `None` for an unarmed strike's flat damage.
    pub roll: Option<Roll>,
    /// The damage dealt, never below 0.
    pub amount: u16,
}

impl WeaponAttack {
    /// The weapon's name, or [`UNARMED_STRIKE`].
    pub fn name(&self) -> &str {
        self.weapon
            .as_ref()
            .map_or(UNARMED_STRIKE, |(_, name)| name.as_str())
    }

    /// The weapon's slug, or `None` for an unarmed strike.
    pub fn slug(&self) -> Option<&Slug> {
        self.weapon.as_ref().map(|(slug, _)| slug)
    }

    /// The attribute it attacks with and its modifier.
    pub fn ability(&self) -> AttributeBonus {
        self.ability
    }

    /// The proficiency bonus added to hit.
    pub fn proficiency(&self) -> i8 {
        self.proficiency
    }

    /// What is added to the d20 to hit: the attribute modifier plus proficiency.
    pub fn to_hit(&self) -> i8 {
        self.ability.modifier + self.proficiency
    }

    /// The damage dice before the modifier, or `None` for an unarmed strike (1 damage).
    pub fn damage_dice(&self) -> Option<&DiceExpr> {
        self.damage.as_ref()
    }

    /// What is added to the damage dice (the attribute modifier).
    pub fn damage_bonus(&self) -> i8 {
        self.ability.modifier
    }

    /// The damage type.
    pub fn damage_type(&self) -> DamageType {
        self.damage_type
    }

    /// Whether it attacks at range.
    pub fn is_ranged(&self) -> bool {
        self.ranged
    }

    /// The damage as shown: `1d8+3`, or an unarmed strike's flat amount (`3`).
    pub fn damage_notation(&self) -> String {
        match &self.damage {
            Some(dice) => dice.notation_with_bonus(i32::from(self.damage_bonus())),
            None => self.unarmed_damage().to_string(),
        }
    }

    /// Rolls the damage of a hit with `rng` (the roll records the attribute modifier).
    pub fn roll_damage<R: Rng + ?Sized>(&self, rng: &mut R) -> DamageRoll {
        match &self.damage {
            Some(dice) => {
                let roll = dice.roll_with_bonus(self.ability, rng);
                // Clamped into u16's range, so the cast is lossless.
                let amount = roll.total().clamp(0, i32::from(u16::MAX)) as u16;
                DamageRoll {
                    roll: Some(roll),
                    amount,
                }
            }
            None => DamageRoll {
                roll: None,
                amount: self.unarmed_damage(),
            },
        }
    }

    /// 1 + the modifier, never below 0.
    fn unarmed_damage(&self) -> u16 {
        // At most 1 + 10: the cast is lossless.
        (1 + i16::from(self.damage_bonus())).max(0) as u16
    }
}

impl CharacterSheet {
    /// The equipped weapon, armour and shield.
    pub fn equipped(&self) -> Equipped<'_> {
        Equipped {
            weapon: self.inventory.equipped(Slot::Weapon),
            armor: self.inventory.equipped(Slot::Armor),
            shield: self.inventory.equipped(Slot::Shield),
        }
    }

    /// The armour class: the worn armour's rule (10 + DEX without), +2 with a shield.
    pub fn armor_class(&self) -> ArmorClass {
        let dex = self.attributes.dexterity.modifier();
        let equipped = self.equipped();
        let armor = equipped.armor.map(Item::kind);
        let mut value = match armor {
            Some(ItemKind::Armor(rule)) => rule.armor_class(dex),
            _ => UNARMORED_BASE + i16::from(dex),
        };
        if equipped.shield.is_some() {
            value += i16::from(SHIELD_BONUS);
        }
        // At least 10 − 5 and at most 19 + 10 + 2: within an armour class's bounds.
        ArmorClass::new(i64::from(value.clamp(1, 30))).expect("1..=30 is an armour class")
    }

    /// The attack with the carried weapon `slug`, or with the equipped weapon when `None` (an
    /// unarmed strike when none is equipped).
    pub fn weapon_attack(&self, slug: Option<&Slug>) -> Result<WeaponAttack, AttackError> {
        let item = match slug {
            Some(slug) => Some(
                self.inventory
                    .get(slug)
                    .ok_or_else(|| AttackError::NotCarried { slug: slug.clone() })?,
            ),
            None => self.equipped().weapon,
        };
        let proficiency = proficiency_bonus(self.level);
        let Some(item) = item else {
            return Ok(WeaponAttack {
                weapon: None,
                ability: self.attributes.bonus(Attribute::Strength),
                proficiency,
                damage: None,
                damage_type: DamageType::Bludgeoning,
                ranged: false,
            });
        };
        let ItemKind::Weapon(profile) = item.kind() else {
            return Err(AttackError::NotAWeapon {
                name: item.name().clone(),
            });
        };
        let strength = self.attributes.bonus(Attribute::Strength);
        let dexterity = self.attributes.bonus(Attribute::Dexterity);
        let finesse_dex = profile.is_finesse() && dexterity.modifier > strength.modifier;
        let ability = if profile.is_ranged() || finesse_dex {
            dexterity
        } else {
            strength
        };
        Ok(WeaponAttack {
            weapon: Some((item.slug().clone(), item.name().clone())),
            ability,
            proficiency,
            damage: Some(profile.damage().clone()),
            damage_type: profile.damage_type(),
            ranged: profile.is_ranged(),
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::game::attributes::AttributeScore;
    use crate::game::delta::{DeltaError, StateDelta};
    use crate::game::inventory::{InventoryError, NewItem, Quantity};
    use crate::game::sheet::tests::mira;
    use crate::game::sheet::Level;

    fn slug(raw: &str) -> Slug {
        Slug::new(raw).unwrap()
    }

    /// Mira with STR and DEX set, carrying `items`.
    fn carrying(strength: i64, dexterity: i64, items: &[&str]) -> CharacterSheet {
        let mut sheet = mira();
        sheet.attributes.strength = AttributeScore::new(strength).unwrap();
        sheet.attributes.dexterity = AttributeScore::new(dexterity).unwrap();
        for name in items {
            let item = NewItem::new(ItemName::new(name).unwrap(), None, Quantity::ONE).unwrap();
            StateDelta::AddItem { item }.apply(&mut sheet).unwrap();
        }
        sheet
    }

    fn labels(delta: StateDelta, sheet: &mut CharacterSheet) -> Vec<String> {
        delta.apply(sheet).unwrap().labels()
    }

    fn equip(raw: &str) -> StateDelta {
        StateDelta::Equip { slug: slug(raw) }
    }

    #[test]
    fn armour_class_follows_each_rule_at_the_extremes_of_dex() {
        // Armour, AC at DEX 1 (−5), at DEX 30 (+10).
        let expected = [
            (None, 5, 20),
            (Some("Leather armor"), 6, 21),
            (Some("Studded leather armor"), 7, 22),
            (Some("Chain shirt"), 8, 15),
            (Some("Scale mail"), 9, 16),
            (Some("Chain mail"), 16, 16),
            (Some("Plate armor"), 18, 18),
        ];
        for (armor, clumsy, nimble) in expected {
            for (dexterity, ac) in [(1, clumsy), (30, nimble)] {
                let mut sheet = carrying(10, dexterity, &["Shield"]);
                if let Some(armor) = armor {
                    sheet = carrying(10, dexterity, &[armor, "Shield"]);
                    equip(armor).apply(&mut sheet).unwrap();
                }
                assert_eq!(
                    sheet.armor_class().value(),
                    ac,
                    "{armor:?} at DEX {dexterity}"
                );
                equip("shield").apply(&mut sheet).unwrap();
                assert_eq!(
                    sheet.armor_class().value(),
                    ac + 2,
                    "{armor:?} with a shield"
                );
            }
        }
    }

    #[test]
    fn carried_but_not_worn_armour_gives_nothing() {
        let sheet = carrying(10, 14, &["Chain mail", "Shield"]);
        assert_eq!(sheet.armor_class().value(), 12);
        assert_eq!(sheet.equipped().armor, None);
    }

    #[test]
    fn finesse_takes_the_better_of_str_and_dex_and_ranged_takes_dex() {
        let strong = carrying(16, 12, &["Dagger", "Longbow", "Longsword"]);
        let nimble = carrying(8, 18, &["Dagger", "Longbow", "Longsword"]);
        let attack = |sheet: &CharacterSheet, raw: &str| {
            let attack = sheet.weapon_attack(Some(&slug(raw))).unwrap();
            (
                attack.ability().attribute,
                attack.to_hit(),
                attack.damage_notation(),
            )
        };
        use Attribute::{Dexterity as Dex, Strength as Str};
        assert_eq!(attack(&strong, "dagger"), (Str, 5, "1d4+3".into()));
        assert_eq!(attack(&nimble, "dagger"), (Dex, 6, "1d4+4".into()));
        assert_eq!(attack(&strong, "longbow"), (Dex, 3, "1d8+1".into()));
        assert_eq!(attack(&nimble, "longbow"), (Dex, 6, "1d8+4".into()));
        assert_eq!(attack(&strong, "longsword"), (Str, 5, "1d8+3".into()));
        assert_eq!(attack(&nimble, "longsword"), (Str, 1, "1d8-1".into()));
        let bow = nimble.weapon_attack(Some(&slug("longbow"))).unwrap();
        assert!(bow.is_ranged());
        assert_eq!(bow.damage_type(), DamageType::Piercing);
        assert_eq!(bow.proficiency(), 2);
        let mut veteran = nimble.clone();
        veteran.level = Level::new(5).unwrap();
        let bow = veteran.weapon_attack(Some(&slug("longbow"))).unwrap();
        assert_eq!((bow.proficiency(), bow.to_hit()), (3, 7));
    }

    #[test]
    fn the_equipped_weapon_attacks_else_an_unarmed_strike() {
        let mut sheet = carrying(16, 10, &["Mace", "Rope"]);
        let fist = sheet.weapon_attack(None).unwrap();
        assert_eq!((fist.name(), fist.slug()), (UNARMED_STRIKE, None));
        assert_eq!((fist.to_hit(), fist.damage_notation()), (5, "4".into()));
        assert_eq!(fist.damage_type(), DamageType::Bludgeoning);
        equip("mace").apply(&mut sheet).unwrap();
        let mace = sheet.weapon_attack(None).unwrap();
        assert_eq!(
            (mace.name(), mace.damage_notation()),
            ("Mace", "1d6+3".into())
        );
        assert_eq!(mace.slug(), Some(&slug("mace")));
        let weak = carrying(6, 10, &[]);
        assert_eq!(weak.weapon_attack(None).unwrap().damage_notation(), "0");
        assert_eq!(
            sheet
                .weapon_attack(Some(&slug("rope")))
                .unwrap_err()
                .to_string(),
            "Rope is not a weapon"
        );
        assert_eq!(
            sheet.weapon_attack(Some(&slug("greataxe"))).unwrap_err(),
            AttackError::NotCarried {
                slug: slug("greataxe")
            }
        );
    }

    #[test]
    fn damage_is_rolled_with_the_rng_and_records_the_modifier() {
        let sheet = carrying(16, 10, &["Greataxe"]);
        let axe = sheet.weapon_attack(Some(&slug("greataxe"))).unwrap();
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..200 {
            let damage = axe.roll_damage(&mut rng);
            let roll = damage.roll.expect("dice");
            assert!(axe.damage_dice().unwrap().explains(&roll));
            assert_eq!(roll.notation(), "1d12+3");
            assert!((4..=15).contains(&damage.amount));
            assert_eq!(i32::from(damage.amount), roll.total());
        }
        let fist = carrying(14, 10, &[]).weapon_attack(None).unwrap();
        let damage = fist.roll_damage(&mut rng);
        assert_eq!((damage.roll, damage.amount), (None, 3));
    }

    #[test]
    fn equipping_through_the_rules_reports_chips_and_refuses_what_cannot_be() {
        let mut sheet = carrying(10, 10, &["Longsword", "Dagger", "Chain mail", "Rope"]);
        assert_eq!(
            labels(equip("longsword"), &mut sheet),
            ["Equipped: Longsword"]
        );
        assert_eq!(labels(equip("Longsword"), &mut sheet), Vec::<String>::new());
        assert_eq!(
            labels(equip("dagger"), &mut sheet),
            ["Unequipped: Longsword", "Equipped: Dagger"]
        );
        assert_eq!(
            labels(equip("chain-mail"), &mut sheet),
            ["Equipped: Chain mail"]
        );
        let before = sheet.clone();
        let refused = [
            (
                equip("rope"),
                "Rope is not a weapon, armour or a shield, so it cannot be equipped",
            ),
            (equip("shield"), "No item \"shield\" in inventory"),
            (
                StateDelta::Unequip {
                    slug: slug("longsword"),
                },
                "Longsword is not equipped",
            ),
        ];
        for (delta, message) in refused {
            assert_eq!(delta.apply(&mut sheet).unwrap_err().to_string(), message);
            assert_eq!(sheet, before);
        }
        let put_away = StateDelta::Unequip {
            slug: slug("dagger"),
        };
        assert_eq!(labels(put_away, &mut sheet), ["Unequipped: Dagger"]);
        assert_eq!(sheet.weapon_attack(None).unwrap().name(), UNARMED_STRIKE);
    }

    #[test]
    fn dropped_armour_is_no_longer_worn() {
        let mut sheet = carrying(10, 10, &["Chain mail"]);
        equip("chain-mail").apply(&mut sheet).unwrap();
        assert_eq!(sheet.armor_class().value(), 16);
        let drop = StateDelta::ChangeItemQuantity {
            slug: slug("chain-mail"),
            change: -1,
        };
        assert_eq!(labels(drop, &mut sheet), ["− Chain mail"]);
        assert_eq!(sheet.armor_class().value(), 10);
        let again = equip("chain-mail").apply(&mut sheet).unwrap_err();
        assert!(matches!(
            again,
            DeltaError::Inventory(InventoryError::NoSuchItem { .. })
        ));
    }

    #[test]
    fn equipment_deltas_and_changes_serialise_tagged() {
        let delta = equip("longsword");
        let json = serde_json::to_value(&delta).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "equip", "slug": "longsword"})
        );
        assert_eq!(serde_json::from_value::<StateDelta>(json).unwrap(), delta);
        let mut sheet = carrying(10, 10, &["Longsword"]);
        let changes = delta.apply(&mut sheet).unwrap();
        let json = serde_json::to_value(&changes).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{"type": "equipment", "slug": "longsword", "name": "Longsword", "equipped": true}])
        );
        let (what, from, to) = changes.changes()[0].before_after();
        assert_eq!(
            (what.as_str(), from.as_str(), to.as_str()),
            ("Longsword", "carried", "equipped")
        );
    }
}
