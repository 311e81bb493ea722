//! Conditions (a table of them on the sheet): a name with an optional duration and notes, at most
//! [`Conditions::MAX_CONDITIONS`] at once, names unique ignoring case. Adding a condition the
//! character already has replaces its duration and notes.

use serde::{Deserialize, Serialize};

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
}

impl Condition {
    /// A condition with just a name.
    pub fn named(name: ConditionName) -> Self {
        Self {
            name,
            duration: None,
            notes: None,
        }
    }
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
