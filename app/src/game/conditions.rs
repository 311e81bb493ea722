//! Conditions (a table of them on the sheet): a name with an optional duration and notes, at most
//! [`Conditions::MAX_CONDITIONS`] at once, names unique ignoring case. Adding a condition the
//! character already has replaces its duration and notes.
//!
//! A condition added through the rules is [`Condition::typed`]: a name the rules know (see
//! [`condition_kind`](super::condition_kind)) has its effect on rolls, and a duration in
//! minutes, hours, days or rounds (a round is six seconds) ends it by itself once that much game
//! time has passed. Any other name or duration is a note with no effect.

use serde::{Deserialize, Serialize};

use super::condition_kind::{ConditionKind, RollEffects};
use super::text::{blank_as_none, ConditionDuration, ConditionName, ConditionNotes};

/// One condition on the character (`Poisoned`, `1 hour`, `−2 to attack rolls`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(description = "A condition on the character.")]
pub struct Condition {
    /// The condition's name, e.g. Poisoned.
    pub name: ConditionName,
    /// How long it lasts in words, or null.
    #[serde(
        default,
        deserialize_with = "blank_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub duration: Option<ConditionDuration>,
    /// Its effect or other notes, or null.
    #[serde(
        default,
        deserialize_with = "blank_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub notes: Option<ConditionNotes>,
    /// What the rules make of its name (see [`Condition::typed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub kind: Option<ConditionKind>,
    /// How many minutes of game time it lasts (see [`Condition::typed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub minutes: Option<u32>,
    /// The minute of game time it ends at, set when it is gained.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub ends_at: Option<u32>,
}

/// The longest duration the rules keep: thirty days.
const MAX_MINUTES: u32 = 30 * 24 * 60;

impl Condition {
    /// A condition with just a name.
    pub fn named(name: ConditionName) -> Self {
        Self {
            name,
            duration: None,
            notes: None,
            kind: None,
            minutes: None,
            ends_at: None,
        }
    }

    /// The condition as the rules read it: its kind from its name, its length from its
    /// duration's words (whatever the model sent for either is replaced).
    pub fn typed(mut self) -> Self {
        self.kind = ConditionKind::named(self.name.as_str());
        self.minutes = self.duration.as_ref().and_then(|d| minutes_in(d.as_str()));
        self.ends_at = None;
        self
    }

    /// What it is to the rules and how long it has left at game minute `now`, for the panel:
    /// `Poisoned: disadvantage on checks and attacks (50 min left)`.
    pub fn describe(&self, now: u32) -> String {
        let mut text = self.name.as_str().to_owned();
        if let Some(kind) = self.kind {
            text.push_str(": ");
            text.push_str(kind.summary());
        }
        match (self.ends_at, &self.duration) {
            (Some(end), _) => text.push_str(&format!(" ({} left)", span(end.saturating_sub(now)))),
            (None, Some(duration)) => text.push_str(&format!(" ({})", duration.as_str())),
            (None, None) => {}
        }
        text
    }
}

/// `50 min`, `2 h 5 min`, `3 d 4 h`.
fn span(minutes: u32) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    match (days, hours, mins) {
        (0, 0, m) => format!("{m} min"),
        (0, h, 0) => format!("{h} h"),
        (0, h, m) => format!("{h} h {m} min"),
        (d, 0, _) => format!("{d} d"),
        (d, h, _) => format!("{d} d {h} h"),
    }
}

/// The minutes a duration's words name (`10 minutes`, `1 hour`, `an hour`, `3 rounds`,
/// `2 days`): the first number (or `a`, `an`, `one`) and the unit after it. A round is six
/// seconds, rounded up to a whole minute. `None` when the words name no length of time.
pub fn minutes_in(words: &str) -> Option<u32> {
    let lower = words.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    tokens.windows(2).find_map(|pair| {
        let count: u32 = match pair[0] {
            "a" | "an" | "one" => 1,
            "two" => 2,
            "three" => 3,
            number => number.parse().ok()?,
        };
        let unit = pair[1];
        let minutes = if unit.starts_with("round") {
            count.div_ceil(10)
        } else if unit.starts_with("min") {
            count
        } else if unit.starts_with("hour") || unit == "h" || unit == "hr" || unit == "hrs" {
            count.saturating_mul(60)
        } else if unit.starts_with("day") {
            count.saturating_mul(1440)
        } else {
            return None;
        };
        Some(minutes.clamp(1, MAX_MINUTES))
    })
}

