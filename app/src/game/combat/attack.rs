//! One attack, resolved by the rules: a d20 plus the attack bonus against an armour class, then
//! the damage.
//!
//! A natural 20 always hits and is a critical hit: every damage die is rolled twice as many times,
//! the modifiers once. A natural 1 always misses. Otherwise the attack hits when the total meets
//! or beats the armour class. Advantage rolls `2d20kh1`, disadvantage `2d20kl1`; having both is
//! having neither. Damage below 0 (a `1d4-1` rolling 1) deals 0.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::foe::{FoeLabel, HpChange};
use super::roller::Roller;
use crate::game::bestiary::{double_dice, ArmorClass, AttackName, Damage, DamageType};
use crate::game::dice::{DiceExpr, Edge, Natural, Roll};
use crate::game::text::CharacterName;

/// Who strikes or is struck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Party {
    /// The player's character.
    Hero,
    /// A foe, by its label.
    Foe(FoeLabel),
    /// An ally, by its name.
    Ally(CharacterName),
}

/// How an attack landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Hit {
    /// It missed.
    Miss,
    /// It hit.
    Hit,
    /// A natural 20: a hit with doubled damage dice.
    Critical,
}

/// One part of an attack's damage as rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRoll {
    roll: Roll,
    kind: DamageType,
}

impl DamageRoll {
    /// Damage of `kind` as `roll` showed.
    pub(super) fn new(roll: Roll, kind: DamageType) -> Self {
        Self { roll, kind }
    }

    /// The dice as rolled (doubled on a critical hit).
    pub fn roll(&self) -> &Roll {
        &self.roll
    }

    /// The damage type.
    pub fn kind(&self) -> DamageType {
        self.kind
    }

    /// The damage dealt: the roll's total, at least 0.
    pub fn amount(&self) -> u32 {
        u32::try_from(self.roll.total()).unwrap_or(0)
    }
}

/// An attack as the rules resolved it: the d20 against the armour class, the outcome, the damage
/// and, for a foe struck, its hit points before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackResolution {
    attacker: Party,
    weapon: AttackName,
    target: Party,
    edge: Edge,
    roll: Roll,
    armor_class: ArmorClass,
    hit: Hit,
    damage: Vec<DamageRoll>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_hp: Option<HpChange>,
}

/// What an attack is before its dice are rolled.
pub(super) struct Swing<'a> {
    /// Who attacks.
    pub attacker: Party,
    /// With what.
    pub weapon: &'a AttackName,
    /// The attack bonus.
    pub to_hit: i8,
    /// The damage on a hit, every part.
    pub damage: Vec<&'a Damage>,
    /// Who is attacked.
    pub target: Party,
    /// The target's armour class.
    pub armor_class: ArmorClass,
    /// Advantage or disadvantage.
    pub edge: Edge,
}

/// Rolls `swing`'s attack and, on a hit, its damage.
pub(super) fn strike(swing: Swing<'_>, roller: &mut dyn Roller) -> AttackResolution {
    let d20 = DiceExpr::parse(swing.edge.d20())
        .and_then(|d| DiceExpr::parse(&d.notation_with_bonus(swing.to_hit.into())))
        .unwrap_or_else(|_| DiceExpr::d20());
    let roll = roller.roll(&d20, None);
    let hit = match roll.natural() {
        Some(Natural::Twenty) => Hit::Critical,
        Some(Natural::One) => Hit::Miss,
        None if roll.total() >= i32::from(swing.armor_class.value()) => Hit::Hit,
        None => Hit::Miss,
    };
    let damage = match hit {
        Hit::Miss => Vec::new(),
        Hit::Hit | Hit::Critical => swing
            .damage
            .iter()
            .map(|part| {
                let dice = if hit == Hit::Critical {
                    double_dice(part.dice())
                } else {
                    part.dice().clone()
                };
                DamageRoll {
                    roll: roller.roll(&dice, None),
                    kind: part.kind(),
                }
            })
            .collect(),
    };
    AttackResolution {
        attacker: swing.attacker,
        weapon: swing.weapon.clone(),
        target: swing.target,
        edge: swing.edge,
        roll,
        armor_class: swing.armor_class,
        hit,
        damage,
        target_hp: None,
    }
}

impl AttackResolution {
    /// Who attacked.
    pub fn attacker(&self) -> &Party {
        &self.attacker
    }

    /// With what.
    pub fn weapon(&self) -> &AttackName {
        &self.weapon
    }

    /// Who was attacked.
    pub fn target(&self) -> &Party {
        &self.target
    }

    /// Advantage or disadvantage on the d20.
    pub fn edge(&self) -> Edge {
        self.edge
    }

    /// The attack roll: the d20 (or two) plus the attack bonus.
    pub fn roll(&self) -> &Roll {
        &self.roll
    }

    /// The armour class it was rolled against.
    pub fn armor_class(&self) -> ArmorClass {
        self.armor_class
    }

    /// Miss, hit or critical hit.
    pub fn hit(&self) -> Hit {
        self.hit
    }

