//! Proficiency: the eighteen skills of the SRD, each with the attribute it uses, and what a
//! character is proficient in (skills chosen at creation from the class's list, the class's two
//! saving throws). A check in a skill the character is proficient in, or a save of one of their
//! saving throws, adds the level's proficiency bonus ([`proficiency_bonus`]) to the attribute's
//! modifier; weapon attacks always add it (see [`equipment`](super::equipment)).
//!
//! [`proficiency_bonus`]: super::progression::proficiency_bonus

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::attributes::Attribute;
use super::text::excerpt;

/// A text that names no skill.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown skill \"{text}\"; expected one of {}", Skill::names())]
pub struct SkillError {
    /// The start of the rejected text.
    pub text: String,
}

/// One of the SRD's eighteen skills. Parses in any case, with spaces, hyphens or underscores
/// between words (`"sleight of hand"`, `"Sleight-of-Hand"`); displays and serialises by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skill {
    /// DEX.
    Acrobatics,
    /// WIS.
    AnimalHandling,
    /// INT.
    Arcana,
    /// STR.
    Athletics,
    /// CHA.
    Deception,
    /// INT.
    History,
    /// WIS.
    Insight,
    /// CHA.
    Intimidation,
    /// INT.
    Investigation,
    /// WIS.
    Medicine,
    /// INT.
    Nature,
    /// WIS.
    Perception,
    /// CHA.
    Performance,
    /// CHA.
    Persuasion,
    /// INT.
    Religion,
    /// DEX.
    SleightOfHand,
    /// DEX.
    Stealth,
    /// WIS.
    Survival,
}

use Skill::*;

impl Skill {
    /// Every skill, in alphabetical order.
    pub const ALL: [Skill; 18] = [
        Acrobatics,
        AnimalHandling,
        Arcana,
        Athletics,
        Deception,
        History,
        Insight,
        Intimidation,
        Investigation,
        Medicine,
        Nature,
        Perception,
        Performance,
        Persuasion,
        Religion,
        SleightOfHand,
        Stealth,
        Survival,
    ];

    /// The skill's name (`Sleight of Hand`).
    pub fn name(self) -> &'static str {
        match self {
            Acrobatics => "Acrobatics",
            AnimalHandling => "Animal Handling",
            Arcana => "Arcana",
            Athletics => "Athletics",
            Deception => "Deception",
            History => "History",
            Insight => "Insight",
            Intimidation => "Intimidation",
            Investigation => "Investigation",
            Medicine => "Medicine",
            Nature => "Nature",
            Perception => "Perception",
            Performance => "Performance",
            Persuasion => "Persuasion",
            Religion => "Religion",
            SleightOfHand => "Sleight of Hand",
            Stealth => "Stealth",
            Survival => "Survival",
        }
    }

    /// The attribute whose modifier a check in this skill adds.
    pub fn attribute(self) -> Attribute {
        match self {
            Athletics => Attribute::Strength,
            Acrobatics | SleightOfHand | Stealth => Attribute::Dexterity,
            Arcana | History | Investigation | Nature | Religion => Attribute::Intelligence,
            AnimalHandling | Insight | Medicine | Perception | Survival => Attribute::Wisdom,
            Deception | Intimidation | Performance | Persuasion => Attribute::Charisma,
        }
    }

    /// The skill a dice reason names when it is the skill's name alone, or the name followed by
    /// "check" (`"Stealth"`, `"athletics check"`); `None` for any other reason.
    pub fn named_by(reason: &str) -> Option<Skill> {
        let mut named: Vec<&str> = words(reason).collect();
        if named.len() > 1
            && named
                .last()
                .is_some_and(|last| last.eq_ignore_ascii_case("check"))
        {
            named.pop();
        }
        Skill::ALL
            .into_iter()
            .find(|skill| same_words(named.iter().copied(), skill.name()))
    }

    fn names() -> String {
        Skill::ALL.map(Skill::name).join(", ")
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The words of a name: split at white space, hyphens and underscores.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|word| !word.is_empty())
}

