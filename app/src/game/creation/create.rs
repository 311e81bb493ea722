//! A draft made into a character by the creation rules (its scores, hit points, proficiencies,
//! spells, signature abilities and starting gear), and a character read back into the draft
//! that makes it.

use super::presets::{class_proficiencies, preset, ClassPreset, COMMON_GEAR, CUSTOM_HIT_DIE};
use super::scores::check_scores;
use super::{CharacterDraft, CreationError, ScoreMethod, SpellChoiceError, STANDARD_ARRAY};
use crate::game::attributes::{Attribute, Attributes};
use crate::game::inventory::{NewItem, Quantity};
use crate::game::powers::Powers;
use crate::game::proficiency::{Proficiencies, Skill};
use crate::game::progression::Level;
use crate::game::sheet::{Ability, CharacterSheet, HitPoints, Sanity};
use crate::game::spellcasting::{self, CasterKind, Spellcasting};
use crate::game::spells::{SpellBook, SpellList};
use crate::game::text::{
    AbilityName, AbilityText, Backstory, CharacterName, ClassName, ItemDescription, ItemName,
    LocationName, Slug,
};

impl CharacterDraft {
    /// The draft that makes `sheet` as it was created (to check a character read from a file):
    /// its scores by the method they fit, a custom class's ability, its backstory and stakes.
    pub fn of(sheet: &CharacterSheet) -> Self {
        let scores: Vec<i64> = Attribute::ALL
            .iter()
            .map(|attribute| i64::from(sheet.attributes().get(*attribute).value()))
            .collect();
        let method = if check_scores(ScoreMethod::StandardArray, &scores).is_ok() {
            ScoreMethod::StandardArray
        } else {
            ScoreMethod::PointBuy
        };
        let custom = preset(sheet.class().as_str()).is_none();
        Self {
            name: sheet.name().as_str().to_owned(),
            class: sheet.class().as_str().to_owned(),
            method,
            scores: Some(scores),
            ability: match sheet.abilities() {
                [ability, ..] if custom => ability.name.as_str().to_owned(),
                _ => String::new(),
            },
            backstory: sheet
                .backstory()
                .map(|b| b.as_str().to_owned())
                .unwrap_or_default(),
            sanity: sheet.sanity().is_some(),
            stakes: sheet.stakes(),
            skills: sheet
                .proficiencies()
                .skills()
                .iter()
                .map(|skill| skill.name().to_owned())
                .collect(),
            spells: sheet
                .known_spells()
                .iter()
                .map(|spell| spell.name.clone())
                .collect(),
            casting: sheet.spellcasting().filter(|_| custom).map(|c| c.ability),
        }
    }

    /// The character this draft describes, at `location`, or the first thing wrong with it.
    pub fn create(&self, location: LocationName) -> Result<CharacterSheet, CreationError> {
        let name = CharacterName::new(&self.name)?;
        let preset = preset(&self.class);
        let class = ClassName::new(preset.map_or(self.class.as_str(), |p| p.name))?;
        // Without scores: the class's suggestion, or the array in sheet order for a custom class.
        let (method, scores) = match (&self.scores, preset) {
            (Some(scores), _) => (self.method, scores.clone()),
            (None, Some(preset)) => (
                ScoreMethod::StandardArray,
                preset.suggested_scores().map(i64::from).to_vec(),
            ),
            (None, None) => (
                ScoreMethod::StandardArray,
                STANDARD_ARRAY.map(i64::from).to_vec(),
            ),
        };
        let attributes = check_scores(method, &scores)?;
        let proficiencies = self.proficiencies(preset, &attributes)?;
        let hit_die = preset.map_or(CUSTOM_HIT_DIE, |p| p.hit_die);
        let max_hp = hit_die.first_level_hp(attributes.constitution);
        let mut sheet = CharacterSheet::new(name, class, location)
            .with_attributes(attributes)
            .with_hit_points(HitPoints::full(i64::from(max_hp)).expect("1..=22 HP"))
            .with_class_rules(hit_die, ruled_out(abilities(preset, &self.ability)?))
            .with_stakes(self.stakes)
            .with_backstory(Backstory::new_optional(&self.backstory)?)
            .with_proficiencies(proficiencies)
            .with_powers(self.powers(preset)?);
        if self.sanity {
            sheet = sheet.with_sanity(Sanity::new(i64::from(Sanity::MAX)).expect("100"));
        }
        for (name, description, quantity) in
            preset.map_or(&[][..], |p| p.gear).iter().chain(COMMON_GEAR)
        {
            sheet = sheet.with_item(gear(name, description, *quantity)?);
        }
        Ok(sheet.with_first_of_each_equipped())
    }
}

