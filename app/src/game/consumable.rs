//! Using a consumable through the rules: [`StateDelta::use_item`] checks the item and rolls its
//! dice with the RNG passed in, and [`StateDelta::UseItem`] carries that roll, so that applying
//! it again (a replay, an imported file) gets the same result and a roll its dice cannot show is
//! refused.
//!
//! One use takes one of the item and does its effect: healing adds the roll's total up to
//! maximum hit points (at 0 HP it brings the character back), a cure ends its condition. Using
//! what is not carried or not a consumable, healing at full hit points and curing a condition
//! the character does not have are errors that change nothing, and nothing is used up.

use rand::Rng;

use super::delta::{DeltaError, StateDelta};
use super::dice::Roll;
use super::inventory::{InventoryError, Item};
use super::item_kind::Effect;
use super::sheet::CharacterSheet;
use super::text::{ConditionName, ItemName, Slug};

/// Why a carried item cannot be used. The message is written for the model and the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UseError {
    /// Gear, a weapon or armour.
    #[error("{name} is not something to use up")]
    NotConsumable {
        /// The item's name.
        name: ItemName,
    },
    /// Healing at full hit points.
    #[error("Already at full hit points; the {name} would be wasted")]
    Unhurt {
        /// The item's name.
        name: ItemName,
    },
    /// A cure for a condition the character does not have.
    #[error("Not {condition}, so the {name} would do nothing")]
    NotAffected {
        /// The item's name.
        name: ItemName,
        /// The condition it cures.
        condition: ConditionName,
    },
    /// A roll that is not what the item's effect rolls (or a roll for an effect without dice).
    #[error("The roll given for the {name} is not what its effect rolls")]
    Roll {
        /// The item's name.
        name: ItemName,
    },
}

/// What one use of an item does to the sheet.
pub(in crate::game) enum Outcome {
    /// Heal this many hit points (up to the maximum).
    Heal(i32),
    /// End this condition.
    Cure(ConditionName),
}

/// The carried consumable `slug` and its effect, if using it now would do something.
fn usable<'a>(
    sheet: &'a CharacterSheet,
    slug: &Slug,
) -> Result<(&'a Item, &'a Effect), DeltaError> {
    if sheet.vitality.is_dead() {
        return Err(DeltaError::Fallen);
    }
    let item = sheet
        .inventory
        .get(slug)
        .ok_or_else(|| InventoryError::NoSuchItem { slug: slug.clone() })?;
    let name = || item.name().clone();
    let effect = item
        .kind()
        .effect()
        .ok_or_else(|| UseError::NotConsumable { name: name() })?;
    match effect {
        Effect::Heal(_) if sheet.hit_points.current() == sheet.hit_points.max() => {
            Err(UseError::Unhurt { name: name() }.into())
        }
        Effect::Cure(condition) if sheet.conditions.get(condition).is_none() => {
            Err(UseError::NotAffected {
                name: name(),
                condition: condition.clone(),
            }
            .into())
        }
        _ => Ok((item, effect)),
    }
}

/// What using `slug` with `roll` does, or why it cannot be used: the item must be a carried
/// consumable whose effect would do something, and `roll` exactly what its dice show (no roll
/// for an effect without dice).
pub(in crate::game) fn outcome(
    sheet: &CharacterSheet,
    slug: &Slug,
    roll: Option<&Roll>,
) -> Result<Outcome, DeltaError> {
    let (item, effect) = usable(sheet, slug)?;
    let wrong_roll = || UseError::Roll {
        name: item.name().clone(),
    };
    match (effect, roll) {
        (Effect::Heal(dice), Some(roll)) if roll.attribute().is_none() && dice.explains(roll) => {
            Ok(Outcome::Heal(roll.total()))
        }
        (Effect::Cure(condition), None) => Ok(Outcome::Cure(condition.clone())),
        _ => Err(wrong_roll().into()),
    }
}

impl CharacterSheet {
    /// Whether using the carried consumable `slug` now would do something.
    pub fn can_use(&self, slug: &Slug) -> bool {
        usable(self, slug).is_ok()
    }
}

