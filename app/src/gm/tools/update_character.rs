//! `update_character`: hit points, sanity, conditions, place and time. Level, maximum hit points
//! and attribute scores are the rules' to set: a call that names them is refused with the reason.

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::text::{ConditionName, LocationName};
use crate::game::{Condition, StateDelta};

/// Arguments of `update_character`; every field is optional, at least one must be given.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateCharacter {
    /// Damage (-) or healing (+).
    #[serde(alias = "hp_change", alias = "damage_or_healing")]
    pub hp_change: Option<i32>,
    /// HP set exactly.
    pub hp: Option<i32>,
    /// Refused: maximum hit points follow from class, level and CON.
    #[serde(alias = "max_hp")]
    #[schemars(skip)]
    pub max_hp: Option<serde_json::Value>,
    /// Refused: levels come from experience (`award_experience`).
    #[schemars(skip)]
    pub level: Option<serde_json::Value>,
    /// Refused: attribute scores do not change in play.
    #[schemars(skip)]
    pub stats: Option<serde_json::Value>,
    /// Sanity change.
    #[serde(alias = "sanity_change")]
    pub sanity_change: Option<i32>,
    /// Conditions gained (e.g. Poisoned).
    #[serde(alias = "add_conditions")]
    pub add_conditions: Option<Vec<Condition>>,
    /// Conditions lost, by name.
    #[serde(alias = "remove_conditions")]
    pub remove_conditions: Option<Vec<ConditionName>>,
    /// Where they are now, if they moved.
    pub location: Option<LocationName>,
    /// Game minutes passed, if notable.
    #[serde(alias = "minutes_passed")]
    pub minutes_passed: Option<i32>,
}

/// Why `maxHp`, `level` and `stats` are refused.
const RULED: &str = "the rules set level, maximum HP and attribute scores: award experience \
    with award_experience (a level comes when it is earned, with its hit points); scores do not \
    change in play";

/// The most conditions one call may add or remove.
const MAX_CONDITIONS_PER_CALL: usize = 5;

impl GameTool for UpdateCharacter {
    const NAME: &'static str = "update_character";
    const DESCRIPTION: &'static str = "Change the character once the dice decided: HP \
        (outside a fight, at most this turn's roll_dice total), sanity, conditions, place, time.";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        if self.max_hp.is_some() || self.level.is_some() || self.stats.is_some() {
            return Err(ArgumentError::TheRules(RULED));
        }
        if self.hp.is_some() && self.hp_change.is_some() {
            return Err(ArgumentError::EitherOr("hp", "hpChange"));
        }
        let adding = self.add_conditions.as_ref().map_or(0, Vec::len);
        let removing = self.remove_conditions.as_ref().map_or(0, Vec::len);
        for (what, given) in [
            ("conditions to add", adding),
            ("conditions to remove", removing),
        ] {
            if given > MAX_CONDITIONS_PER_CALL {
                return Err(ArgumentError::PerCall {
                    what,
                    min: 0,
                    max: MAX_CONDITIONS_PER_CALL,
                    given,
                });
            }
        }
        let minutes = match self.minutes_passed {
            Some(minutes) => Some(
                u32::try_from(minutes)
                    .ok()
                    .filter(|m| *m <= 60 * 24 * 30)
                    .ok_or(ArgumentError::OutOfRange {
                        field: "minutesPassed",
                        min: 0,
                        max: 60 * 24 * 30,
                        given: i64::from(minutes),
                    })?,
            ),
            None => None,
        };

        let mut deltas = Vec::new();
        deltas.extend(
            self.sanity_change
                .map(|amount| StateDelta::ChangeSanity { amount }),
        );
        for condition in self.add_conditions.into_iter().flatten() {
            deltas.push(StateDelta::AddCondition {
                condition: condition.typed(),
            });
        }
        for name in self.remove_conditions.into_iter().flatten() {
            deltas.push(StateDelta::RemoveCondition { name });
        }
        deltas.extend(
            self.location
                .map(|location| StateDelta::MoveTo { location }),
        );
        deltas.extend(minutes.map(|minutes| StateDelta::AdvanceTime { minutes }));
        // Hit points last: a blow that ends the story lands after the rest of the call.
        deltas.extend(self.hp.map(|hp| StateDelta::SetHp { hp }));
        deltas.extend(self.hp_change.map(|amount| StateDelta::ChangeHp { amount }));

        if deltas.is_empty() {
            return Err(ArgumentError::Nothing);
        }
        Ok(ToolCommand::Change(deltas))
    }
}
