//! The spell book: the spells of `spells.json`, checked once when loaded and found by name.
//!
//! A name is looked up however it is written: letter case, spacing and punctuation do not matter,
//! so `"Magic Missile"`, `"magic  missile"`, `"MAGIC-MISSILE"` and the slug `magic-missile` are
//! the same spell, as are `"Hunter's Mark"` and `"hunters mark"`.

use std::sync::OnceLock;

use crate::game::bestiary::{check_damage_dice, DamageError};
use crate::game::dice::DiceExpr;
use crate::game::text::{did_you_mean, excerpt, Slug};

use super::spell::{
    CastingTime, Delivery, OnSave, Scaling, Spell, SpellEffect, SpellLevel, SpellList, SpellRange,
};

/// The spell book's data: SRD 5.1 figures, one spell a line.
const SPELLS_JSON: &str = include_str!("spells.json");

/// The most names an [`UnknownSpell`] error suggests.
const MAX_SUGGESTIONS: usize = 3;

/// A name the spell book does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no spell \"{name}\" in the spell book{}", did_you_mean(.suggestions))]
pub struct UnknownSpell {
    /// The start of the name asked for.
    pub name: String,
    /// Spell names sharing a word with it, at most three.
    pub suggestions: Vec<String>,
}

/// Spell book data that does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpellBookError {
    /// The JSON does not parse into spells.
    #[error("spell book data: {message}")]
    Malformed {
        /// What the parser said.
        message: String,
    },
    /// Two entries share a name (ignoring case, spacing and punctuation).
    #[error("spell book data: {name} is listed twice")]
    Duplicate {
        /// The name listed again.
        name: String,
    },
    /// An entry breaks a rule of the book.
    #[error("spell book data: {spell}: {problem}")]
    Invalid {
        /// The spell's name.
        spell: String,
        /// What is wrong with it.
        problem: SpellProblem,
    },
}

/// What is wrong with one spell of the book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpellProblem {
    /// The name has no letters or digits to make a slug of.
    #[error("the name makes no slug")]
    NoSlug,
    /// A level past the book's highest.
    #[error("level {} is past the book's highest, {max}", .0.value(), max = SpellBook::MAX_LEVEL)]
    Level(SpellLevel),
    /// An empty summary, one on several lines, or one past [`SpellBook::MAX_SUMMARY_CHARS`].
    #[error(
        "the summary must be one line of 1 to {} characters",
        SpellBook::MAX_SUMMARY_CHARS
    )]
    Summary,
    /// No class holds it, or one is named twice.
    #[error("the classes must be named, each once")]
    Classes,
    /// Targets outside 1..=[`SpellBook::MAX_TARGETS`].
    #[error("{0} targets; a spell reaches 1 to {max} at once", max = SpellBook::MAX_TARGETS)]
    Targets(u8),
    /// Beams outside 1..=[`SpellBook::MAX_BEAMS`].
    #[error("{0} beams; a spell strikes 1 to {max} times", max = SpellBook::MAX_BEAMS)]
    Beams(u8),
    /// No minutes to cast, or a reach of no feet.
    #[error("a casting time or a range of zero")]
    Zero,
    /// Damage dice that are not damage.
    #[error("{0}")]
    Damage(DamageError),
    /// Healing, pool or rider dice that are not a plain sum of dice within bounds.
    #[error("dice \"{dice}\" must be a plain sum of dice, no negative modifier, at most {max}")]
    Dice {
        /// The notation.
        dice: String,
        /// The largest total such dice may roll.
        max: i32,
    },
    /// An armour bonus outside 1..=10.
    #[error("an armour bonus of {0}; 1 to 10")]
    ArmorBonus(u8),
    /// A cantrip that grows with slots, or a levelled spell that grows with the caster's level.
    #[error("a cantrip grows with the caster's level only, a levelled spell with its slot only")]
    ScalingForLevel,
    /// A damage cantrip that does not grow with the caster's level, or growth by caster level
    /// for a spell that deals no damage.
    #[error("damage cantrips, and only they, grow with the caster's level")]
    CasterScaling,
    /// Growth that adds nothing, or adds to something the effect lacks.
    #[error("the scaling adds nothing to this effect")]
    ScalingMismatch,
    /// Slot dice that are not one plain term of dice the effect rolls.
    #[error("slot dice \"{dice}\" must be one term of dice the effect already rolls, no modifier")]
    SlotDice {
        /// The notation.
        dice: String,
    },
    /// A condition or pool effect without a condition, or a condition on an effect that puts
    /// none.
    #[error("a condition goes with a condition, pool or damage effect, and those two need one")]
    Condition,
    /// A condition lasting no rounds or more than [`SpellBook::MAX_CONDITION_ROUNDS`].
    #[error(
        "a condition lasting {0} rounds; 1 to {max}",
        max = SpellBook::MAX_CONDITION_ROUNDS
    )]
    ConditionRounds(u16),
    /// A delivery the effect cannot use: half on a save without damage, a condition effect
    /// without a save, or a roll for healing, a pool, a rider, a bonus or a utility.
    #[error("the delivery does not suit the effect")]
    Delivery,
}