/// Adding a condition past the limit, removing one the character does not have, or stored data
/// with a name twice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConditionError {
    /// Adding a new condition past the limit.
    #[error(
        "Too many conditions (at most {}); remove one first",
        Conditions::MAX_CONDITIONS
    )]
    TooMany,
    /// Removing a condition the character does not have.
    #[error("No condition \"{name}\" to remove")]
    NoSuchCondition {
        /// The name asked for.
        name: ConditionName,
    },
    /// The same name twice (only in stored data).
    #[error("Condition \"{name}\" is listed twice")]
    Duplicate {
        /// The name listed twice.
        name: ConditionName,
    },
}

/// The character's conditions, in the order gained.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Condition>", into = "Vec<Condition>")]
pub struct Conditions {
    list: Vec<Condition>,
}

impl Conditions {
    /// The most conditions a character can have at once.
    pub const MAX_CONDITIONS: usize = 20;

    /// The conditions.
    pub fn list(&self) -> &[Condition] {
        &self.list
    }

    /// The condition called `name` (ignoring case), if present.
    pub fn get(&self, name: &ConditionName) -> Option<&Condition> {
        self.list.iter().find(|c| c.name.eq_ignore_case(name))
    }

    /// What the conditions the rules know do to rolls, all together.
    pub fn roll_effects(&self) -> RollEffects {
        RollEffects::of(self.list.iter().filter_map(|c| c.kind))
    }

    /// Removes and returns the conditions whose time is up at game minute `now`.
    pub(in crate::game) fn expire(&mut self, now: u32) -> Vec<Condition> {
        let (ended, kept) = std::mem::take(&mut self.list)
            .into_iter()
            .partition(|c| c.ends_at.is_some_and(|end| end <= now));
        self.list = kept;
        ended
    }

    /// How many conditions there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Adds `condition`, or replaces the one with its name. Returns the previous condition of
    /// that name, if any. Changes nothing on error.
    pub(in crate::game) fn add(
        &mut self,
        condition: Condition,
    ) -> Result<Option<Condition>, ConditionError> {
        if let Some(present) = self
            .list
            .iter_mut()
            .find(|c| c.name.eq_ignore_case(&condition.name))
        {
            return Ok(Some(std::mem::replace(present, condition)));
        }
        if self.list.len() >= Self::MAX_CONDITIONS {
            return Err(ConditionError::TooMany);
        }
        self.list.push(condition);
        Ok(None)
    }

    /// Removes the condition called `name` (ignoring case) and returns it.
    pub(in crate::game) fn remove(
        &mut self,
        name: &ConditionName,
    ) -> Result<Condition, ConditionError> {
        let index = self
            .list
            .iter()
            .position(|c| c.name.eq_ignore_case(name))
            .ok_or_else(|| ConditionError::NoSuchCondition { name: name.clone() })?;
        Ok(self.list.remove(index))
    }
}

impl TryFrom<Vec<Condition>> for Conditions {
    type Error = ConditionError;

    fn try_from(list: Vec<Condition>) -> Result<Self, Self::Error> {
        if list.len() > Self::MAX_CONDITIONS {
            return Err(ConditionError::TooMany);
        }
        for (i, condition) in list.iter().enumerate() {
            if list[..i]
                .iter()
                .any(|c| c.name.eq_ignore_case(&condition.name))
            {
                return Err(ConditionError::Duplicate {
                    name: condition.name.clone(),
                });
            }
        }
        Ok(Self { list })
    }
}

