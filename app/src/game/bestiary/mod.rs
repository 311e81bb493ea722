//! Foes as typed state: the bestiary shipped with the game, and foes made from a challenge
//! rating.
//!
//! [`Bestiary::srd`] holds the creatures of `creatures.json` (figures from the System Reference
//! Document 5.1, CC-BY-4.0), parsed once into [`Creature`]s; a test proves every entry valid.
//! A creature's `attacks` are what it does on each of its turns, its multiattack spelled out (a
//! troll: bite, claw, claw). Damage that always rides on a hit is kept (`extra`: a hell hound's
//! fire); damage a saving throw could halve is left out, as the hero makes no saves in a fight.
//!
//! A foe the bestiary lacks comes from [`Creature::from_rating`]: a name and a challenge rating,
//! its numbers from the statistics for that rating (the guideline's, and the bestiary's own at
//! low ratings, where the guideline runs high). Neither way lets the model write a foe's armour
//! class, hit points or attack bonus.

mod by_rating;
mod challenge;
mod creature;
mod damage;

use std::sync::OnceLock;

pub use by_rating::RatingStatistics;
pub use challenge::{ChallengeError, ChallengeRating};
pub use creature::{
    AbilityModifiers, ArmorClass, Attack, AttackName, AttackNameKind, Creature, CreatureError,
    CreatureFigures, CreatureName, CreatureNameKind,
};
pub use damage::{
    average, check_damage_dice, double_dice, Damage, DamageError, DamageType, MAX_DAMAGE_DICE,
};

use crate::game::text::{did_you_mean, excerpt};

/// The bestiary's data: SRD 5.1 figures, one creature a line.
const CREATURES_JSON: &str = include_str!("creatures.json");

/// The most names an [`UnknownFoe`] error suggests.
const MAX_SUGGESTIONS: usize = 3;

/// A name the bestiary does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no creature \"{name}\" in the bestiary{}; a foe it lacks needs a challenge rating",
    did_you_mean(.suggestions)
)]
pub struct UnknownFoe {
    /// The start of the name asked for.
    pub name: String,
    /// Bestiary names sharing a word with it, at most three.
    pub suggestions: Vec<String>,
}

/// Bestiary data that does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestiaryError {
    /// An entry is malformed or breaks a creature's bounds.
    #[error("bestiary data: {0}")]
    Invalid(String),
    /// Two entries share a name (ignoring case).
    #[error("bestiary data: {name} is listed twice")]
    Duplicate {
        /// The name listed again.
        name: String,
    },
}

/// The creatures the game knows by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bestiary {
    creatures: Vec<Creature>,
}

impl Bestiary {
    /// The bestiary shipped with the game, parsed on first use.
    pub fn srd() -> &'static Bestiary {
        static SRD: OnceLock<Bestiary> = OnceLock::new();
        SRD.get_or_init(|| {
            // A test proves the shipped data parses; an empty bestiary is the fallback.
            Self::parse(CREATURES_JSON).unwrap_or(Bestiary {
                creatures: Vec::new(),
            })
        })
    }

    /// Parses a bestiary from a JSON array of creatures; names must be unique ignoring case.
    pub fn parse(json: &str) -> Result<Self, BestiaryError> {
        let creatures: Vec<Creature> =
            serde_json::from_str(json).map_err(|e| BestiaryError::Invalid(e.to_string()))?;
        for (i, creature) in creatures.iter().enumerate() {
            if creatures[..i]
                .iter()
                .any(|other| other.name().eq_ignore_case(creature.name()))
            {
                return Err(BestiaryError::Duplicate {
                    name: creature.name().to_string(),
                });
            }
        }
        Ok(Self { creatures })
    }

    /// Every creature, weakest first as written.
    pub fn creatures(&self) -> &[Creature] {
        &self.creatures
    }

    /// How many creatures it holds.
    pub fn len(&self) -> usize {
        self.creatures.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.creatures.is_empty()
    }

    /// The creature called `name`, ignoring case and extra spaces (`"giant  SPIDER"`).
    pub fn get(&self, name: &str) -> Result<&Creature, UnknownFoe> {
        let key = normalise(name);
        self.creatures
            .iter()
            .find(|c| normalise(c.name().as_str()) == key)
            .ok_or_else(|| UnknownFoe {
                name: excerpt(name.trim()),
                suggestions: self.suggestions(&key),
            })
    }

    /// Up to three names sharing a word with `key` (already normalised).
    fn suggestions(&self, key: &str) -> Vec<String> {
        let words: Vec<&str> = key.split(' ').filter(|w| w.len() > 2).collect();
        self.creatures
            .iter()
            .filter(|c| {
                let name = normalise(c.name().as_str());
                name.split(' ')
                    .any(|w| words.iter().any(|k| *k == w || *k == format!("{w}s")))
            })
            .take(MAX_SUGGESTIONS)
            .map(|c| c.name().to_string())
            .collect()
    }
}

