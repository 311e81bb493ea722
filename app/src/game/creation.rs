//! Character creation: a class (one of the presets, or the player's own), six attribute scores
//! by the standard array or point-buy, hit points from the class's hit die and CON, starting gear,
//! signature abilities, an optional backstory, sanity when the campaign tracks it, and what is at
//! stake at 0 HP.
//!
//! The form arrives as a [`CharacterDraft`] of plain values; [`CharacterDraft::create`] parses it
//! into a [`CharacterSheet`] or says what is wrong ([`CreationError`]). A preset's name, typed in
//! any case, picks the preset; any other class name is a custom class (d8, the common gear, and
//! the ability the player names, if any).
//!
//! Starting gear is typed by the [`catalogue`](super::catalogue) (a preset's weapons, armour and
//! shield; the healing potion), and the first weapon, armour and shield in the class's gear
//! come equipped. Characters created before items were typed carried plain gear, nothing
//! equipped, and not the gear added then; [`created_before_typed_items`] gives that older form of
//! a character, so that a file exported then still checks against the creation rules.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeScore, Attributes};
use super::inventory::{NewItem, Quantity, QuantityError};
use super::powers::Powers;
use super::proficiency::{ClassProficiencies, Proficiencies, Skill, SkillChoiceError, SkillError};
use super::progression::{HitDie, Level};
use super::sheet::{Ability, CharacterSheet, HitPoints, Sanity};
use super::spellcasting::{self, CasterKind, Spellcasting};
use super::spells::{SpellBook, SpellList, UnknownSpell};
use super::stakes::Stakes;
use super::text::{
    AbilityName, AbilityText, Backstory, CharacterName, ClassName, ItemDescription, ItemName,
    LocationName, Slug, TextError,
};

/// The standard array: six scores to arrange.
pub const STANDARD_ARRAY: [u8; 6] = [15, 14, 13, 12, 10, 8];

/// Points to spend on point-buy.
pub const POINT_BUY_BUDGET: u32 = 27;

/// How the scores were chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreMethod {
    /// The standard array, arranged by the player.
    #[default]
    StandardArray,
    /// 27 points, each score 8..=15.
    PointBuy,
}

/// What the player filled in. Scores are in sheet order (STR DEX CON INT WIS CHA); without them
/// the class's suggested arrangement of the standard array is used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterDraft {
    /// The character's name.
    pub name: String,
    /// A preset's name or the player's own class.
    pub class: String,
    /// How the scores were chosen.
    #[serde(default)]
    pub method: ScoreMethod,
    /// The six scores, or none for the class's suggestion.
    #[serde(default)]
    pub scores: Option<Vec<i64>>,
    /// A custom class's signature ability (ignored for presets).
    #[serde(default)]
    pub ability: String,
    /// A short backstory, or blank.
    #[serde(default)]
    pub backstory: String,
    /// Whether the campaign tracks sanity.
    #[serde(default)]
    pub sanity: bool,
    /// What 0 HP means.
    #[serde(default)]
    pub stakes: Stakes,
    /// The skills chosen from the class's list, by name; none for the class's first ones.
    #[serde(default)]
    pub skills: Vec<String>,
    /// The spells chosen from the class's list, by name; none for the class's default ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
    /// A custom class's casting ability, or none for a class that casts no spells (a preset's
    /// is its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casting: Option<Attribute>,
}