    /// Whether it hit (a critical hit included).
    pub fn is_hit(&self) -> bool {
        self.hit != Hit::Miss
    }

    /// The damage rolled, part by part; empty on a miss.
    pub fn damage(&self) -> &[DamageRoll] {
        &self.damage
    }

    /// The damage dealt, every part together.
    pub fn total_damage(&self) -> u32 {
        self.damage.iter().map(DamageRoll::amount).sum()
    }

    /// A foe's or an ally's hit points before and after; none when the hero was the target.
    pub fn target_hp(&self) -> Option<HpChange> {
        self.target_hp
    }

    /// Records a foe's or an ally's hit points once the damage is applied.
    pub(super) fn set_target_hp(&mut self, change: HpChange) {
        self.target_hp = Some(change);
    }

    /// The line the model and the player read:
    /// `Goblin 2's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing`, or for the hero
    /// `Your longsword at Goblin 2: 1d20+5 → [19]+5 = 24 vs AC 15, hit, 9 slashing; Goblin 2 is
    /// down`; an ally's name where one strikes or is struck (`Goblin 2's scimitar at Bran`).
    pub fn describe(&self) -> String {
        let mut out = match (&self.attacker, &self.target) {
            (Party::Hero, Party::Foe(target)) => format!("Your {} at {target}", self.weapon),
            (Party::Hero, _) => format!("Your {}", self.weapon),
            (Party::Foe(foe), Party::Ally(ally)) => format!("{foe}'s {} at {ally}", self.weapon),
            (Party::Foe(foe), _) => format!("{foe}'s {}", self.weapon),
            (Party::Ally(ally), Party::Foe(target)) => {
                format!("{ally}'s {} at {target}", self.weapon)
            }
            (Party::Ally(ally), _) => format!("{ally}'s {}", self.weapon),
        };
        let _ = write!(
            out,
            ": {} vs AC {}, ",
            compact(&self.roll),
            self.armor_class.value()
        );
        out.push_str(match (self.hit, self.roll.natural()) {
            (Hit::Miss, Some(Natural::One)) => "miss (natural 1)",
            (Hit::Miss, _) => "miss",
            (Hit::Hit, _) => "hit",
            (Hit::Critical, _) => "critical hit",
        });
        for (i, part) in self.damage.iter().enumerate() {
            let joint = if i == 0 { ", " } else { " + " };
            let _ = write!(out, "{joint}{} {}", part.amount(), part.kind());
        }
        match (&self.target, self.target_hp) {
            (Party::Foe(target), Some(hp)) if hp.to == 0 => {
                let _ = write!(out, "; {target} is down");
            }
            (Party::Foe(target), Some(hp)) if self.is_hit() => {
                let _ = write!(out, "; {target} has {}/{} HP", hp.to, hp.max);
            }
            (Party::Ally(target), Some(hp)) if self.is_hit() => {
                let _ = write!(out, "; {target} has {}/{} HP", hp.to, hp.max);
            }
            _ => {}
        }
        out
    }
}

/// `1d20+5 → [19]+5 = 24`; a dropped die in tildes: `2d20kl1+4 → [~15~, 3]+4 = 7`.
fn compact(roll: &Roll) -> String {
    let mut out = format!("{} → ", roll.notation());
    for term in roll.terms() {
        out.push('[');
        for (i, die) in term.dice().iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = if die.is_kept() {
                write!(out, "{}", die.value())
            } else {
                write!(out, "~{}~", die.value())
            };
        }
        out.push(']');
    }
    if roll.modifier() != 0 {
        let _ = write!(out, "{:+}", roll.modifier());
    }
    let _ = write!(out, " = {}", roll.total());
    out
}

#[cfg(test)]
mod tests {
    use super::super::roller::tests::Scripted;
    use super::*;

    fn name(text: &str) -> AttackName {
        AttackName::new(text).unwrap()
    }

    fn damage(text: &str) -> Damage {
        text.parse().unwrap()
    }

    fn ac(value: i64) -> ArmorClass {
        ArmorClass::new(value).unwrap()
    }

    fn goblin() -> Party {
        Party::Foe(FoeLabel::new("Goblin").unwrap())
    }

    /// The goblin's scimitar against the hero, with the given faces.
    fn scimitar(edge: Edge, faces: &[u16]) -> AttackResolution {
        let weapon = name("scimitar");
        let slash = damage("1d6+2 slashing");
        let swing = Swing {
            attacker: goblin(),
            weapon: &weapon,
            to_hit: 4,
            damage: vec![&slash],
            target: Party::Hero,
            armor_class: ac(13),
            edge,
        };
        strike(swing, &mut Scripted::new(faces))
    }

