//! Character creation: a class (one of the presets, or the player's own), six attribute scores
//! by the standard array or point-buy, hit points from the class's hit die and CON, starting gear,
//! signature abilities, an optional backstory, sanity when the campaign tracks it, and what is at
//! stake at 0 HP.
//!
//! The form arrives as a [`CharacterDraft`] of plain values; [`CharacterDraft::create`] parses it
//! into a [`CharacterSheet`](super::sheet::CharacterSheet) or says what is wrong
//! ([`CreationError`]). A preset's name, typed in any case, picks the preset; any other class name
//! is a custom class (d8, the common gear, and the ability the player names, if any).
//!
//! Starting gear is typed by the [`catalogue`](super::catalogue) (a preset's weapons, armour and
//! shield; the healing potion), and the first weapon, armour and shield in the class's gear
//! come equipped. Characters created before items were typed carried plain gear, nothing
//! equipped, and not the gear added then; [`created_before_typed_items`] gives that older form of
//! a character, so that a file exported then still checks against the creation rules.
//!
//! Files: this one holds the draft, the ways of choosing scores and the errors; `presets.rs` the
//! preset classes and what a custom class brings; `scores.rs` the scores checked by the standard
//! array or point-buy; `create.rs` a draft made into a character (and a character back into its
//! draft); `older.rs` characters as older creation rules made them.

mod create;
mod older;
mod presets;
mod scores;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use older::{created_before_powers, created_before_typed_items};
pub use presets::{
    class_proficiencies, preset, ClassPreset, COMMON_GEAR, CUSTOM_HIT_DIE, CUSTOM_SKILLS, PRESETS,
};
pub use scores::{attributes_from, check_scores, point_cost};

use super::attributes::Attribute;
use super::inventory::QuantityError;
use super::proficiency::{SkillChoiceError, SkillError};
use super::spells::UnknownSpell;
use super::stakes::Stakes;
use super::text::TextError;

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
        named("Vex", class)
    }

    /// A level-1 `class` called `name`, made by the creation rules.
    pub(crate) fn named(name: &str, class: &str) -> CharacterSheet {
        let draft = CharacterDraft {
            name: name.into(),
            class: class.into(),
            ..CharacterDraft::default()
        };
        draft
            .create(LocationName::new("The gate").expect("valid"))
            .expect("a valid preset")
    }
}