/// Whether `words` are the words of `name`, whatever their case.
fn same_words<'a>(mut words: impl Iterator<Item = &'a str>, name: &str) -> bool {
    let mut named = self::words(name);
    loop {
        match (words.next(), named.next()) {
            (None, None) => return true,
            (Some(word), Some(expected)) if word.eq_ignore_ascii_case(expected) => {}
            _ => return false,
        }
    }
}

impl FromStr for Skill {
    type Err = SkillError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Skill::ALL
            .into_iter()
            .find(|skill| same_words(words(s), skill.name()))
            .ok_or_else(|| SkillError {
                text: excerpt(s.trim()),
            })
    }
}

impl Serialize for Skill {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Skill {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        raw.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Skill {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Skill")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Skill::ALL.iter().map(|s| s.name()).collect();
        json_schema!({ "type": "string", "enum": names })
    }
}

/// What a class offers: its two saving throws, the skills to choose from (every skill when
/// the list is empty) and how many to choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassProficiencies {
    /// The saving throws the class is proficient in.
    pub saves: [Attribute; 2],
    /// The skills to choose from; empty for any skill.
    pub skills: &'static [Skill],
    /// How many skills to choose.
    pub choose: usize,
}

impl ClassProficiencies {
    /// The skills this class may choose from.
    pub fn offered(&self) -> Vec<Skill> {
        if self.skills.is_empty() {
            Skill::ALL.to_vec()
        } else {
            self.skills.to_vec()
        }
    }

    /// The skills chosen when the player chose none: the first ones offered.
    pub fn default_choice(&self) -> Vec<Skill> {
        self.offered().into_iter().take(self.choose).collect()
    }

