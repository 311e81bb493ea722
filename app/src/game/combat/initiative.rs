//! Initiative: everyone in the fight rolls a d20 plus their DEX modifier once, and the order stays
//! for the whole fight. Highest total first; ties go to the higher DEX modifier, then to the hero,
//! then to the ally listed first, then to the foe listed first, so the order never depends on
//! anything but the dice. The hero rolls first, then the allies, then the foes.

use std::cmp::{Ordering, Reverse};

use serde::{Deserialize, Serialize};

use rand::Rng;

use super::bounds::MAX_ALLIES;
use super::roller::{RngRoller, Roller};
use crate::game::attributes::{Attribute, AttributeBonus};
use crate::game::dice::{DiceExpr, Roll};

/// Someone in the initiative order: the hero, or an ally or a foe by its place in the encounter's
/// list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Combatant {
    /// The player's character.
    Hero,
    /// The ally at this index of the encounter's allies.
    Ally(usize),
    /// The foe at this index of the encounter's foes.
    Foe(usize),
}

impl Combatant {
    /// Its place when initiative ties: the hero, then the allies, then the foes, each in list
    /// order.
    pub(super) fn place(self) -> usize {
        match self {
            Combatant::Hero => 0,
            Combatant::Ally(i) => i.saturating_add(1),
            Combatant::Foe(i) => i.saturating_add(MAX_ALLIES + 1),
        }
    }
}

/// One place in the initiative order: who, and the roll that put them there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    combatant: Combatant,
    roll: Roll,
    dex: i8,
}

impl InitiativeEntry {
    /// Who holds this place.
    pub fn combatant(&self) -> Combatant {
        self.combatant
    }

    /// The initiative roll (d20 + DEX modifier).
    pub fn roll(&self) -> &Roll {
        &self.roll
    }

    /// The DEX modifier that broke ties.
    pub fn dex(&self) -> i8 {
        self.dex
    }

    /// The initiative total.
    pub fn total(&self) -> i32 {
        self.roll.total()
    }

    /// The key the order sorts by: total, then DEX, both highest first; then the hero, the
    /// allies and the foes, each in list order.
    fn key(&self) -> (Reverse<i32>, Reverse<i8>, usize) {
        (
            Reverse(self.total()),
            Reverse(self.dex),
            self.combatant.place(),
        )
    }
}

/// Whether `a` acts before `b`.
pub(super) fn initiative_cmp(a: &InitiativeEntry, b: &InitiativeEntry) -> Ordering {
    a.key().cmp(&b.key())
}

/// Rolls initiative for the hero (`hero_dex`, the DEX modifier) and each foe (`foe_dex`, in the
/// encounter's order) with `rng`, and returns everyone in the order they act.
pub fn roll_initiative<R: Rng + ?Sized>(
    hero_dex: i8,
    foe_dex: &[i8],
    rng: &mut R,
) -> Vec<InitiativeEntry> {
    initiative_with(hero_dex, &[], foe_dex, &mut RngRoller(rng))
}

/// [`roll_initiative`] with allies (`ally_dex`, in the encounter's order) and any dice.
pub(super) fn initiative_with(
    hero_dex: i8,
    ally_dex: &[i8],
    foe_dex: &[i8],
    roller: &mut dyn Roller,
) -> Vec<InitiativeEntry> {
    let d20 = DiceExpr::d20();
    let mut roll = |combatant, dex| InitiativeEntry {
        combatant,
        roll: roller.roll(
            &d20,
            Some(AttributeBonus {
                attribute: Attribute::Dexterity,
                modifier: dex,
                proficiency: 0,
            }),
        ),
        dex,
    };
    let mut order = vec![roll(Combatant::Hero, hero_dex)];
    order.extend(
        ally_dex
            .iter()
            .enumerate()
            .map(|(i, &dex)| roll(Combatant::Ally(i), dex)),
    );
    order.extend(
        foe_dex
            .iter()
            .enumerate()
            .map(|(i, &dex)| roll(Combatant::Foe(i), dex)),
    );
    order.sort_by(initiative_cmp);
    order
}

#[cfg(test)]
mod tests {
    use super::super::roller::tests::Scripted;
    use super::*;

    fn order(hero_dex: i8, foe_dex: &[i8], faces: &[u16]) -> Vec<(Combatant, i32)> {
        initiative_with(hero_dex, &[], foe_dex, &mut Scripted::new(faces))
            .iter()
            .map(|e| (e.combatant(), e.total()))
            .collect()
    }

    #[test]
    fn highest_total_acts_first() {
        // Hero 10+2, goblin 15+2, wolf 3+2.
        assert_eq!(
            order(2, &[2, 2], &[10, 15, 3]),
            [
                (Combatant::Foe(0), 17),
                (Combatant::Hero, 12),
                (Combatant::Foe(1), 5)
            ]
        );
    }

    #[test]
    fn ties_go_to_dex_then_the_hero_then_list_order() {
        // All total 12: hero 10+2, foe 0 9+3, foe 1 12+0, foe 2 10+2.
        assert_eq!(
            order(2, &[3, 0, 2], &[10, 9, 12, 10]),
            [
                (Combatant::Foe(0), 12),
                (Combatant::Hero, 12),
                (Combatant::Foe(2), 12),
                (Combatant::Foe(1), 12)
            ]
        );
    }

    #[test]
    fn allies_tie_after_the_hero_and_before_the_foes() {
        // All total 12: hero 10+2, ally 0 10+2, ally 1 9+3, foe 0 10+2, foe 1 12+0.
        let entries = initiative_with(
            2,
            &[2, 3],
            &[2, 0],
            &mut Scripted::new(&[10, 10, 9, 10, 12]),
        );
        let order: Vec<Combatant> = entries.iter().map(InitiativeEntry::combatant).collect();
        assert_eq!(
            order,
            [
                Combatant::Ally(1),
                Combatant::Hero,
                Combatant::Ally(0),
                Combatant::Foe(0),
                Combatant::Foe(1)
            ]
        );
        let json = serde_json::to_value(&entries[0]).unwrap();
        assert_eq!(json["combatant"], serde_json::json!({"ally": 1}));
    }

    #[test]
    fn the_roll_shows_the_dex_modifier() {
        let entries = initiative_with(-1, &[], &[], &mut Scripted::new(&[8]));
        let roll = entries[0].roll();
        assert_eq!(roll.notation(), "1d20-1");
        assert_eq!(roll.total(), 7);
        assert_eq!(entries[0].dex(), -1);
    }

    #[test]
    fn serde_round_trip() {
        let entries = initiative_with(1, &[], &[0], &mut Scripted::new(&[5, 8]));
        let json = serde_json::to_value(&entries).unwrap();
        assert_eq!(json[0]["combatant"], serde_json::json!({"foe": 0}));
        assert_eq!(json[1]["combatant"], "hero");
        let back: Vec<InitiativeEntry> = serde_json::from_value(json).unwrap();
        assert_eq!(back, entries);
    }
}
