//! Bounded text and slugs: every name, description and id the game accepts from the model or the
//! player becomes one of these at the edge.
//!
//! A [`BoundedText`] is trimmed, has every run of whitespace (newlines and tabs included) folded
//! into one space, holds no other control character, is not empty and has at most its kind's
//! number of characters (Unicode scalar values, not bytes). Each kind ([`ItemName`],
//! [`ActionDescription`], ...) names itself in its errors: `item name is 72 characters long; at
//! most 60 are allowed`.
//!
//! A [`Slug`] is the stable key of an item or an action: lowercase letters and digits joined by
//! single dashes (`rusty-key`). [`Slug::new`] slugifies leniently, so `"Rusty Key"`,
//! `"rusty_key"` and `"rusty-key"` are the same slug.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many characters of a rejected input an error message quotes.
const EXCERPT_CHARS: usize = 40;

/// Why a piece of text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Nothing but whitespace.
    #[error("{label} is empty")]
    Empty {
        /// What the text was for, e.g. `item name`.
        label: &'static str,
    },
    /// Longer than the kind allows, counted after whitespace folding.
    #[error("{label} is {len} characters long; at most {max} are allowed")]
    TooLong {
        /// What the text was for.
        label: &'static str,
        /// Its length in characters.
        len: usize,
        /// The most characters allowed.
        max: usize,
    },
    /// Holds a control character that is not whitespace.
    #[error("{label} contains a control character")]
    ControlCharacter {
        /// What the text was for.
        label: &'static str,
    },
    /// Has no letter or digit, so no slug can be made of it.
    #[error("{label} \"{text}\" has no letters or digits")]
    NoSlug {
        /// What the text was for.
        label: &'static str,
        /// The start of the rejected text.
        text: String,
    },
}

/// The rules of one kind of [`BoundedText`]: its name in messages and its length bound.
pub trait TextKind {
    /// What the text is for, as errors name it (`item name`).
    const LABEL: &'static str;
    /// The most characters the text may have.
    const MAX_CHARS: usize;
}

/// Non-empty, whitespace-normalised text of at most `K::MAX_CHARS` characters.
pub struct BoundedText<K> {
    text: String,
    kind: PhantomData<fn() -> K>,
}

impl<K: TextKind> BoundedText<K> {
    /// The most characters this kind of text may have.
    pub const MAX_CHARS: usize = K::MAX_CHARS;

    /// Normalises `raw` (trim, fold whitespace) and checks it against the kind's rules.
    pub fn new(raw: &str) -> Result<Self, TextError> {
        let mut text = String::with_capacity(raw.len().min(K::MAX_CHARS * 4));
        for word in raw.split_whitespace() {
            if word.chars().any(char::is_control) {
                return Err(TextError::ControlCharacter { label: K::LABEL });
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word);
        }
        let len = text.chars().count();
        if len == 0 {
            return Err(TextError::Empty { label: K::LABEL });
        }
        if len > K::MAX_CHARS {
            return Err(TextError::TooLong {
                label: K::LABEL,
                len,
                max: K::MAX_CHARS,
            });
        }
        Ok(Self {
            text,
            kind: PhantomData,
        })
    }

    /// Like [`BoundedText::new`], but blank text (empty or only whitespace) is `None`.
    pub fn new_optional(raw: &str) -> Result<Option<Self>, TextError> {
        if raw.trim().is_empty() {
            Ok(None)
        } else {
            Self::new(raw).map(Some)
        }
    }

    /// The normalised text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether both texts are equal ignoring letter case (`Poisoned` and `poisoned`).
    pub fn eq_ignore_case(&self, other: &Self) -> bool {
        self.text.to_lowercase() == other.text.to_lowercase()
    }
}

impl<K> Clone for BoundedText<K> {
    fn clone(&self) -> Self {
        Self {
            text: self.text.clone(),
            kind: PhantomData,
        }
    }
}

impl<K> PartialEq for BoundedText<K> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<K> Eq for BoundedText<K> {}

impl<K> Hash for BoundedText<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl<K> fmt::Debug for BoundedText<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

impl<K> fmt::Display for BoundedText<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<K> AsRef<str> for BoundedText<K> {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl<K: TextKind> FromStr for BoundedText<K> {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

impl<K> Serialize for BoundedText<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de, K: TextKind> Deserialize<'de> for BoundedText<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        Self::new(&raw).map_err(serde::de::Error::custom)
    }
}

impl<K: TextKind> JsonSchema for BoundedText<K> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(K::LABEL)
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "minLength": 1, "maxLength": K::MAX_CHARS })
    }
}