    /// `chosen` checked against this class's list: exactly as many as the class chooses, each
    /// offered, none twice. Returned sorted.
    pub fn choose(&self, chosen: &[Skill]) -> Result<Vec<Skill>, SkillChoiceError> {
        let offered = self.offered();
        if let Some(skill) = chosen.iter().find(|s| !offered.contains(s)) {
            return Err(SkillChoiceError::NotOffered {
                skill: *skill,
                offered: offered
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let mut skills = chosen.to_vec();
        skills.sort_unstable();
        skills.dedup();
        if skills.len() != chosen.len() || skills.len() != self.choose {
            return Err(SkillChoiceError::Count {
                choose: self.choose,
                given: chosen.len(),
            });
        }
        Ok(skills)
    }
}

/// Skills chosen at creation that the class does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SkillChoiceError {
    /// A skill not on the class's list.
    #[error("{skill} is not one of this class's skills ({offered})")]
    NotOffered {
        /// The skill.
        skill: Skill,
        /// The class's skills.
        offered: String,
    },
    /// Too many or too few, or one twice.
    #[error("choose {choose} different skills (got {given})")]
    Count {
        /// How many the class chooses.
        choose: usize,
        /// How many were given.
        given: usize,
    },
}

/// What a character is proficient in. Serialises as `{"skills": ["Stealth"], "saves": ["DEX"]}`;
/// a sheet made before proficiencies has none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ProficienciesWire")]
pub struct Proficiencies {
    skills: Vec<Skill>,
    saves: Vec<Attribute>,
}

#[derive(Deserialize)]
struct ProficienciesWire {
    #[serde(default)]
    skills: Vec<Skill>,
    #[serde(default)]
    saves: Vec<Attribute>,
}

/// A skill or a save listed twice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a proficiency is listed twice")]
pub struct RepeatedProficiency;

impl TryFrom<ProficienciesWire> for Proficiencies {
    type Error = RepeatedProficiency;

    fn try_from(wire: ProficienciesWire) -> Result<Self, Self::Error> {
        let made = Self::new(wire.skills.clone(), wire.saves.clone());
        if made.skills.len() == wire.skills.len() && made.saves.len() == wire.saves.len() {
            Ok(made)
        } else {
            Err(RepeatedProficiency)
        }
    }
}

impl Proficiencies {
    /// Proficiency in `skills` and `saves`, each sorted and listed once.
    pub fn new(mut skills: Vec<Skill>, mut saves: Vec<Attribute>) -> Self {
        skills.sort_unstable();
        skills.dedup();
        saves.sort_unstable();
        saves.dedup();
        Self { skills, saves }
    }

    /// The skills, in alphabetical order.
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// The saving throws, in sheet order.
    pub fn saves(&self) -> &[Attribute] {
        &self.saves
    }

    /// Whether there are none (a sheet made before proficiencies).
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty() && self.saves.is_empty()
    }

    /// Whether a check in `skill` adds the proficiency bonus.
    pub fn has_skill(&self, skill: Skill) -> bool {
        self.skills.contains(&skill)
    }

    /// Whether a save of `attribute` adds the proficiency bonus.
    pub fn has_save(&self, attribute: Attribute) -> bool {
        self.saves.contains(&attribute)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skill_parses_from_its_name_in_any_spelling() {
        for skill in Skill::ALL {
            assert_eq!(skill.name().parse::<Skill>(), Ok(skill));
            assert_eq!(skill.name().to_uppercase().parse::<Skill>(), Ok(skill));
            let hyphened = skill.name().replace(' ', "-");
            assert_eq!(hyphened.parse::<Skill>(), Ok(skill));
        }
        let error = "Lockpicking".parse::<Skill>().unwrap_err();
        assert!(error.to_string().contains("unknown skill \"Lockpicking\""));
        assert!(error.to_string().contains("Sleight of Hand"));
    }

    #[test]
    fn skills_use_the_srd_attributes() {
        let count = |attribute| {
            Skill::ALL
                .iter()
                .filter(|s| s.attribute() == attribute)
                .count()
        };
        assert_eq!(Skill::Athletics.attribute(), Attribute::Strength);
        assert_eq!(Skill::Stealth.attribute(), Attribute::Dexterity);
        assert_eq!(Skill::Perception.attribute(), Attribute::Wisdom);
        assert_eq!(
            [
                Attribute::Strength,
                Attribute::Dexterity,
                Attribute::Constitution,
                Attribute::Intelligence,
                Attribute::Wisdom,
                Attribute::Charisma
            ]
            .map(count),
            [1, 3, 0, 5, 5, 4]
        );
    }

    #[test]
    fn a_reason_names_a_skill_only_by_its_name() {
        assert_eq!(Skill::named_by("Stealth"), Some(Skill::Stealth));
        assert_eq!(Skill::named_by(" athletics check "), Some(Skill::Athletics));
        assert_eq!(Skill::named_by("Sneak past the guard"), None);
        assert_eq!(Skill::named_by("Stealthy approach"), None);
    }

    #[test]
    fn a_class_choice_must_be_its_own_count_of_its_own_skills() {
        let fighter = ClassProficiencies {
            saves: [Attribute::Strength, Attribute::Constitution],
            skills: &[Athletics, Perception, Survival],
            choose: 2,
        };
        assert_eq!(
            fighter.choose(&[Survival, Athletics]),
            Ok(vec![Athletics, Survival])
        );
        assert_eq!(fighter.default_choice(), vec![Athletics, Perception]);
        let error = fighter.choose(&[Athletics, Stealth]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Stealth is not one of this class's skills (Athletics, Perception, Survival)"
        );
        assert!(matches!(
            fighter.choose(&[Athletics, Athletics]),
            Err(SkillChoiceError::Count { given: 2, .. })
        ));
        assert!(fighter.choose(&[Athletics]).is_err());
        let any = ClassProficiencies {
            skills: &[],
            ..fighter
        };
        assert_eq!(any.offered().len(), 18);
        assert!(any.choose(&[Stealth, Arcana]).is_ok());
    }

    #[test]
    fn proficiencies_round_trip_and_refuse_repeats() {
        let made = Proficiencies::new(
            vec![Stealth, Acrobatics],
            vec![Attribute::Intelligence, Attribute::Dexterity],
        );
        let json = serde_json::to_value(&made).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"skills": ["Acrobatics", "Stealth"], "saves": ["DEX", "INT"]})
        );
        assert_eq!(serde_json::from_value::<Proficiencies>(json).unwrap(), made);
        assert!(made.has_skill(Stealth) && !made.has_skill(Arcana));
        assert!(made.has_save(Attribute::Dexterity) && !made.has_save(Attribute::Wisdom));
        let repeated = serde_json::json!({"skills": ["Stealth", "stealth"]});
        assert!(serde_json::from_value::<Proficiencies>(repeated).is_err());
        assert!(Proficiencies::default().is_empty());
    }
}