/// Why a draft cannot become a character. Each message names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreationError {
    /// A text field is empty, too long or has control characters.
    #[error("{0}")]
    Text(#[from] TextError),
    /// A gear quantity out of range (a preset's mistake).
    #[error("{0}")]
    Quantity(#[from] QuantityError),
    /// Not six scores.
    #[error("give six attribute scores, STR DEX CON INT WIS CHA (got {count})")]
    ScoreCount {
        /// How many were given.
        count: usize,
    },
    /// Standard-array scores that are not the array rearranged.
    #[error("the standard array is 15, 14, 13, 12, 10 and 8, each used once")]
    NotTheArray,
    /// A point-buy score outside 8..=15.
    #[error("with point-buy each score is 8 to 15 ({attribute} is {value})")]
    PointBuyRange {
        /// The attribute.
        attribute: Attribute,
        /// Its score.
        value: i64,
    },
    /// Point-buy scores that cost too much.
    #[error("these scores cost {spent} points; point-buy has {POINT_BUY_BUDGET}")]
    OverBudget {
        /// What they cost.
        spent: u32,
    },
    /// A skill name that names no skill.
    #[error("{0}")]
    Skill(#[from] SkillError),
    /// Skills the class does not offer, or not as many as it chooses.
    #[error("{0}")]
    SkillChoice(#[from] SkillChoiceError),
    /// Spells the class does not offer, or more than it knows.
    #[error("spells: {0}")]
    Spell(#[from] SpellChoiceError),
}

/// Spells a new character cannot start with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpellChoiceError {
    /// A spell the book lacks.
    #[error(transparent)]
    Unknown(#[from] UnknownSpell),
    /// Spells for a class that casts none.
    #[error("{spell}: this class casts no spells")]
    NotACaster {
        /// The first spell asked for.
        spell: String,
    },
    /// A spell off the class's list, or above 1st level.
    #[error("{spell} is not a spell a level-1 {class} can learn")]
    NotOffered {
        /// The spell.
        spell: String,
        /// The class.
        class: String,
    },
    /// More cantrips or spells than the class knows.
    #[error("a level-1 {class} knows at most {most} {what}")]
    TooMany {
        /// The class.
        class: String,
        /// How many it knows.
        most: usize,
        /// `cantrips` or `1st-level spells`.
        what: &'static str,
    },
}

/// A class the form offers, with everything it brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassPreset {
    /// Its name.
    pub name: &'static str,
    /// Its hit die.
    pub hit_die: HitDie,
    /// Attributes from most to least important: the standard array is arranged in this order.
    pub priorities: [Attribute; 6],
    /// Its gear beyond the common gear: name, description, quantity. The first weapon, armour
    /// and shield come equipped.
    pub gear: &'static [(&'static str, &'static str, u16)],
    /// The names of the gear it gained when items became typed (armour, a second weapon): a
    /// character created before then did not carry it.
    pub gear_added_with_kinds: &'static [&'static str],
    /// Its signature abilities: name, what it does.
    pub abilities: &'static [(&'static str, &'static str)],
    /// Its saving throws and the skills it chooses from (SRD 5.1).
    pub proficiencies: ClassProficiencies,
}

use Attribute::{
    Charisma as Cha, Constitution as Con, Dexterity as Dex, Intelligence as Int, Strength as Str,
    Wisdom as Wis,
};

/// Every class offers these.
pub const COMMON_GEAR: &[(&str, &str, u16)] = &[
    ("Healing potion", "Drink to heal 2d4+2 HP.", 1),
    ("Torch", "Burns for an hour.", 2),
    ("Rations", "A day's food.", 3),
];

/// The hit die of a class that is not a preset.
pub const CUSTOM_HIT_DIE: HitDie = HitDie::D8;

/// How many skills a class that is not a preset chooses (from all of them).
pub const CUSTOM_SKILLS: usize = 2;

/// What the class (a preset, or the player's own with these `attributes`) offers: a preset's
/// saves and skills, or for a custom class the saves of its two highest scores (the first in
/// sheet order on a tie) and any two skills.
pub fn class_proficiencies(
    preset: Option<&ClassPreset>,
    attributes: &Attributes,
) -> ClassProficiencies {
    if let Some(preset) = preset {
        return preset.proficiencies;
    }
    let mut ranked = Attribute::ALL;
    // A stable sort keeps sheet order among equal scores.
    ranked.sort_by_key(|attribute| std::cmp::Reverse(attributes.get(*attribute)));
    ClassProficiencies {
        saves: [ranked[0], ranked[1]],
        skills: &[],
        choose: CUSTOM_SKILLS,
    }
}

/// The preset classes.
pub const PRESETS: [ClassPreset; 6] = [
    ClassPreset {
        name: "Fighter",
        hit_die: HitDie::D10,
        priorities: [Str, Con, Dex, Wis, Cha, Int],
        gear: &[
            ("Longsword", "1d8 slashing.", 1),
            ("Chain mail", "Heavy armour: AC 16.", 1),
            ("Shield", "+2 to defence.", 1),
        ],
        gear_added_with_kinds: &["Chain mail"],
        abilities: &[
            (
                "Second Wind",
                "Once per rest, heal 1d10 + level HP in a breath.",
            ),
            ("Action Surge", "Once per rest, act twice in a moment."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Str, Con],
            skills: &[
                Skill::Acrobatics,
                Skill::AnimalHandling,
                Skill::Athletics,
                Skill::History,
                Skill::Insight,
                Skill::Intimidation,
                Skill::Perception,
                Skill::Survival,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Rogue",
        hit_die: HitDie::D8,
        priorities: [Dex, Int, Con, Cha, Wis, Str],
        gear: &[
            ("Shortsword", "1d6 piercing; finesse.", 1),
            ("Dagger", "1d4 piercing; can be thrown.", 2),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
            ("Thieves' tools", "Picks and files for locks and traps.", 1),
        ],
        gear_added_with_kinds: &["Shortsword", "Leather armor"],
        abilities: &[
            (
                "Sneak Attack",
                "+2d6 damage on a strike the foe does not see coming.",
            ),
            ("Cunning Action", "Hide, dash or slip away in a moment."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Dex, Int],
            skills: &[
                Skill::Acrobatics,
                Skill::Athletics,
                Skill::Deception,
                Skill::Insight,
                Skill::Intimidation,
                Skill::Investigation,
                Skill::Perception,
                Skill::Performance,
                Skill::Persuasion,
                Skill::SleightOfHand,
                Skill::Stealth,
            ],
            choose: 4,
        },
    },
    ClassPreset {
        name: "Wizard",
        hit_die: HitDie::D6,
        priorities: [Int, Con, Dex, Wis, Cha, Str],
        gear: &[
            ("Quarterstaff", "1d6 bludgeoning.", 1),
            ("Spellbook", "Your spells, in your hand.", 1),
        ],
        gear_added_with_kinds: &[],
        abilities: &[
            ("Arcane Bolt", "1d10 force damage to a foe you can see."),
            (
                "Ritual Lore",
                "Read old scripts and name the magic in a thing.",
            ),
        ],
        proficiencies: ClassProficiencies {
            saves: [Int, Wis],
            skills: &[
                Skill::Arcana,
                Skill::History,
                Skill::Insight,
                Skill::Investigation,
                Skill::Medicine,
                Skill::Religion,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Cleric",
        hit_die: HitDie::D8,
        priorities: [Wis, Con, Str, Cha, Dex, Int],
        gear: &[
            ("Mace", "1d6 bludgeoning.", 1),
            ("Scale mail", "Medium armour: AC 14 + DEX (max 2).", 1),
            ("Shield", "+2 to defence.", 1),
            ("Holy symbol", "Your god's sign.", 1),
        ],
        gear_added_with_kinds: &["Scale mail", "Shield"],
        abilities: &[
            (
                "Healing Word",
                "Once per rest, heal 1d4 + WIS HP at a word.",
            ),
            ("Turn the Dead", "The undead flee from your raised symbol."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Wis, Cha],
            skills: &[
                Skill::History,
                Skill::Insight,
                Skill::Medicine,
                Skill::Persuasion,
                Skill::Religion,
            ],
            choose: 2,
        },
    },
    ClassPreset {
        name: "Ranger",
        hit_die: HitDie::D10,
        priorities: [Dex, Wis, Con, Str, Int, Cha],
        gear: &[
            ("Longbow", "1d8 piercing at range.", 1),
            ("Arrows", "For the bow.", 20),
            ("Shortsword", "1d6 piercing; finesse.", 1),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
        ],
        gear_added_with_kinds: &["Shortsword", "Leather armor"],
        abilities: &[
            ("Hunter's Mark", "+1d6 damage against the quarry you name."),
            (
                "Wanderer",
                "Never lost in the wild; you read tracks easily.",
            ),
        ],
        proficiencies: ClassProficiencies {
            saves: [Str, Dex],
            skills: &[
                Skill::AnimalHandling,
                Skill::Athletics,
                Skill::Insight,
                Skill::Investigation,
                Skill::Nature,
                Skill::Perception,
                Skill::Stealth,
                Skill::Survival,
            ],
            choose: 3,
        },
    },
    ClassPreset {
        name: "Bard",
        hit_die: HitDie::D8,
        priorities: [Cha, Dex, Con, Wis, Int, Str],
        gear: &[
            ("Lute", "Fine and loud.", 1),
            ("Rapier", "1d8 piercing.", 1),
            ("Leather armor", "Light armour: AC 11 + DEX.", 1),
        ],
        gear_added_with_kinds: &["Leather armor"],
        abilities: &[
            (
                "Inspiration",
                "Once per rest, add 1d6 to a roll of yours or a friend's.",
            ),
            ("Silver Tongue", "Friendly listeners believe you."),
        ],
        proficiencies: ClassProficiencies {
            saves: [Dex, Cha],
            skills: &[],
            choose: 3,
        },
    },
];

/// The preset called `name` (any case), if there is one.
pub fn preset(name: &str) -> Option<&'static ClassPreset> {
    PRESETS
        .iter()
        .find(|preset| preset.name.eq_ignore_ascii_case(name.trim()))
}

impl ClassPreset {
    /// The standard array arranged by this class's priorities, in sheet order.
    pub fn suggested_scores(&self) -> [u8; 6] {
        let mut scores = [0; 6];
        for (attribute, score) in self.priorities.iter().zip(STANDARD_ARRAY) {
            let slot = Attribute::ALL.iter().position(|a| a == attribute);
            scores[slot.unwrap_or_default()] = score;
        }
        scores
    }
}

/// The points a point-buy score costs, or `None` outside 8..=15.
pub fn point_cost(score: i64) -> Option<u32> {
    match score {
        8..=13 => u32::try_from(score - 8).ok(),
        14 => Some(7),
        15 => Some(9),
        _ => None,
    }
}

/// Checks six scores under `method`.
pub fn check_scores(method: ScoreMethod, scores: &[i64]) -> Result<Attributes, CreationError> {
    if scores.len() != 6 {
        return Err(CreationError::ScoreCount {
            count: scores.len(),
        });
    }
    match method {
        ScoreMethod::StandardArray => {
            let mut sorted = scores.to_vec();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            if sorted != STANDARD_ARRAY.map(i64::from) {
                return Err(CreationError::NotTheArray);
            }
        }
        ScoreMethod::PointBuy => {
            let mut spent = 0;
            for (attribute, value) in Attribute::ALL.into_iter().zip(scores) {
                spent += point_cost(*value).ok_or(CreationError::PointBuyRange {
                    attribute,
                    value: *value,
                })?;
            }
            if spent > POINT_BUY_BUDGET {
                return Err(CreationError::OverBudget { spent });
            }
        }
    }
    Ok(attributes_from(scores))
}

/// Scores in sheet order as attributes, each clamped into 1..=30 (missing ones 10).
pub fn attributes_from(scores: &[i64]) -> Attributes {
    let mut attributes = Attributes::default();
    for (attribute, value) in Attribute::ALL.into_iter().zip(scores) {
        attributes.set(attribute, AttributeScore::clamped(*value));
    }
    attributes
}

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

/// `made`, a character as the creation rules make it, as they made it before spells and class
/// features counted: no powers, and a preset's signature abilities all listed as text.
pub fn created_before_powers(made: &CharacterSheet) -> CharacterSheet {
    if made.powers().is_none() {
        return made.clone();
    }
    let mut sheet = made.clone().before_powers();
    if let Ok(all) = abilities(preset(made.class().as_str()), "") {
        if preset(made.class().as_str()).is_some() {
            sheet.abilities = all;
        }
    }
    sheet
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

/// `fresh`, a character just made by [`CharacterDraft::create`], as the creation rules made it
/// before items were typed: without the gear its class gained then
/// ([`ClassPreset::gear_added_with_kinds`]), every item plain gear, nothing equipped, no
/// proficiencies.
pub fn created_before_typed_items(fresh: &CharacterSheet) -> CharacterSheet {
    let added: Vec<Slug> = preset(fresh.class().as_str())
        .map_or(&[][..], |p| p.gear_added_with_kinds)
        .iter()
        .filter_map(|name| Slug::new(name).ok())
        .collect();
    let mut sheet = fresh.clone().before_hit_dice_pool().before_proficiencies();
    sheet.inventory = fresh.inventory().untyped(&added);
    sheet
}

fn abilities(preset: Option<&ClassPreset>, custom: &str) -> Result<Vec<Ability>, CreationError> {
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

/// Characters for tests elsewhere in the crate.
#[cfg(all(test, feature = "ssr"))]
pub(crate) mod tests_support {
    use super::CharacterDraft;
    use crate::game::text::LocationName;
    use crate::game::CharacterSheet;

    /// A Rogue made by the creation rules (DEX 15, 9 HP, daggers and a healing potion).
    pub(crate) fn rogue() -> CharacterSheet {
        of_class("Rogue")
    }

    /// A level-1 character of the preset `class`, made by the creation rules.
    pub(crate) fn of_class(class: &str) -> CharacterSheet {
        let draft = CharacterDraft {
            name: "Vex".into(),
            class: class.into(),
            ..CharacterDraft::default()
        };
        draft
            .create(LocationName::new("The gate").expect("valid"))
            .expect("a valid preset")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::features::Feature;

    fn draft(class: &str) -> CharacterDraft {
        CharacterDraft {
            name: "Vex".into(),
            class: class.into(),
            ..CharacterDraft::default()
        }
    }

    fn start() -> LocationName {
        LocationName::new("The beginning").unwrap()
    }

    #[test]
    fn a_preset_brings_its_scores_hit_points_gear_and_abilities() {
        let sheet = draft("rogue").create(start()).unwrap();
        assert_eq!(sheet.class().as_str(), "Rogue");
        assert_eq!(sheet.attributes().dexterity.value(), 15);
        assert_eq!(sheet.attributes().strength.value(), 8);
        // d8 + CON 13 (+1).
        assert_eq!(
            (sheet.hit_points().current(), sheet.hit_points().max()),
            (9, 9)
        );
        let items: Vec<&str> = sheet
            .inventory()
            .items()
            .iter()
            .map(|i| i.name().as_str())
            .collect();
        assert_eq!(
            items,
            [
                "Shortsword",
                "Dagger",
                "Leather armor",
                "Thieves' tools",
                "Healing potion",
                "Torch",
                "Rations"
            ]
        );
        // Its signature abilities are the rules' class features now, not lines of text.
        assert!(sheet.abilities().is_empty());
        let features: Vec<Feature> = sheet.features().into_iter().map(|(f, _)| f).collect();
        assert_eq!(features, [Feature::SneakAttack]);
        assert_eq!(sheet.spellcasting(), None);
        let before = created_before_powers(&sheet);
        let abilities: Vec<&str> = before.abilities().iter().map(|a| a.name.as_str()).collect();
        assert_eq!(abilities, ["Sneak Attack", "Cunning Action"]);
        assert_eq!(sheet.sanity(), None);
        assert_eq!(sheet.stakes(), Stakes::Heroic);
    }

    #[test]
    fn the_player_may_rearrange_the_array_or_buy_points() {
        let mut rogue = draft("Rogue");
        rogue.scores = Some(vec![8, 15, 14, 13, 12, 10]);
        let sheet = rogue.create(start()).unwrap();
        assert_eq!(sheet.attributes().constitution.value(), 14);
        assert_eq!(sheet.hit_points().max(), 10);

        rogue.scores = Some(vec![15, 15, 15, 8, 8, 8]);
        assert_eq!(
            rogue.create(start()).unwrap_err(),
            CreationError::NotTheArray
        );
        rogue.method = ScoreMethod::PointBuy;
        assert_eq!(
            rogue.create(start()).unwrap().attributes().strength.value(),
            15
        );
        rogue.scores = Some(vec![15, 15, 15, 10, 8, 8]);
        assert_eq!(
            rogue.create(start()).unwrap_err(),
            CreationError::OverBudget { spent: 29 }
        );
        rogue.scores = Some(vec![16, 8, 8, 8, 8, 8]);
        assert_eq!(
            rogue.create(start()).unwrap_err().to_string(),
            "with point-buy each score is 8 to 15 (STR is 16)"
        );
        rogue.scores = Some(vec![10; 5]);
        assert!(matches!(
            rogue.create(start()),
            Err(CreationError::ScoreCount { count: 5 })
        ));
    }

    #[test]
    fn a_custom_class_is_a_d8_with_the_common_gear_and_its_own_ability() {
        let mut custom = draft("Lamplighter");
        custom.ability = "Never afraid of the dark".into();
        custom.sanity = true;
        custom.stakes = Stakes::Gritty;
        custom.backstory = "Raised in the lamp-house.".into();
        let sheet = custom.create(start()).unwrap();
        assert_eq!(sheet.class().as_str(), "Lamplighter");
        assert_eq!(sheet.hit_points().max(), 9);
        assert_eq!(sheet.inventory().len(), COMMON_GEAR.len());
        assert_eq!(
            sheet.abilities()[0].name.as_str(),
            "Never afraid of the dark"
        );
        assert_eq!(sheet.sanity().map(Sanity::value), Some(100));
        assert_eq!(sheet.stakes(), Stakes::Gritty);
        assert_eq!(
            sheet.backstory().map(Backstory::as_str),
            Some("Raised in the lamp-house.")
        );
    }

    #[test]
    fn a_sheet_gives_back_the_draft_that_made_it() {
        let mut custom = draft("Lamplighter");
        custom.ability = "Lamp lore".into();
        custom.method = ScoreMethod::PointBuy;
        custom.scores = Some(vec![15, 15, 15, 8, 8, 8]);
        custom.sanity = true;
        for draft in [draft("Wizard"), custom] {
            let sheet = draft.create(start()).unwrap();
            assert_eq!(CharacterDraft::of(&sheet).create(start()).unwrap(), sheet);
        }
    }

    #[test]
    fn skills_are_chosen_from_the_class_s_list_and_saves_come_with_the_class() {
        use crate::game::proficiency::Skill;
        let mut rogue = draft("Rogue");
        rogue.skills = ["Stealth", "sleight of hand", "Perception", "Deception"]
            .map(String::from)
            .to_vec();
        let sheet = rogue.create(start()).unwrap();
        let proficiencies = sheet.proficiencies();
        assert_eq!(
            proficiencies.skills(),
            [
                Skill::Deception,
                Skill::Perception,
                Skill::SleightOfHand,
                Skill::Stealth
            ]
        );
        assert_eq!(
            proficiencies.saves(),
            [Attribute::Dexterity, Attribute::Intelligence]
        );
        // None chosen: the class's first ones.
        let wizard = draft("Wizard").create(start()).unwrap();
        assert_eq!(
            wizard.proficiencies().skills(),
            [Skill::Arcana, Skill::History]
        );
        let refusals = [
            (
                "Wizard",
                vec!["Stealth", "Arcana"],
                "Stealth is not one of this class's skills",
            ),
            (
                "Wizard",
                vec!["Arcana"],
                "choose 2 different skills (got 1)",
            ),
            (
                "Fighter",
                vec!["Athletics", "Lockpicking"],
                "unknown skill \"Lockpicking\"",
            ),
        ];
        for (class, skills, message) in refusals {
            let mut wrong = draft(class);
            wrong.skills = skills.into_iter().map(String::from).collect();
            let error = wrong.create(start()).unwrap_err().to_string();
            assert!(error.contains(message), "{error}");
        }
        // A class of the player's own: any two skills, the saves of its two highest scores.
        let mut own = draft("Lamplighter");
        own.skills = vec!["Arcana".into(), "Stealth".into()];
        own.method = ScoreMethod::PointBuy;
        own.scores = Some(vec![8, 14, 10, 15, 8, 14]);
        let lamplighter = own.create(start()).unwrap();
        assert_eq!(
            lamplighter.proficiencies().saves(),
            [Attribute::Dexterity, Attribute::Intelligence]
        );
        assert_eq!(
            CharacterDraft::of(&lamplighter).create(start()).unwrap(),
            lamplighter
        );
    }

    #[test]
    fn every_preset_offers_enough_skills_for_its_choice() {
        for preset in PRESETS {
            let offers = preset.proficiencies;
            assert!(offers.offered().len() >= offers.choose, "{}", preset.name);
            assert_eq!(
                offers.choose(&offers.default_choice()).unwrap().len(),
                offers.choose
            );
            assert_ne!(offers.saves[0], offers.saves[1], "{}", preset.name);
        }
    }

    #[test]
    fn each_class_starts_with_typed_gear_equipped() {
        // Class, equipped weapon, armour, shield, AC, to hit, damage (suggested scores).
        let expected = [
            (
                "Fighter",
                "Longsword",
                Some("Chain mail"),
                true,
                18,
                4,
                "1d8+2",
            ),
            (
                "Rogue",
                "Shortsword",
                Some("Leather armor"),
                false,
                13,
                4,
                "1d6+2",
            ),
            ("Wizard", "Quarterstaff", None, false, 11, 1, "1d6-1"),
            ("Cleric", "Mace", Some("Scale mail"), true, 16, 3, "1d6+1"),
            (
                "Ranger",
                "Longbow",
                Some("Leather armor"),
                false,
                13,
                4,
                "1d8+2",
            ),
            (
                "Bard",
                "Rapier",
                Some("Leather armor"),
                false,
                13,
                4,
                "1d8+2",
            ),
            ("Lamplighter", "Unarmed strike", None, false, 12, 4, "3"),
        ];
        for (class, weapon, armor, shield, ac, to_hit, damage) in expected {
            let sheet = draft(class).create(start()).unwrap();
            let equipped = sheet.equipped();
            let worn = equipped.armor.map(|i| i.name().as_str());
            assert_eq!(worn, armor, "{class}");
            assert_eq!(equipped.shield.is_some(), shield, "{class}");
            assert_eq!(sheet.armor_class().value(), ac, "{class}");
            let attack = sheet.weapon_attack(None).unwrap();
            assert_eq!(attack.name(), weapon, "{class}");
            assert_eq!(attack.to_hit(), to_hit, "{class}");
            assert_eq!(attack.damage_notation(), damage, "{class}");
            let potion = sheet
                .inventory()
                .items()
                .iter()
                .find(|i| i.name().as_str() == "Healing potion");
            assert_eq!(potion.unwrap().kind().summary(), "heals 2d4+2");
            let gear = preset(class).map_or(&[][..], |p| p.gear_added_with_kinds);
            for added in gear {
                assert!(
                    sheet.inventory().get(&Slug::new(added).unwrap()).is_some(),
                    "{added}"
                );
            }
        }
    }

    #[test]
    fn a_character_created_before_items_were_typed_still_checks_against_creation() {
        let files = [
            include_str!("fixtures/fighter-before-typed-items.json"),
            include_str!("fixtures/rogue-before-typed-items.json"),
        ];
        for old in files {
            let sheet: CharacterSheet = serde_json::from_str(old).unwrap();
            let items = sheet.inventory().items();
            assert!(items.iter().all(|i| i.kind().is_gear() && !i.is_equipped()));
            assert_eq!(serde_json::to_string(&sheet).unwrap(), old.trim());
            // Unarmoured and unarmed: 10 + DEX, 1 + STR.
            let dex = sheet.attributes().dexterity.modifier();
            assert_eq!(i16::from(sheet.armor_class().value()), 10 + i16::from(dex));
            assert_eq!(sheet.weapon_attack(None).unwrap().name(), "Unarmed strike");
            let fresh = CharacterDraft::of(&sheet)
                .create(sheet.location().clone())
                .unwrap();
            assert_ne!(fresh, sheet);
            assert_eq!(
                created_before_typed_items(&created_before_powers(&fresh)),
                sheet
            );
        }
    }

    #[test]
    fn bad_text_is_refused_with_its_field() {
        let long = draft(&"x".repeat(10_000)).create(start()).unwrap_err();
        assert!(
            long.to_string()
                .starts_with("class is 10000 characters long"),
            "{long}"
        );
        let mut blank = draft("Rogue");
        blank.name = "  ".into();
        assert!(blank
            .create(start())
            .unwrap_err()
            .to_string()
            .contains("character name"));
        let mut story = draft("Rogue");
        story.backstory = "a".repeat(Backstory::MAX_CHARS + 1);
        assert!(story
            .create(start())
            .unwrap_err()
            .to_string()
            .contains("backstory"));
    }

    #[test]
    fn point_costs_follow_the_table() {
        let costs: Vec<Option<u32>> = (7..=16).map(point_cost).collect();
        assert_eq!(
            costs,
            [
                None,
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(4),
                Some(5),
                Some(7),
                Some(9),
                None
            ]
        );
        for preset in PRESETS {
            let mut sorted = preset.suggested_scores();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(sorted, STANDARD_ARRAY, "{}", preset.name);
        }
    }
}