    #[test]
    fn meeting_the_armour_class_hits() {
        let attack = scimitar(Edge::Normal, &[10, 3]);
        assert_eq!(attack.roll().total(), 14);
        assert_eq!(attack.hit(), Hit::Hit);
        assert_eq!(attack.total_damage(), 5);
        assert_eq!(
            attack.describe(),
            "Goblin's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing"
        );
        let attack = scimitar(Edge::Normal, &[9, 3]);
        assert_eq!(attack.roll().total(), 13);
        assert!(attack.is_hit());
        let attack = scimitar(Edge::Normal, &[8]);
        assert_eq!(attack.hit(), Hit::Miss);
        assert!(attack.damage().is_empty());
        assert_eq!(
            attack.describe(),
            "Goblin's scimitar: 1d20+4 → [8]+4 = 12 vs AC 13, miss"
        );
    }

    #[test]
    fn a_natural_20_is_a_critical_that_doubles_dice_not_modifiers() {
        let attack = scimitar(Edge::Normal, &[20, 6, 6]);
        assert_eq!(attack.hit(), Hit::Critical);
        let rolled = attack.damage()[0].roll();
        assert_eq!(rolled.notation(), "2d6+2");
        assert_eq!(rolled.modifier(), 2);
        assert_eq!(attack.total_damage(), 14);
        assert_eq!(
            attack.describe(),
            "Goblin's scimitar: 1d20+4 → [20]+4 = 24 vs AC 13, critical hit, 14 slashing"
        );
    }

    #[test]
    fn a_natural_20_hits_any_armour_and_a_natural_1_misses_any() {
        let weapon = name("dagger");
        let stab = damage("1d4 piercing");
        let swing = |to_hit, armor| Swing {
            attacker: Party::Hero,
            weapon: &weapon,
            to_hit,
            damage: vec![&stab],
            target: goblin(),
            armor_class: ac(armor),
            edge: Edge::Normal,
        };
        let attack = strike(swing(-5, 30), &mut Scripted::new(&[20, 1, 1]));
        assert_eq!(attack.hit(), Hit::Critical);
        let attack = strike(swing(20, 1), &mut Scripted::new(&[1]));
        assert_eq!(attack.hit(), Hit::Miss);
        assert_eq!(
            attack.describe(),
            "Your dagger at Goblin: 1d20+20 → [1]+20 = 21 vs AC 1, miss (natural 1)"
        );
    }

    #[test]
    fn advantage_and_disadvantage_roll_two_d20s() {
        let attack = scimitar(Edge::Disadvantage, &[15, 3]);
        assert_eq!(attack.roll().notation(), "2d20kl1+4");
        assert_eq!(attack.roll().total(), 7);
        assert!(!attack.is_hit());
        assert_eq!(
            attack.describe(),
            "Goblin's scimitar: 2d20kl1+4 → [~15~, 3]+4 = 7 vs AC 13, miss"
        );
        // Advantage keeps the natural 20 among two dice.
        let attack = scimitar(Edge::Advantage, &[2, 20, 1, 1]);
        assert_eq!(attack.hit(), Hit::Critical);
        // Disadvantage keeps the natural 1.
        let attack = scimitar(Edge::Disadvantage, &[20, 1]);
        assert_eq!(attack.hit(), Hit::Miss);
    }

    #[test]
    fn extra_damage_is_rolled_and_doubled_too() {
        let weapon = name("bite");
        let (bite, fire) = (damage("1d8+3 piercing"), damage("2d6 fire"));
        let swing = Swing {
            attacker: Party::Foe(FoeLabel::new("Hell Hound").unwrap()),
            weapon: &weapon,
            to_hit: 5,
            damage: vec![&bite, &fire],
            target: Party::Hero,
            armor_class: ac(14),
            edge: Edge::Normal,
        };
        let attack = strike(swing, &mut Scripted::new(&[20, 1, 2, 3, 4, 5, 6]));
        let notations: Vec<&str> = attack
            .damage()
            .iter()
            .map(|d| d.roll().notation())
            .collect();
        assert_eq!(notations, ["2d8+3", "4d6"]);
        assert_eq!(attack.total_damage(), 6 + 18);
        assert!(attack
            .describe()
            .ends_with("critical hit, 6 piercing + 18 fire"));
    }

    #[test]
    fn damage_never_goes_below_zero() {
        let weapon = name("bite");
        let nip = damage("1d4-3 piercing");
        let swing = Swing {
            attacker: goblin(),
            weapon: &weapon,
            to_hit: 1,
            damage: vec![&nip],
            target: Party::Hero,
            armor_class: ac(10),
            edge: Edge::Normal,
        };
        let attack = strike(swing, &mut Scripted::new(&[15, 1]));
        assert_eq!(attack.damage()[0].roll().total(), -2);
        assert_eq!(attack.total_damage(), 0);
    }

    #[test]
    fn resolution_serde_round_trip() {
        let attack = scimitar(Edge::Advantage, &[4, 17, 5]);
        let json = serde_json::to_value(&attack).unwrap();
        assert_eq!(json["attacker"], serde_json::json!({"foe": "Goblin"}));
        assert_eq!(json["target"], "hero");
        assert_eq!(json["hit"], "hit");
        assert_eq!(
            serde_json::from_value::<AttackResolution>(json).unwrap(),
            attack
        );
    }
}
