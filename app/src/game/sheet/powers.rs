//! The sheet's powers as the rules read them: casting ability, spell save DC and attack bonus,
//! slots left, the spells known, the class features and their uses left, whether a spell can be
//! cast (and with which slot) or a feature used, the dice a healing spell and a hit die roll,
//! and the sheet with its powers set or taken away (see [`powers`](crate::game::powers)).

use crate::game::attributes::{Attribute, AttributeBonus};
use crate::game::dice::DiceExpr;
use crate::game::features::{self, Feature, Recharge};
use crate::game::powers::{PowerError, Powers};
use crate::game::spellcasting::{self, Spellcasting};
use crate::game::spells::{Spell, SpellBook, SpellEffect, SpellLevel};

use super::CharacterSheet;

impl CharacterSheet {
    /// The powers the rules count, `None` on a sheet made before they counted.
    pub fn powers(&self) -> Option<&Powers> {
        self.powers.as_ref()
    }

    /// How the hero casts, if they do.
    pub fn spellcasting(&self) -> Option<Spellcasting> {
        self.powers.as_ref()?.casting
    }

    /// The casting ability's modifier with the proficiency bonus, as a roll's bonus.
    fn casting_bonus(&self) -> Option<(Attribute, i8)> {
        let casting = self.spellcasting()?;
        Some((
            casting.ability,
            self.attributes().get(casting.ability).modifier(),
        ))
    }

    /// The spell save DC: 8 + proficiency + the casting modifier.
    pub fn spell_save_dc(&self) -> Option<u8> {
        let (_, modifier) = self.casting_bonus()?;
        Some(spellcasting::save_dc(self.proficiency_bonus(), modifier))
    }

    /// The spell attack bonus: proficiency + the casting modifier.
    pub fn spell_attack_bonus(&self) -> Option<i8> {
        let (_, modifier) = self.casting_bonus()?;
        Some(spellcasting::attack_bonus(
            self.proficiency_bonus(),
            modifier,
        ))
    }

    /// The casting modifier (0 for a hero who casts nothing).
    pub fn casting_modifier(&self) -> i8 {
        self.casting_bonus().map_or(0, |(_, modifier)| modifier)
    }

    /// Slots by spell level 1..=9: how many the class and level give and how many are left.
    pub fn spell_slots(&self) -> [(u8, u8); 9] {
        let mut out = [(0, 0); 9];
        let Some(powers) = &self.powers else {
            return out;
        };
        let Some(casting) = powers.casting else {
            return out;
        };
        let totals = spellcasting::slots(casting.kind, self.level());
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = (totals[i], totals[i].saturating_sub(powers.slots_spent[i]));
        }
        out
    }

    /// The spells the hero knows, in the order learned.
    pub fn known_spells(&self) -> Vec<&'static Spell> {
        let book = SpellBook::srd();
        self.powers
            .iter()
            .flat_map(|powers| powers.known.iter())
            .filter_map(|slug| book.get(slug.as_str()).ok())
            .collect()
    }

    /// The class features the hero has at this level, with uses left and in all (none for
    /// the ones without a count).
    pub fn features(&self) -> Vec<(Feature, Option<(u8, u8)>)> {
        let Some(powers) = &self.powers else {
            return Vec::new();
        };
        features::of_class(self.class().as_str(), self.level())
            .into_iter()
            .map(|feature| {
                let uses = feature.uses(self.level(), self.attributes()).map(|total| {
                    let spent = powers.uses_spent.get(&feature).copied().unwrap_or(0);
                    (total.saturating_sub(spent), total)
                });
                (feature, uses)
            })
            .collect()
    }

    /// The known spell `name` and the slot it would spend: the lowest one left of its level or
    /// higher (none for a cantrip), or `slot` when given. Why not, if it cannot be cast.
    pub fn castable(
        &self,
        name: &str,
        slot: Option<SpellLevel>,
    ) -> Result<(&'static Spell, SpellLevel), PowerError> {
        let powers = self.powers.as_ref().ok_or(PowerError::NoPowers)?;
        let spell = SpellBook::srd().get(name)?;
        if self.hit_points().current() == 0 {
            return Err(PowerError::Down);
        }
        if powers.casting.is_none() {
            return Err(PowerError::NotACaster);
        }
        if !powers.known.contains(&spell.slug()) {
            return Err(PowerError::NotKnown {
                spell: spell.name.clone(),
            });
        }
        if spell.level.is_cantrip() {
            return Ok((spell, SpellLevel::CANTRIP));
        }
        let slots = self.spell_slots();
        let left = |level: u8| slots[usize::from(level) - 1].1 > 0;
        match slot {
            Some(slot) if slot < spell.level => Err(PowerError::SlotTooLow {
                spell: spell.name.clone(),
                level: spell.level.ordinal(),
            }),
            Some(slot) if left(slot.value()) => Ok((spell, slot)),
            Some(slot) => Err(PowerError::NoSlot {
                level: slot.ordinal(),
            }),
            None => (spell.level.value()..=SpellLevel::MAX)
                .find(|&level| left(level))
                .and_then(|level| SpellLevel::new(level).ok())
                .map(|level| (spell, level))
                .ok_or(PowerError::NoSlot {
                    level: spell.level.ordinal(),
                }),
        }
    }

    /// The feature `feature` if the hero has it with a use left (or it has no count).
    pub fn usable(&self, feature: Feature) -> Result<(), PowerError> {
        if self.hit_points().current() == 0 {
            return Err(PowerError::Down);
        }
        let (_, uses) = self
            .features()
            .into_iter()
            .find(|(f, _)| *f == feature)
            .ok_or(PowerError::NotYours {
                feature: feature.name(),
            })?;
        match uses {
            Some((0, _)) => Err(PowerError::NoUse {
                feature: feature.name(),
                rest: match feature.recharge() {
                    Some(Recharge::ShortRest) => "a short rest",
                    _ => "a long rest",
                },
            }),
            _ => Ok(()),
        }
    }

    /// The dice a healing spell cast with a `slot` heals with (the casting modifier added when
    /// the spell says so).
    pub fn healing_dice(&self, spell: &Spell, slot: SpellLevel) -> Option<DiceExpr> {
        let SpellEffect::Healing { add_modifier, .. } = &spell.effect else {
            return None;
        };
        let figures = spell.figures(slot, self.level().value()).ok()?;
        let dice = figures.dice?;
        let bonus = if *add_modifier {
            i32::from(self.casting_modifier())
        } else {
            0
        };
        DiceExpr::parse(&dice.notation_with_bonus(dice.modifier() + bonus)).ok()
    }

    /// A hit die as the rules roll it on a short rest: the die plus the CON modifier.
    pub fn hit_die_roll(&self) -> (DiceExpr, AttributeBonus) {
        let dice = DiceExpr::parse(&format!("1d{}", self.hit_die().sides())).expect("a die");
        let bonus = AttributeBonus {
            attribute: Attribute::Constitution,
            modifier: self.attributes().constitution.modifier(),
            proficiency: 0,
        };
        (dice, bonus)
    }
}

impl CharacterSheet {
    /// The same character with `powers`.
    pub fn with_powers(mut self, powers: Powers) -> Self {
        self.powers = Some(powers);
        self
    }

    /// The same sheet as it was made before powers counted (files exported then have none).
    pub fn before_powers(mut self) -> Self {
        self.powers = None;
        self
    }
}