impl StateDelta {
    /// The delta that uses one of the carried item `slug`, its dice (if any) rolled with `rng`;
    /// an error, before any die is rolled, when it cannot be used now.
    pub fn use_item<R: Rng + ?Sized>(
        sheet: &CharacterSheet,
        slug: &Slug,
        rng: &mut R,
    ) -> Result<StateDelta, DeltaError> {
        let (_, effect) = usable(sheet, slug)?;
        let roll = match effect {
            Effect::Heal(dice) => Some(dice.roll(rng)),
            Effect::Cure(_) => None,
        };
        Ok(StateDelta::UseItem {
            slug: slug.clone(),
            roll,
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::game::conditions::Condition;
    use crate::game::dice::DiceExpr;
    use crate::game::inventory::{NewItem, Quantity};
    use crate::game::sheet::tests::mira;
    use crate::game::sheet::HitPoints;
    use crate::game::{Attribute, AttributeBonus, Stakes};

    fn slug(raw: &str) -> Slug {
        Slug::new(raw).unwrap()
    }

    /// `notation` rolled with these faces, in order, plus `bonus`.
    fn scripted_with(notation: &str, bonus: Option<AttributeBonus>, faces: &[u16]) -> Roll {
        let mut faces = faces.iter().copied();
        DiceExpr::parse(notation)
            .unwrap()
            .roll_faces(bonus, |_| faces.next().expect("enough faces"))
    }

    fn scripted(notation: &str, faces: &[u16]) -> Roll {
        scripted_with(notation, None, faces)
    }

    /// Mira at `hp` of 10, carrying `items`, one each.
    fn hurt(hp: i64, items: &[&str]) -> CharacterSheet {
        let mut sheet = mira().with_hit_points(HitPoints::new(hp, 10).unwrap());
        for name in items {
            let item = NewItem::new(ItemName::new(name).unwrap(), None, Quantity::ONE).unwrap();
            StateDelta::AddItem { item }.apply(&mut sheet).unwrap();
        }
        sheet
    }

    fn drink(roll: Roll) -> StateDelta {
        StateDelta::UseItem {
            slug: slug("healing-potion"),
            roll: Some(roll),
        }
    }

    #[test]
    fn a_healing_potion_rolls_heals_and_is_used_up() {
        let mut sheet = hurt(3, &["Healing potion"]);
        let delta = StateDelta::use_item(
            &sheet,
            &slug("healing-potion"),
            &mut StdRng::seed_from_u64(5),
        )
        .unwrap();
        let roll = delta.roll().expect("healing is rolled").clone();
        assert!(roll.notation() == "2d4+2" && (4..=10).contains(&roll.total()));
        let changes = delta.apply(&mut sheet).unwrap();
        let healed = format!("+{} HP", (roll.total()).min(7));
        assert_eq!(changes.labels(), ["− Healing potion".to_owned(), healed]);
        assert!(sheet.inventory().is_empty());
        // A potion used when none is carried.
        let none = StateDelta::use_item(
            &sheet,
            &slug("healing-potion"),
            &mut StdRng::seed_from_u64(5),
        );
        assert_eq!(
            none.unwrap_err().to_string(),
            "No item \"healing-potion\" in inventory"
        );
    }

    #[test]
    fn healing_stops_at_the_maximum() {
        let mut sheet = hurt(9, &["Healing potion"]);
        let changes = drink(scripted("2d4+2", &[4, 4])).apply(&mut sheet).unwrap();
        assert_eq!(changes.labels(), ["− Healing potion", "+1 HP"]);
        assert_eq!(sheet.hit_points().current(), 10);
    }

    #[test]
    fn a_potion_brings_a_downed_character_back() {
        let mut sheet = hurt(10, &["Healing potion"]);
        StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
        let changes = drink(scripted("2d4+2", &[1, 2])).apply(&mut sheet).unwrap();
        assert_eq!(
            changes.labels(),
            ["− Healing potion", "+5 HP", "On your feet"]
        );
    }

    #[test]
    fn a_roll_its_dice_cannot_show_is_refused_and_changes_nothing() {
        let sheet = hurt(3, &["Healing potion"]);
        let mut doctored = serde_json::to_value(scripted("2d4+2", &[1, 1])).unwrap();
        doctored["total"] = 10.into();
        let bonus = AttributeBonus {
            attribute: Attribute::Constitution,
            modifier: 3,
        };
        let wrong = [
            Some(serde_json::from_value(doctored).unwrap()),
            Some(scripted("2d6+2", &[6, 6])),
            Some(scripted("1d4", &[4])),
            Some(scripted_with("2d4+2", Some(bonus), &[4, 4])),
            None,
        ];
        for roll in wrong {
            let mut tried = sheet.clone();
            let delta = StateDelta::UseItem {
                slug: slug("healing-potion"),
                roll,
            };
            assert_eq!(
                delta.apply(&mut tried).unwrap_err().to_string(),
                "The roll given for the Healing potion is not what its effect rolls"
            );
            assert_eq!(tried, sheet);
        }
    }

    #[test]
    fn what_cannot_be_used_now_is_refused_before_any_roll() {
        let sheet = hurt(10, &["Healing potion", "Longsword", "Antitoxin"]);
        let mut rng = StdRng::seed_from_u64(1);
        let refusal = |raw: &str, rng: &mut StdRng| {
            StateDelta::use_item(&sheet, &slug(raw), rng)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refusal("healing-potion", &mut rng),
            "Already at full hit points; the Healing potion would be wasted"
        );
        assert_eq!(
            refusal("longsword", &mut rng),
            "Longsword is not something to use up"
        );
        assert_eq!(
            refusal("antitoxin", &mut rng),
            "Not Poisoned, so the Antitoxin would do nothing"
        );
        // No die was rolled: the RNG is where it started.
        let untouched = StdRng::seed_from_u64(1);
        assert_eq!(rng, untouched);
        let mut fallen = hurt(1, &["Healing potion"]).with_stakes(Stakes::Gritty);
        StateDelta::SetHp { hp: 0 }.apply(&mut fallen).unwrap();
        let err = StateDelta::use_item(&fallen, &slug("healing-potion"), &mut rng).unwrap_err();
        assert_eq!(err, DeltaError::Fallen);
    }

    #[test]
    fn antitoxin_cures_poison_without_dice() {
        let mut sheet = hurt(10, &["Antitoxin"]);
        let poisoned = Condition::named(ConditionName::new("poisoned").unwrap());
        StateDelta::AddCondition {
            condition: poisoned,
        }
        .apply(&mut sheet)
        .unwrap();
        let mut rng = StdRng::seed_from_u64(2);
        let delta = StateDelta::use_item(&sheet, &slug("antitoxin"), &mut rng).unwrap();
        assert_eq!(delta.roll(), None);
        let with_roll = StateDelta::UseItem {
            slug: slug("antitoxin"),
            roll: Some(scripted("1d4", &[2])),
        };
        assert!(with_roll.apply(&mut sheet.clone()).is_err());
        let changes = delta.apply(&mut sheet).unwrap();
        assert_eq!(changes.labels(), ["− Antitoxin", "− poisoned"]);
        assert!(sheet.conditions().is_empty() && sheet.inventory().is_empty());
    }

    #[test]
    fn a_use_is_written_with_its_roll() {
        let delta = drink(scripted("2d4+2", &[3, 1]));
        let json = serde_json::to_value(&delta).unwrap();
        assert_eq!(json["type"], "useItem");
        assert_eq!(json["roll"]["total"], 6);
        assert_eq!(serde_json::from_value::<StateDelta>(json).unwrap(), delta);
        let cure = StateDelta::UseItem {
            slug: slug("antitoxin"),
            roll: None,
        };
        assert_eq!(
            serde_json::to_value(&cure).unwrap(),
            serde_json::json!({"type": "useItem", "slug": "antitoxin"})
        );
    }
}