/// A name as lookups compare it: lower case, runs of whitespace folded to one space.
pub(in crate::game) fn normalise(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::attributes::Attribute;

    fn srd() -> &'static Bestiary {
        Bestiary::srd()
    }

    #[test]
    fn the_shipped_data_parses_whole() {
        let parsed = Bestiary::parse(CREATURES_JSON).expect("creatures.json is valid");
        assert!(parsed.len() >= 40, "{} creatures", parsed.len());
        assert_eq!(srd(), &parsed);
    }

    #[test]
    fn every_entry_is_sound() {
        for creature in srd().creatures() {
            let name = creature.name();
            assert!((1..=30).contains(&creature.armor_class().value()), "{name}");
            assert!(
                (1..=Creature::MAX_HP).contains(&creature.hit_points()),
                "{name}"
            );
            assert!(!creature.attacks().is_empty(), "{name}");
            assert_eq!(creature.xp(), creature.challenge().xp(), "{name}");
            for attack in creature.attacks() {
                assert!(attack.damage().average() >= 1, "{name} {}", attack.name());
                check_damage_dice(attack.damage().dice()).unwrap();
            }
            // What the snapshot stores reads back the same.
            let json = serde_json::to_string(creature).unwrap();
            assert_eq!(&serde_json::from_str::<Creature>(&json).unwrap(), creature);
        }
    }

    #[test]
    fn the_bestiary_spans_ratings_zero_to_five_and_beyond() {
        let ratings: Vec<String> = srd()
            .creatures()
            .iter()
            .map(|c| c.challenge().to_string())
            .collect();
        for cr in ["0", "1/8", "1/4", "1/2", "1", "2", "3", "5"] {
            assert!(ratings.iter().any(|r| r == cr), "no creature of CR {cr}");
        }
        let rising = srd()
            .creatures()
            .windows(2)
            .all(|w| w[0].challenge() <= w[1].challenge());
        assert!(rising, "the data lists the weakest first");
    }

    #[test]
    fn known_figures() {
        let goblin = srd().get("goblin").unwrap();
        assert_eq!(
            goblin.summary(),
            crate::game::bestiary::creature::tests::goblin().summary()
        );
        let troll = srd().get("Troll").unwrap();
        assert_eq!(
            (troll.armor_class().value(), troll.hit_points(), troll.xp()),
            (15, 84, 1_800)
        );
        let routine: Vec<&str> = troll.attacks().iter().map(|a| a.name().as_str()).collect();
        assert_eq!(routine, ["bite", "claw", "claw"]);
        let hound = srd().get("hell hound").unwrap();
        let bite = &hound.attacks()[0];
        assert_eq!(bite.damage().to_string(), "1d8+3 piercing");
        assert_eq!(bite.extra().unwrap().to_string(), "2d6 fire");
        let ogre = srd().get("Ogre").unwrap();
        assert_eq!(ogre.hit_dice().to_string(), "7d10+21");
        assert_eq!(ogre.abilities().get(Attribute::Strength), 4);
        assert_eq!(srd().get("Young Green Dragon").unwrap().xp(), 3_900);
    }

    #[test]
    fn lookup_ignores_case_and_spacing() {
        for name in [
            "Giant Spider",
            "giant spider",
            "  GIANT   spider ",
            "Giant\tSpider",
        ] {
            assert_eq!(srd().get(name).unwrap().name().as_str(), "Giant Spider");
        }
    }

    #[test]
    fn an_unknown_foe_is_a_typed_error_with_suggestions() {
        let err = srd().get("Beholder").unwrap_err();
        assert_eq!(err.name, "Beholder");
        assert!(err.suggestions.is_empty());
        assert_eq!(
            err.to_string(),
            "no creature \"Beholder\" in the bestiary; a foe it lacks needs a challenge rating"
        );
        let err = srd().get("cave spiders").unwrap_err();
        assert_eq!(err.suggestions, ["Giant Spider", "Phase Spider"]);
        assert!(err
            .to_string()
            .contains("(did you mean Giant Spider, Phase Spider?)"));
        let err = srd().get(&"x".repeat(500)).unwrap_err();
        assert!(err.name.chars().count() <= 41);
    }

    #[test]
    fn duplicates_and_bad_entries_are_refused() {
        let one = serde_json::to_string(srd().get("Goblin").unwrap()).unwrap();
        let twice = format!("[{one},{}]", one.replace("Goblin", "GOBLIN"));
        assert_eq!(
            Bestiary::parse(&twice).unwrap_err().to_string(),
            "bestiary data: GOBLIN is listed twice"
        );
        let bad = one.replace("\"ac\":15", "\"ac\":40");
        let err = Bestiary::parse(&format!("[{bad}]")).unwrap_err();
        assert!(matches!(err, BestiaryError::Invalid(_)));
        assert!(err
            .to_string()
            .contains("armour class must be 1..=30 (got 40)"));
    }
}