impl CharacterDraft {
    /// How the character casts and the spells they know at level 1: the chosen ones from the
    /// class's list (no more cantrips or spells than the class knows), or its defaults.
    fn powers(&self, preset: Option<&ClassPreset>) -> Result<Powers, CreationError> {
        let casting = match preset {
            Some(preset) => spellcasting::for_class(preset.name),
            None => self.casting.map(custom_casting),
        };
        let Some(casting) = casting else {
            if let Some(name) = self.spells.first() {
                return Err(SpellChoiceError::NotACaster {
                    spell: name.clone(),
                }
                .into());
            }
            return Ok(Powers::new(None, Vec::new()));
        };
        let level = Level::default();
        let defaults = spellcasting::default_spells(casting.list, level);
        let names: Vec<&str> = if self.spells.is_empty() {
            defaults.clone()
        } else {
            self.spells.iter().map(String::as_str).collect()
        };
        let book = SpellBook::srd();
        let list = spellcasting::class_list(casting.list);
        let mut known = Vec::new();
        for name in names {
            let spell = book.get(name).map_err(SpellChoiceError::from)?;
            let offered = list.iter().any(|n| n.eq_ignore_ascii_case(&spell.name));
            if !offered || spell.level.value() > 1 {
                return Err(SpellChoiceError::NotOffered {
                    spell: spell.name.clone(),
                    class: self.class.trim().to_owned(),
                }
                .into());
            }
            if !known.contains(&spell.slug()) {
                known.push(spell.slug());
            }
        }
        let count = |cantrips: bool, slugs: &mut dyn Iterator<Item = &Slug>| {
            slugs
                .filter(|slug| {
                    book.get(slug.as_str())
                        .is_ok_and(|s| s.level.is_cantrip() == cantrips)
                })
                .count()
        };
        let default_slugs: Vec<Slug> = defaults.iter().filter_map(|n| Slug::new(n).ok()).collect();
        for cantrips in [true, false] {
            let most = count(cantrips, &mut default_slugs.iter());
            if count(cantrips, &mut known.iter()) > most {
                let what = if cantrips {
                    "cantrips"
                } else {
                    "1st-level spells"
                };
                return Err(SpellChoiceError::TooMany {
                    class: self.class.trim().to_owned(),
                    most,
                    what,
                }
                .into());
            }
        }
        Ok(Powers::new(Some(casting), known))
    }

    /// The class's saves and the chosen skills (the class's first ones when none are chosen).
    fn proficiencies(
        &self,
        preset: Option<&ClassPreset>,
        attributes: &Attributes,
    ) -> Result<Proficiencies, CreationError> {
        let class = class_proficiencies(preset, attributes);
        let chosen = self
            .skills
            .iter()
            .map(|name| name.parse())
            .collect::<Result<Vec<Skill>, _>>()?;
        let skills = if chosen.is_empty() {
            class.default_choice()
        } else {
            class.choose(&chosen)?
        };
        Ok(Proficiencies::new(skills, class.saves.to_vec()))
    }
}

/// The preset abilities that the rules now play as spells and class features: a sheet whose
/// powers count lists them there instead.
const BECAME_POWERS: &[&str] = &[
    "Second Wind",
    "Action Surge",
    "Sneak Attack",
    "Cunning Action",
    "Arcane Bolt",
    "Healing Word",
    "Turn the Dead",
    "Hunter's Mark",
    "Inspiration",
];

/// `abilities` without those that became spells and class features.
fn ruled_out(abilities: Vec<Ability>) -> Vec<Ability> {
    abilities
        .into_iter()
        .filter(|a| !BECAME_POWERS.contains(&a.name.as_str()))
        .collect()
}

/// How a class of the player's own casts with `ability`: as a full caster, from the wizard's
/// list.
fn custom_casting(ability: Attribute) -> Spellcasting {
    Spellcasting {
        ability,
        kind: CasterKind::Full,
        list: SpellList::Wizard,
    }
}

pub(super) fn abilities(
    preset: Option<&ClassPreset>,
    custom: &str,
) -> Result<Vec<Ability>, CreationError> {
    match preset {
        Some(preset) => preset
            .abilities
            .iter()
            .map(|(name, text)| {
                Ok(Ability {
                    name: AbilityName::new(name)?,
                    text: AbilityText::new_optional(text)?,
                })
            })
            .collect(),
        None => Ok(AbilityName::new_optional(custom)?
            .map(|name| Ability { name, text: None })
            .into_iter()
            .collect()),
    }
}

fn gear(name: &str, description: &str, quantity: u16) -> Result<NewItem, CreationError> {
    Ok(NewItem::new(
        ItemName::new(name)?,
        ItemDescription::new_optional(description)?,
        Quantity::new(i64::from(quantity))?,
    )?)
}