/// The spells the game knows by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpellBook {
    spells: Vec<Spell>,
    /// Each spell's name as lookups read it: lower-case words, punctuation gone.
    words: Vec<Vec<String>>,
}

impl SpellBook {
    /// The highest spell level the book holds.
    pub const MAX_LEVEL: u8 = 3;
    /// The longest summary, in characters.
    pub const MAX_SUMMARY_CHARS: usize = 120;
    /// The most targets a spell reaches at once.
    pub const MAX_TARGETS: u8 = 12;
    /// The most separate strikes a spell makes.
    pub const MAX_BEAMS: u8 = 10;
    /// The longest a spell's condition lasts, in rounds (an hour).
    pub const MAX_CONDITION_ROUNDS: u16 = 600;

    /// The spell book shipped with the game, parsed on first use.
    pub fn srd() -> &'static SpellBook {
        static SRD: OnceLock<SpellBook> = OnceLock::new();
        SRD.get_or_init(|| {
            // A test proves the shipped data valid; an empty book is the fallback.
            Self::parse(SPELLS_JSON).unwrap_or(SpellBook {
                spells: Vec::new(),
                words: Vec::new(),
            })
        })
    }

    /// Parses a spell book from a JSON array of spells and checks every rule of the book: names
    /// unique however written, levels 0 to [`Self::MAX_LEVEL`], and each spell sound.
    pub fn parse(json: &str) -> Result<Self, SpellBookError> {
        let spells: Vec<Spell> =
            serde_json::from_str(json).map_err(|e| SpellBookError::Malformed {
                message: e.to_string(),
            })?;
        let words: Vec<Vec<String>> = spells.iter().map(|s| words(&s.name)).collect();
        for (i, spell) in spells.iter().enumerate() {
            check(spell).map_err(|problem| SpellBookError::Invalid {
                spell: spell.name.clone(),
                problem,
            })?;
            let key = words[i].concat();
            if words[..i].iter().any(|other| other.concat() == key) {
                return Err(SpellBookError::Duplicate {
                    name: spell.name.clone(),
                });
            }
        }
        Ok(Self { spells, words })
    }

    /// Every spell, by level and then by name as written.
    pub fn spells(&self) -> &[Spell] {
        &self.spells
    }

    /// How many spells it holds.
    pub fn len(&self) -> usize {
        self.spells.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.spells.is_empty()
    }

    /// The spell called `name`, ignoring case, spacing and punctuation; its slug
    /// (`magic-missile`) names it too.
    pub fn get(&self, name: &str) -> Result<&Spell, UnknownSpell> {
        let asked = words(name);
        let key = asked.concat();
        self.words
            .iter()
            .position(|w| !key.is_empty() && w.concat() == key)
            .map(|i| &self.spells[i])
            .ok_or_else(|| UnknownSpell {
                name: excerpt(name.trim()),
                suggestions: self.suggestions(&asked),
            })
    }

    /// Up to three names sharing a word (of three letters or more) with `asked`.
    fn suggestions(&self, asked: &[String]) -> Vec<String> {
        let asked: Vec<&String> = asked.iter().filter(|w| w.chars().count() > 2).collect();
        self.spells
            .iter()
            .zip(&self.words)
            .filter(|(_, name)| {
                name.iter()
                    .any(|w| asked.iter().any(|a| *a == w || **a == format!("{w}s")))
            })
            .take(MAX_SUGGESTIONS)
            .map(|(spell, _)| spell.name.clone())
            .collect()
    }

    /// The spells on `list`, in the book's order.
    pub fn of_list(&self, list: SpellList) -> impl Iterator<Item = &Spell> + '_ {
        self.spells
            .iter()
            .filter(move |spell| spell.classes.contains(&list))
    }

    /// The spell whose name stands in `text` as whole words, ignoring case and punctuation
    /// (`"I cast mass healing word!"`). When several do, the longest name wins (Mass Healing
    /// Word over Healing Word), then the one named first. Names that are also common words
    /// (Light, Shield, Sleep) are found wherever those words stand.
    pub fn named_in(&self, text: &str) -> Option<&Spell> {
        let text = words(text);
        self.spells
            .iter()
            .zip(&self.words)
            .filter_map(|(spell, name)| {
                let at = text
                    .windows(name.len())
                    .position(|w| w == name.as_slice())?;
                let length: usize = name.iter().map(String::len).sum();
                Some(((name.len(), length, std::cmp::Reverse(at)), spell))
            })
            .max_by_key(|(rank, _)| *rank)
            .map(|(_, spell)| spell)
    }
}

