//! `update_character`: hit points, level, attribute scores, conditions, place and time.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

use super::lenient::as_integer;
use super::{GameTool, ToolCommand};
use crate::game::text::{ConditionName, LocationName};
use crate::game::{Attribute, Condition, StateDelta};

/// Arguments of `update_character`; every field is optional, at least one must be given.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateCharacter {
    /// Damage (negative) or healing (positive) to hit points, e.g. -5; null if none.
    #[serde(alias = "hp_change", alias = "damage_or_healing")]
    pub hp_change: Option<i32>,
    /// Set current hit points to exactly this; null to leave them.
    pub hp: Option<i32>,
    /// Set maximum hit points; null to leave them.
    #[serde(alias = "max_hp")]
    pub max_hp: Option<i32>,
    /// Set the level (1 to 20); null to leave it.
    pub level: Option<i32>,
    /// Attribute scores to set (1 to 30); null to leave them.
    #[serde(deserialize_with = "stats")]
    pub stats: Option<Vec<StatScore>>,
    /// Change to sanity, e.g. -10; null if none.
    #[serde(alias = "sanity_change")]
    pub sanity_change: Option<i32>,
    /// Conditions the character gains; null if none.
    #[serde(alias = "add_conditions")]
    pub add_conditions: Option<Vec<Condition>>,
    /// Names of conditions the character loses; null if none.
    #[serde(alias = "remove_conditions")]
    pub remove_conditions: Option<Vec<ConditionName>>,
    /// Where the character is now, if they moved; null if not.
    pub location: Option<LocationName>,
    /// In-game minutes that passed, if notable; null if not.
    #[serde(alias = "minutes_passed")]
    pub minutes_passed: Option<i32>,
}

/// One attribute score to set.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct StatScore {
    /// STR, DEX, CON, INT, WIS or CHA.
    pub attribute: Attribute,
    /// The new score.
    pub score: i32,
}

/// Reads the list form `[{"attribute": "WIS", "score": 14}]` and the object form
/// `{"wisdom": 14}` models often write. The schema only describes the list form, so the object
/// form's scores are read leniently here (`"14"` is 14).
fn stats<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<StatScore>>, D::Error> {
    use serde::de::Error;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Wire {
        List(Vec<StatScore>),
        Map(std::collections::BTreeMap<String, serde_json::Value>),
    }
    match Option::<Wire>::deserialize(deserializer)? {
        None => Ok(None),
        Some(Wire::List(list)) => Ok(Some(list)),
        Some(Wire::Map(map)) => map
            .into_iter()
            .map(|(name, score)| {
                let attribute = name.parse::<Attribute>().map_err(D::Error::custom)?;
                let score = as_integer(&score)
                    .and_then(|score| i32::try_from(score).ok())
                    .ok_or_else(|| {
                        D::Error::custom(format!(
                            "the score for {name} must be a whole number, not {score}"
                        ))
                    })?;
                Ok(StatScore { attribute, score })
            })
            .collect::<Result<_, _>>()
            .map(Some),
    }
}

/// The most conditions one call may add or remove.
const MAX_CONDITIONS_PER_CALL: usize = 5;

impl GameTool for UpdateCharacter {
    const NAME: &'static str = "update_character";
    const DESCRIPTION: &'static str = "Change the character: damage or healing (hpChange), \
        level, attribute scores, sanity, conditions gained or lost, a new location, time passing. \
        Use it after the dice decided the outcome.";

    fn into_command(self) -> Result<ToolCommand, String> {
        if self.hp.is_some() && self.hp_change.is_some() {
            return Err("give either hp or hpChange, not both".into());
        }
        let too_many = |list: &Option<Vec<_>>| {
            list.as_ref()
                .is_some_and(|l| l.len() > MAX_CONDITIONS_PER_CALL)
        };
        if too_many(&self.add_conditions)
            || self
                .remove_conditions
                .as_ref()
                .is_some_and(|l| l.len() > MAX_CONDITIONS_PER_CALL)
        {
            return Err(format!(
                "add or remove at most {MAX_CONDITIONS_PER_CALL} conditions per call"
            ));
        }
        let minutes = match self.minutes_passed {
            Some(minutes) => Some(
                u32::try_from(minutes)
                    .ok()
                    .filter(|m| *m <= 60 * 24 * 30)
                    .ok_or_else(|| format!("minutesPassed must be 0 to 43200, not {minutes}"))?,
            ),
            None => None,
        };

        let mut deltas = Vec::new();
        deltas.extend(self.max_hp.map(|max_hp| StateDelta::SetMaxHp { max_hp }));
        deltas.extend(self.hp.map(|hp| StateDelta::SetHp { hp }));
        deltas.extend(self.hp_change.map(|amount| StateDelta::ChangeHp { amount }));
        deltas.extend(self.level.map(|level| StateDelta::SetLevel { level }));
        for stat in self.stats.into_iter().flatten() {
            deltas.push(StateDelta::SetAttribute {
                attribute: stat.attribute,
                score: stat.score,
            });
        }
        deltas.extend(
            self.sanity_change
                .map(|amount| StateDelta::ChangeSanity { amount }),
        );
        for condition in self.add_conditions.into_iter().flatten() {
            deltas.push(StateDelta::AddCondition { condition });
        }
        for name in self.remove_conditions.into_iter().flatten() {
            deltas.push(StateDelta::RemoveCondition { name });
        }
        deltas.extend(
            self.location
                .map(|location| StateDelta::MoveTo { location }),
        );
        deltas.extend(minutes.map(|minutes| StateDelta::AdvanceTime { minutes }));

        if deltas.is_empty() {
            return Err("nothing to update: give at least one field".into());
        }
        Ok(ToolCommand::Change(deltas))
    }
}