impl From<Conditions> for Vec<Condition> {
    fn from(conditions: Conditions) -> Self {
        conditions.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> Condition {
        Condition::named(ConditionName::new(name).unwrap())
    }

    #[test]
    fn a_durations_words_give_its_minutes() {
        for (words, minutes) in [
            ("10 minutes", Some(10)),
            ("1 hour", Some(60)),
            ("an hour", Some(60)),
            ("2 hours", Some(120)),
            ("3 rounds", Some(1)),
            ("25 rounds", Some(3)),
            ("two days", Some(2880)),
            ("for 1 min", Some(1)),
            ("until dawn", None),
            ("999 days", Some(MAX_MINUTES)),
            ("", None),
        ] {
            assert_eq!(minutes_in(words), minutes, "{words}");
        }
    }

    #[test]
    fn typed_reads_the_kind_and_the_length_and_drops_what_was_sent() {
        let mut sent = named("poisoned");
        sent.duration = Some(ConditionDuration::new("1 hour").unwrap());
        sent.kind = Some(ConditionKind::Stunned);
        sent.ends_at = Some(5);
        let typed = sent.typed();
        assert_eq!(typed.kind, Some(ConditionKind::Poisoned));
        assert_eq!((typed.minutes, typed.ends_at), (Some(60), None));
        let note = named("Blessed by the river").typed();
        assert_eq!((note.kind, note.minutes), (None, None));
    }

    #[test]
    fn the_panel_says_what_a_condition_does_and_how_long_is_left() {
        let mut poisoned = named("Poisoned").typed();
        poisoned.ends_at = Some(600);
        assert_eq!(
            poisoned.describe(550),
            "Poisoned: disadvantage on checks and attacks (50 min left)"
        );
        assert_eq!(
            poisoned.describe(475),
            "Poisoned: disadvantage on checks and attacks (2 h 5 min left)"
        );
        let mut tired = named("Tired");
        tired.duration = Some(ConditionDuration::new("until dawn").unwrap());
        assert_eq!(tired.typed().describe(0), "Tired (until dawn)");
    }

    #[test]
    fn conditions_whose_time_is_up_expire() {
        let mut conditions = Conditions::default();
        for (name, end) in [
            ("Poisoned", Some(100)),
            ("Prone", Some(50)),
            ("Cursed", None),
        ] {
            let mut condition = named(name).typed();
            condition.ends_at = end;
            conditions.add(condition).unwrap();
        }
        assert!(conditions.expire(49).is_empty());
        let ended = conditions.expire(100);
        let names: Vec<&str> = ended.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Poisoned", "Prone"]);
        assert_eq!(conditions.len(), 1);
        assert_eq!(conditions.roll_effects(), RollEffects::default());
    }

    #[test]
    fn add_replaces_by_name_ignoring_case() {
        let mut conditions = Conditions::default();
        assert_eq!(conditions.add(named("Poisoned")).unwrap(), None);
        let mut longer = named("poisoned");
        longer.duration = Some(ConditionDuration::new("1 hour").unwrap());
        let previous = conditions.add(longer.clone()).unwrap().unwrap();
        assert_eq!(previous.name.as_str(), "Poisoned");
        assert_eq!(conditions.len(), 1);
        assert_eq!(conditions.list()[0], longer);
    }

    #[test]
    fn remove_missing_is_an_error() {
        let mut conditions = Conditions::default();
        conditions.add(named("Blessed")).unwrap();
        let err = conditions
            .remove(&ConditionName::new("Poisoned").unwrap())
            .unwrap_err();
        assert_eq!(err.to_string(), "No condition \"Poisoned\" to remove");
        let removed = conditions
            .remove(&ConditionName::new("BLESSED").unwrap())
            .unwrap();
        assert_eq!(removed.name.as_str(), "Blessed");
        assert!(conditions.is_empty());
    }

    #[test]
    fn count_is_bounded() {
        let mut conditions = Conditions::default();
        for i in 0..Conditions::MAX_CONDITIONS {
            conditions.add(named(&format!("Curse {i}"))).unwrap();
        }
        assert_eq!(
            conditions.add(named("Tired")).unwrap_err().to_string(),
            "Too many conditions (at most 20); remove one first"
        );
        assert!(conditions.add(named("curse 3")).is_ok());
        assert!(conditions
            .get(&ConditionName::new("CURSE 3").unwrap())
            .is_some());
    }

    #[test]
    fn serde_round_trip_and_blank_fields() {
        let json = r#"[{"name":"Tired","duration":"","notes":"yawning"}]"#;
        let conditions: Conditions = serde_json::from_str(json).unwrap();
        assert_eq!(conditions.list()[0].duration, None);
        let back = serde_json::to_string(&conditions).unwrap();
        assert_eq!(back, r#"[{"name":"Tired","notes":"yawning"}]"#);
        let twice = r#"[{"name":"Tired"},{"name":"tired"}]"#;
        assert!(serde_json::from_str::<Conditions>(twice).is_err());
    }
}