/// `text` as lookups read it: runs of letters and digits, lower-cased, apostrophes dropped
/// (`"Hunter's  Mark"` → `["hunters", "mark"]`), the words a [`Slug`] joins with dashes.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if c != '\'' && c != '\u{2019}' && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Checks one spell against the book's rules.
fn check(spell: &Spell) -> Result<(), SpellProblem> {
    check_basics(spell)?;
    check_effect(&spell.effect)?;
    check_delivery(spell)?;
    check_scaling(spell)?;
    check_condition(spell)
}

/// Its name, level, summary, classes, targets, casting time and range.
fn check_basics(spell: &Spell) -> Result<(), SpellProblem> {
    Slug::new(&spell.name).map_err(|_| SpellProblem::NoSlug)?;
    if spell.level.value() > SpellBook::MAX_LEVEL {
        return Err(SpellProblem::Level(spell.level));
    }
    let summary = spell.summary.trim();
    if summary.is_empty()
        || summary.chars().count() > SpellBook::MAX_SUMMARY_CHARS
        || summary.contains(char::is_control)
    {
        return Err(SpellProblem::Summary);
    }
    let classes = &spell.classes;
    if classes.is_empty() || (1..classes.len()).any(|i| classes[..i].contains(&classes[i])) {
        return Err(SpellProblem::Classes);
    }
    if !(1..=SpellBook::MAX_TARGETS).contains(&spell.targets) {
        return Err(SpellProblem::Targets(spell.targets));
    }
    if matches!(spell.casting_time, CastingTime::Minutes(0))
        || matches!(spell.range, SpellRange::Feet(0))
    {
        return Err(SpellProblem::Zero);
    }
    Ok(())
}

/// The effect's own figures: damage dice and beams, healing, pool and rider dice, the bonus.
fn check_effect(effect: &SpellEffect) -> Result<(), SpellProblem> {
    match effect {
        SpellEffect::Damage { dice, beams, .. } => {
            check_damage_dice(dice).map_err(SpellProblem::Damage)?;
            if !(1..=SpellBook::MAX_BEAMS).contains(beams) {
                return Err(SpellProblem::Beams(*beams));
            }
            Ok(())
        }
        SpellEffect::Healing { dice, .. } => check_sum(dice, 100),
        SpellEffect::HitPointPool { dice } => check_sum(dice, 200),
        SpellEffect::Rider { dice, .. } => check_sum(dice, 20),
        SpellEffect::ArmorBonus { bonus } => {
            if (1..=10).contains(bonus) {
                Ok(())
            } else {
                Err(SpellProblem::ArmorBonus(*bonus))
            }
        }
        SpellEffect::Condition | SpellEffect::Utility => Ok(()),
    }
}