/// Deserialises an optional [`BoundedText`] where `null`, a missing field and blank text all
/// mean `None` (models often send `""` for "nothing"). Use with
/// `#[serde(default, deserialize_with = "...")]`.
pub(in crate::game) fn blank_as_none<'de, D, K>(
    deserializer: D,
) -> Result<Option<BoundedText<K>>, D::Error>
where
    D: Deserializer<'de>,
    K: TextKind,
{
    let raw = Option::<Cow<'de, str>>::deserialize(deserializer)?;
    match raw {
        Some(raw) => BoundedText::new_optional(&raw).map_err(serde::de::Error::custom),
        None => Ok(None),
    }
}

macro_rules! text_kinds {
    ($( $(#[$doc:meta])* $alias:ident / $kind:ident: $label:literal, $max:literal; )*) => { $(
        #[doc = concat!("The rules of [`", stringify!($alias), "`]: ", $label, ", at most ",
                        stringify!($max), " characters.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $kind {}

        impl TextKind for $kind {
            const LABEL: &'static str = $label;
            const MAX_CHARS: usize = $max;
        }

        $(#[$doc])*
        pub type $alias = BoundedText<$kind>;
    )* };
}

text_kinds! {
    /// A character's name (`Mira Thorne`).
    CharacterName / CharacterNameKind: "character name", 40;
    /// A character's class (`Ranger`).
    ClassName / ClassNameKind: "class", 40;
    /// The display name of an inventory item (`Rusty key`).
    ItemName / ItemNameKind: "item name", 60;
    /// What an inventory item is.
    ItemDescription / ItemDescriptionKind: "item description", 300;
    /// A condition's name (`Poisoned`).
    ConditionName / ConditionNameKind: "condition", 40;
    /// How long a condition lasts, in words (`1 hour`, `until dawn`).
    ConditionDuration / ConditionDurationKind: "condition duration", 60;
    /// Free notes on a condition.
    ConditionNotes / ConditionNotesKind: "condition notes", 200;
    /// Where the character is (`Level 1: the flooded crypt`).
    LocationName / LocationNameKind: "location", 80;
    /// The text of an offered action's button.
    ActionDescription / ActionDescriptionKind: "action description", 200;
    /// What rides on a roll (`you are over the wall`).
    StakeText / StakeTextKind: "stake", 120;
    /// Why dice are rolled (`Perception`).
    DiceReason / DiceReasonKind: "dice reason", 80;
    /// A signature ability's name (`Sneak Attack`).
    AbilityName / AbilityNameKind: "ability", 60;
    /// What a signature ability does.
    AbilityText / AbilityTextKind: "ability text", 200;
    /// The character's backstory, in a few lines.
    Backstory / BackstoryKind: "backstory", 600;
    /// A yes/no question put to the oracle (`Is the door locked?`).
    OracleQuestion / OracleQuestionKind: "oracle question", 160;
    /// The name of an outcome table (`Who answers the door?`).
    TableName / TableNameKind: "table name", 80;
    /// One outcome of an outcome table (`a hungry ghoul`).
    OutcomeText / OutcomeTextKind: "outcome", 160;
    /// Words the game master says to the player outside the story.
    AsideText / AsideTextKind: "message", 400;
    /// Who or what a journal entry is about (`Mira the smith`).
    JournalName / JournalNameKind: "journal name", 60;
    /// What the journal keeps about it.
    JournalNote / JournalNoteKind: "journal note", 300;
    /// A title in the story's plan: a chapter's, a threat's (`The flood`).
    PlanTitle / PlanTitleKind: "plan title", 60;
    /// A line of the story's plan: a goal, what fills a clock, a person's secret.
    PlanLine / PlanLineKind: "plan line", 160;
}

/// The stable key of an item or an action: lowercase letters and digits joined by single dashes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slug(String);

impl Slug {
    /// The most characters a slug may have.
    pub const MAX_CHARS: usize = 64;

    /// Slugifies `raw`: letters are lowercased, runs of anything but letters and digits become
    /// one dash, apostrophes vanish (`Mira's Locket` → `miras-locket`).
    pub fn new(raw: &str) -> Result<Self, TextError> {
        let mut slug = String::with_capacity(raw.len().min(Self::MAX_CHARS * 4));
        let mut dash = false;
        for c in raw.chars() {
            if c.is_alphanumeric() {
                if dash && !slug.is_empty() {
                    slug.push('-');
                }
                dash = false;
                slug.extend(c.to_lowercase());
            } else if c != '\'' && c != '\u{2019}' {
                dash = true;
            }
        }
        if slug.is_empty() {
            return Err(TextError::NoSlug {
                label: "slug",
                text: excerpt(raw),
            });
        }
        let len = slug.chars().count();
        if len > Self::MAX_CHARS {
            return Err(TextError::TooLong {
                label: "slug",
                len,
                max: Self::MAX_CHARS,
            });
        }
        Ok(Self(slug))
    }

    /// The slug's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Slug {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl FromStr for Slug {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

impl Serialize for Slug {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Slug {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Cow::<str>::deserialize(deserializer)?;
        Self::new(&raw).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Slug {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Slug")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "minLength": 1, "maxLength": Self::MAX_CHARS })
    }
}

/// ` (did you mean Giant Spider, Phase Spider?)` for the names a lookup suggests, or nothing.
pub(in crate::game) fn did_you_mean(names: &[String]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", names.join(", "))
    }
}

/// The start of `text` for quoting in an error, with `…` when cut.
pub(in crate::game) fn excerpt(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_and_whitespace_folded() {
        let name = ItemName::new("  Rusty \n\t key ").unwrap();
        assert_eq!(name.as_str(), "Rusty key");
        assert_eq!(name.to_string(), "Rusty key");
    }

    #[test]
    fn empty_text_is_rejected_with_its_label() {
        let err = ItemName::new(" \n ").unwrap_err();
        assert_eq!(err.to_string(), "item name is empty");
    }

    #[test]
    fn long_text_is_rejected_counting_characters_not_bytes() {
        let ok = "é".repeat(ItemName::MAX_CHARS);
        assert!(ItemName::new(&ok).is_ok());
        let err = ItemName::new(&"é".repeat(61)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "item name is 61 characters long; at most 60 are allowed"
        );
    }

    #[test]
    fn control_characters_are_rejected() {
        let err = ItemName::new("key\u{0}").unwrap_err();
        assert_eq!(err.to_string(), "item name contains a control character");
    }

    #[test]
    fn optional_text_maps_blank_to_none() {
        assert_eq!(ItemDescription::new_optional("  ").unwrap(), None);
        assert_eq!(
            ItemDescription::new_optional(" old ")
                .unwrap()
                .unwrap()
                .as_str(),
            "old"
        );
    }

    #[test]
    fn case_insensitive_equality() {
        let a = ConditionName::new("Poisoned").unwrap();
        let b = ConditionName::new("POISONED").unwrap();
        assert!(a.eq_ignore_case(&b));
        assert_ne!(a, b);
    }

    #[test]
    fn text_serde_round_trips_and_validates() {
        let name: ItemName = serde_json::from_str("\"  Torch \"").unwrap();
        assert_eq!(serde_json::to_string(&name).unwrap(), "\"Torch\"");
        let err = serde_json::from_str::<ItemName>("\"\"").unwrap_err();
        assert!(err.to_string().contains("item name is empty"));
    }

    #[test]
    fn slugs_are_lenient_and_canonical() {
        for raw in ["Rusty Key", "rusty_key", "rusty-key", "  RUSTY   key!! "] {
            assert_eq!(Slug::new(raw).unwrap().as_str(), "rusty-key", "{raw}");
        }
        assert_eq!(Slug::new("Mira's Locket").unwrap().as_str(), "miras-locket");
        assert_eq!(Slug::new("Épée №2").unwrap().as_str(), "épée-2");
    }

    #[test]
    fn slug_needs_a_letter_or_digit() {
        let err = Slug::new("!!!").unwrap_err();
        assert_eq!(err.to_string(), "slug \"!!!\" has no letters or digits");
    }

    #[test]
    fn slug_length_is_bounded() {
        assert!(Slug::new(&"a".repeat(64)).is_ok());
        let err = Slug::new(&"a".repeat(65)).unwrap_err();
        assert!(matches!(err, TextError::TooLong { len: 65, .. }));
    }

    #[test]
    fn excerpt_cuts_long_text() {
        assert_eq!(excerpt("short"), "short");
        assert_eq!(excerpt(&"x".repeat(50)), format!("{}…", "x".repeat(40)));
    }

    #[test]
    fn blank_as_none_accepts_null_missing_and_blank() {
        #[derive(Deserialize)]
        struct Wire {
            #[serde(default, deserialize_with = "blank_as_none")]
            notes: Option<ConditionNotes>,
        }
        for json in [r#"{}"#, r#"{"notes":null}"#, r#"{"notes":"  "}"#] {
            let wire: Wire = serde_json::from_str(json).unwrap();
            assert_eq!(wire.notes, None, "{json}");
        }
        let wire: Wire = serde_json::from_str(r#"{"notes":"itchy"}"#).unwrap();
        assert_eq!(wire.notes.unwrap().as_str(), "itchy");
    }
}
