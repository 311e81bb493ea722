//! The party in a fight: the allies the fight takes from the table (every friend's hero and
//! companion still standing, their figures from their sheets, a Cleric's heal as Cure Wounds'
//! dice for each of its level-1 slots), and what a played step does to their sheets (the hit
//! points the fight left them, a won fight's experience).

use crate::game::attributes::Attribute;
use crate::game::combat::{Ally, AllyKind};
use crate::game::delta::StateDelta;
use crate::game::dice::DiceExpr;
use crate::game::party::{Party, Role};
use crate::game::progression::MAX_AWARD;

use super::hero::weapon_profile;
use super::FightRecord;

/// Cure Wounds' uses a level-1 Cleric companion brings to a fight (its level-1 slots, SRD).
const CLERIC_HEALS: u8 = 2;

/// The allies a fight starting now takes from `party`: each member standing, in the order they
/// came (one whose weapon cannot be read stays out of the fight).
pub fn allies(party: &Party) -> Vec<Ally> {
    party
        .members()
        .iter()
        .filter(|member| !member.has_fallen() && member.sheet.hit_points().current() > 0)
        .filter_map(|member| {
            let sheet = &member.sheet;
            let kind = match member.role {
                Role::Seat { seat } => AllyKind::Seat(seat.number()),
                Role::Companion => AllyKind::Companion,
            };
            let attack = weapon_profile(sheet, None).ok()?;
            let ally = Ally {
                max_hit_points: sheet.hit_points().max(),
                ..Ally::new(
                    sheet.name().clone(),
                    kind,
                    sheet.armor_class(),
                    sheet.hit_points().current(),
                    sheet.attributes().dexterity.modifier(),
                    attack,
                )
            };
            let cleric = sheet.class().as_str().eq_ignore_ascii_case("cleric");
            if cleric && kind == AllyKind::Companion {
                let wisdom = sheet.attributes().bonus(Attribute::Wisdom).modifier;
                let dice = DiceExpr::parse(&format!("1d8{wisdom:+}")).ok()?;
                return Some(ally.with_healing(dice, CLERIC_HEALS));
            }
            Some(ally)
        })
        .collect()
}

impl FightRecord {
    /// What the step does to each party member's sheet, by their index in `party`: the hit
    /// points the fight left them, and a won fight's experience for everyone who stood in it.
    pub fn member_deltas(&self, party: &Party) -> Vec<(usize, Vec<StateDelta>)> {
        let mut changed: Vec<(usize, Vec<StateDelta>)> = Vec::new();
        for change in &self.exchange.ally_changes {
            if let Some(index) = party.named(change.name.as_str()) {
                let hp = StateDelta::SetHp {
                    hp: i32::from(change.to),
                };
                changed.push((index, vec![hp]));
            }
        }
        let xp = self.exchange.end.as_ref().map_or(0, |end| end.xp);
        if xp > 0 {
            for index in 0..party.members().len() {
                let gain = StateDelta::GainExperience {
                    amount: xp.min(MAX_AWARD),
                };
                match changed.iter_mut().find(|(at, _)| *at == index) {
                    Some((_, deltas)) => deltas.push(gain),
                    None => changed.push((index, vec![gain])),
                }
            }
        }
        changed
    }
}