/// Dice that add plain dice and a modifier of 0 or more, at most `max` in all.
fn check_sum(dice: &DiceExpr, max: i32) -> Result<(), SpellProblem> {
    if check_damage_dice(dice).is_err() || dice.modifier() < 0 || dice.max_total() > max {
        return Err(SpellProblem::Dice {
            dice: dice.to_string(),
            max,
        });
    }
    Ok(())
}

/// How it lands, for what it does: only damage is halved on a save, a condition alone needs a
/// save, and what a roll cannot miss (healing, a pool, a rider, a bonus, a utility) lands surely.
fn check_delivery(spell: &Spell) -> Result<(), SpellProblem> {
    let fits = match (&spell.effect, spell.delivery) {
        (SpellEffect::Damage { .. }, _) => true,
        (
            SpellEffect::Condition,
            Delivery::Save {
                on_save: OnSave::Nothing,
                ..
            },
        ) => true,
        (SpellEffect::Condition, _) => false,
        (_, delivery) => delivery == Delivery::Automatic,
    };
    if fits {
        Ok(())
    } else {
        Err(SpellProblem::Delivery)
    }
}

/// How it grows, for its level and effect.
fn check_scaling(spell: &Spell) -> Result<(), SpellProblem> {
    let cantrip = spell.level.is_cantrip();
    let damage = matches!(spell.effect, SpellEffect::Damage { .. });
    match &spell.scaling {
        Scaling::CasterLevel if !cantrip => Err(SpellProblem::ScalingForLevel),
        Scaling::SlotDice { .. } | Scaling::SlotBeams { .. } | Scaling::SlotTargets { .. }
            if cantrip =>
        {
            Err(SpellProblem::ScalingForLevel)
        }
        Scaling::CasterLevel if !damage => Err(SpellProblem::CasterScaling),
        Scaling::None if cantrip && damage => Err(SpellProblem::CasterScaling),
        Scaling::None | Scaling::CasterLevel => Ok(()),
        Scaling::SlotDice { dice } => check_slot_dice(&spell.effect, dice),
        Scaling::SlotBeams { beams } if *beams == 0 || !damage => {
            Err(SpellProblem::ScalingMismatch)
        }
        Scaling::SlotTargets { targets }
            if *targets == 0 || spell.effect == SpellEffect::Utility =>
        {
            Err(SpellProblem::ScalingMismatch)
        }
        Scaling::SlotBeams { .. } | Scaling::SlotTargets { .. } => Ok(()),
    }
}

/// Slot dice: one plain term, no modifier, of dice the effect's damage, healing or pool rolls.
fn check_slot_dice(effect: &SpellEffect, slot_dice: &DiceExpr) -> Result<(), SpellProblem> {
    let base = match effect {
        SpellEffect::Damage { dice, .. }
        | SpellEffect::Healing { dice, .. }
        | SpellEffect::HitPointPool { dice } => dice,
        _ => return Err(SpellProblem::ScalingMismatch),
    };
    let plain = match slot_dice.terms() {
        [term] => {
            term.keep().is_none()
                && !term.is_negative()
                && slot_dice.modifier() == 0
                && base.terms().iter().any(|t| t.sides() == term.sides())
        }
        _ => false,
    };
    if plain {
        Ok(())
    } else {
        Err(SpellProblem::SlotDice {
            dice: slot_dice.to_string(),
        })
    }
}

/// The condition: a condition or pool effect puts one, damage may, nothing else does.
fn check_condition(spell: &Spell) -> Result<(), SpellProblem> {
    let needs = matches!(
        spell.effect,
        SpellEffect::Condition | SpellEffect::HitPointPool { .. }
    );
    let may = needs || matches!(spell.effect, SpellEffect::Damage { .. });
    match spell.condition {
        None if needs => Err(SpellProblem::Condition),
        None => Ok(()),
        Some(_) if !may => Err(SpellProblem::Condition),
        Some(condition) if !(1..=SpellBook::MAX_CONDITION_ROUNDS).contains(&condition.rounds) => {
            Err(SpellProblem::ConditionRounds(condition.rounds))
        }
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::combat::FoeCondition;

    fn book() -> &'static SpellBook {
        SpellBook::srd()
    }

    /// The names the engine and the spellcasting tables refer to.
    const REQUIRED: [&str; 49] = [
        "Fire Bolt",
        "Ray of Frost",
        "Shocking Grasp",
        "Acid Splash",
        "Chill Touch",
        "Poison Spray",
        "Sacred Flame",
        "Vicious Mockery",
        "Light",
        "Mage Hand",
        "Guidance",
        "Spare the Dying",
        "Minor Illusion",
        "Prestidigitation",
        "Thaumaturgy",
        "Magic Missile",
        "Burning Hands",
        "Sleep",
        "Shield",
        "Thunderwave",
        "Cure Wounds",
        "Healing Word",
        "Bless",
        "Guiding Bolt",
        "Faerie Fire",
        "Hunter's Mark",
        "Detect Magic",
        "Mage Armor",
        "Inflict Wounds",
        "Shield of Faith",
        "Color Spray",
        "Command",
        "Hold Person",
        "Misty Step",
        "Scorching Ray",
        "Spiritual Weapon",
        "Shatter",
        "Web",
        "Blindness/Deafness",
        "Lesser Restoration",
        "Fireball",
        "Lightning Bolt",
        "Revivify",
        "Mass Healing Word",
        "Spirit Guardians",
        "Hypnotic Pattern",
        "Fear",
        "Counterspell",
        "Dispel Magic",
    ];

    #[test]
    fn the_shipped_data_parses_whole() {
        let parsed = SpellBook::parse(SPELLS_JSON).expect("spells.json is valid");
        assert!(parsed.len() >= 44, "{} spells", parsed.len());
        assert_eq!(book(), &parsed);
    }

    #[test]
    fn every_named_spell_is_there_by_its_exact_name() {
        for name in REQUIRED {
            assert_eq!(book().get(name).unwrap().name, name);
        }
    }

    #[test]
    fn every_entry_is_sound() {
        for (i, spell) in book().spells().iter().enumerate() {
            assert_eq!(check(spell), Ok(()), "{}", spell.name);
            // What a snapshot stores reads back the same.
            let json = serde_json::to_string(spell).unwrap();
            assert_eq!(&serde_json::from_str::<Spell>(&json).unwrap(), spell);
            assert!(book().spells()[..i]
                .iter()
                .all(|other| other.slug() != spell.slug()));
        }
        let rising = book().spells().windows(2).all(|w| w[0].level <= w[1].level);
        assert!(rising, "the data lists cantrips first, then by level");
    }

    fn count(list: SpellList, level: u8) -> usize {
        book()
            .of_list(list)
            .filter(|s| s.level.value() == level)
            .count()
    }

    #[test]
    fn each_list_has_its_spells() {
        let counts = |list| [0, 1, 2, 3].map(|level| count(list, level));
        assert_eq!(counts(SpellList::Bard), [9, 9, 6, 3]);
        assert_eq!(counts(SpellList::Cleric), [7, 9, 6, 6]);
        assert_eq!(counts(SpellList::Ranger), [0, 8, 4, 2]);
        assert_eq!(counts(SpellList::Wizard), [14, 12, 8, 8]);
        for list in [SpellList::Bard, SpellList::Cleric, SpellList::Wizard] {
            assert!(count(list, 0) >= 3 && count(list, 1) >= 3, "{list:?}");
        }
        assert!(count(SpellList::Ranger, 1) >= 3);
    }

    #[test]
    fn srd_figures_and_lists() {
        let spell = |name| book().get(name).unwrap();
        assert_eq!(
            spell("Cure Wounds").classes,
            [SpellList::Bard, SpellList::Cleric, SpellList::Ranger]
        );
        assert_eq!(spell("Sleep").classes, [SpellList::Bard, SpellList::Wizard]);
        assert_eq!(spell("Hunter's Mark").classes, [SpellList::Ranger]);
        assert_eq!(spell("Misty Step").casting_time, CastingTime::BonusAction);
        assert_eq!(spell("Shield").casting_time, CastingTime::Reaction);
        assert_eq!(spell("Fire Bolt").range, SpellRange::Feet(120));
        let hold = spell("Hold Person");
        assert!(hold.concentration);
        assert_eq!(
            hold.condition.map(|c| (c.condition, c.rounds)),
            Some((FoeCondition::Paralyzed, 10))
        );
        assert!(!spell("Blindness/Deafness").concentration);
        let detect = spell("Detect Magic");
        assert!(detect.ritual && detect.concentration);
        assert_eq!(detect.classes.len(), 4);
        assert_eq!(
            spell("Faerie Fire").condition.map(|c| c.condition),
            Some(FoeCondition::Outlined)
        );
        assert_eq!(spell("Fireball").targets, 6);
    }

    #[test]
    fn lookup_ignores_case_spacing_and_punctuation() {
        for name in [
            "magic-missile",
            "MAGIC missile",
            "  Magic\tMissile ",
            "magic_missile",
        ] {
            assert_eq!(book().get(name).unwrap().name, "Magic Missile");
        }
        assert_eq!(book().get("hunters mark").unwrap().name, "Hunter's Mark");
        assert_eq!(book().get("hunter’s-mark").unwrap().name, "Hunter's Mark");
        let slug = Slug::new("Blindness/Deafness").unwrap();
        assert_eq!(slug.to_string(), "blindness-deafness");
        assert_eq!(
            book().get(slug.as_str()).unwrap().name,
            "Blindness/Deafness"
        );
    }

    #[test]
    fn unknown_names_suggest_spells_sharing_a_word() {
        let err = book().get("Magic Rocket").unwrap_err();
        assert_eq!(err.suggestions.len(), 3);
        assert!(err.suggestions.iter().all(|s| s.contains("Magic")));
        assert!(err
            .to_string()
            .starts_with("no spell \"Magic Rocket\" in the spell book (did you mean "));
        let err = book().get("Wish").unwrap_err();
        assert_eq!(err.to_string(), "no spell \"Wish\" in the spell book");
        assert!(book().get("").is_err());
        assert!(book().get(" -- ").is_err());
    }

    #[test]
    fn a_spell_is_found_in_free_text() {
        let named = |text| book().named_in(text).map(|s| s.name.as_str());
        assert_eq!(
            named("I cast mass healing word on us"),
            Some("Mass Healing Word")
        );
        assert_eq!(
            named("A quick Healing Word, then run!"),
            Some("Healing Word")
        );
        assert_eq!(named("fire bolt at the goblin"), Some("Fire Bolt"));
        assert_eq!(named("I throw a FIREBALL."), Some("Fireball"));
        assert_eq!(named("hunter's mark on the wolf"), Some("Hunter's Mark"));
        assert_eq!(named("the fire bolts were stacked"), None);
        assert_eq!(named("I swing my sword"), None);
        assert_eq!(named(""), None);
    }

    fn invalid(json: &str) -> SpellProblem {
        match SpellBook::parse(json) {
            Err(SpellBookError::Invalid { problem, .. }) => problem,
            other => panic!("expected an invalid spell, got {other:?}"),
        }
    }

    /// A valid spell, one field replaced by `patch`.
    fn with(patch: &str) -> String {
        let mut spell: serde_json::Value = serde_json::json!({
            "name": "Test Bolt", "level": 1, "castingTime": "action", "range": {"feet": 60},
            "delivery": {"by": "attack"},
            "effect": {"kind": "damage", "dice": "2d6", "damageType": "fire"},
            "scaling": {"by": "slotDice", "dice": "1d6"},
            "classes": ["wizard"], "summary": "A test."
        });
        let patch: serde_json::Value = serde_json::from_str(patch).unwrap();
        for (key, value) in patch.as_object().unwrap() {
            spell[key] = value.clone();
        }
        format!("[{spell}]")
    }

    #[test]
    fn the_rules_reject_bad_entries() {
        assert!(SpellBook::parse(&with("{}")).is_ok());
        assert!(matches!(
            SpellBook::parse("[{]"),
            Err(SpellBookError::Malformed { .. })
        ));
        let twice = format!("[{0},{0}]", &with("{}")[1..with("{}").len() - 1]);
        assert!(matches!(
            SpellBook::parse(&twice),
            Err(SpellBookError::Duplicate { .. })
        ));
        assert!(matches!(
            invalid(&with(r#"{"level": 4}"#)),
            SpellProblem::Level(_)
        ));
        assert_eq!(invalid(&with(r#"{"summary": " "}"#)), SpellProblem::Summary);
        let long = format!(r#"{{"summary": "{}"}}"#, "x".repeat(121));
        assert_eq!(invalid(&with(&long)), SpellProblem::Summary);
        assert_eq!(invalid(&with(r#"{"classes": []}"#)), SpellProblem::Classes);
        assert_eq!(
            invalid(&with(r#"{"classes": ["bard", "bard"]}"#)),
            SpellProblem::Classes
        );
        assert_eq!(
            invalid(&with(r#"{"targets": 0}"#)),
            SpellProblem::Targets(0)
        );
        assert_eq!(invalid(&with(r#"{"name": "!!"}"#)), SpellProblem::NoSlug);
        assert_eq!(
            invalid(&with(r#"{"range": {"feet": 0}}"#)),
            SpellProblem::Zero
        );
    }

    #[test]
    fn the_rules_reject_bad_figures() {
        assert!(matches!(
            invalid(&with(
                r#"{"effect": {"kind": "damage", "dice": "51d6", "damageType": "fire"}}"#
            )),
            SpellProblem::Damage(_)
        ));
        assert_eq!(
            invalid(&with(
                r#"{"effect": {"kind": "damage", "dice": "1d6", "damageType": "fire", "beams": 11}}"#
            )),
            SpellProblem::Beams(11)
        );
        assert!(matches!(
            invalid(&with(
                r#"{"delivery": {"by": "automatic"}, "effect": {"kind": "healing", "dice": "1d8-1"}}"#
            )),
            SpellProblem::Dice { .. }
        ));
        assert_eq!(
            invalid(&with(r#"{"scaling": {"by": "casterLevel"}}"#)),
            SpellProblem::ScalingForLevel
        );
        assert_eq!(
            invalid(&with(r#"{"level": 0}"#)),
            SpellProblem::ScalingForLevel
        );
        assert_eq!(
            invalid(&with(r#"{"level": 0, "scaling": {"by": "none"}}"#)),
            SpellProblem::CasterScaling
        );
        assert!(matches!(
            invalid(&with(r#"{"scaling": {"by": "slotDice", "dice": "1d8"}}"#)),
            SpellProblem::SlotDice { .. }
        ));
        assert!(matches!(
            invalid(&with(r#"{"scaling": {"by": "slotDice", "dice": "1d6+1"}}"#)),
            SpellProblem::SlotDice { .. }
        ));
        assert_eq!(
            invalid(&with(r#"{"scaling": {"by": "slotBeams", "beams": 0}}"#)),
            SpellProblem::ScalingMismatch
        );
    }

    #[test]
    fn the_rules_reject_bad_conditions_and_deliveries() {
        let condition = r#""condition": {"condition": "prone", "rounds": 1}"#;
        assert_eq!(
            invalid(&with(&format!(
                r#"{{"effect": {{"kind": "condition"}}, "scaling": {{"by": "none"}}, {condition}}}"#
            ))),
            SpellProblem::Delivery
        );
        assert_eq!(
            invalid(&with(
                r#"{"effect": {"kind": "condition"}, "scaling": {"by": "none"},
                    "delivery": {"by": "save", "ability": "WIS", "onSave": "nothing"}}"#
            )),
            SpellProblem::Condition
        );
        assert_eq!(
            invalid(&with(
                r#"{"effect": {"kind": "utility"}, "scaling": {"by": "none"},
                    "delivery": {"by": "automatic"}, "condition": {"condition": "prone", "rounds": 1}}"#
            )),
            SpellProblem::Condition
        );
        assert_eq!(
            invalid(&with(
                r#"{"condition": {"condition": "prone", "rounds": 601}}"#
            )),
            SpellProblem::ConditionRounds(601)
        );
        assert_eq!(
            invalid(&with(
                r#"{"effect": {"kind": "utility"}, "scaling": {"by": "none"}}"#
            )),
            SpellProblem::Delivery
        );
        assert!(SpellBook::parse(&with(
            r#"{"delivery": {"by": "save", "ability": "DEX", "onSave": "half"}}"#
        ))
        .is_ok());
    }
}
