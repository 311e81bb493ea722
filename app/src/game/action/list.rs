//! The validated list of 1 to 6 actions with unique ids (checked again when a stored list is
//! read back), and what is wrong with an answer: each problem located by action, the warnings
//! for what was dropped, and the error that lists them for the model.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Action;
use crate::game::attributes::AttributeError;
use crate::game::dice::{DiceError, DifficultyClassError};
use crate::game::proficiency::SkillError;
use crate::game::text::{excerpt, Slug, TextError};

/// 1..=6 validated actions with unique ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Action>", into = "Vec<Action>")]
pub struct ActionList(pub(super) Vec<Action>);

impl ActionList {
    /// The fewest actions offered.
    pub const MIN_ACTIONS: usize = 1;
    /// The most actions offered.
    pub const MAX_ACTIONS: usize = 6;

    /// The actions, in the order offered.
    pub fn actions(&self) -> &[Action] {
        &self.0
    }

    /// The action with `id`, if offered.
    pub fn get(&self, id: &Slug) -> Option<&Action> {
        self.0.iter().find(|a| &a.id == id)
    }

    /// How many actions there are (1..=6).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: a list has at least one action.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl TryFrom<Vec<Action>> for ActionList {
    type Error = ActionListError;

    fn try_from(actions: Vec<Action>) -> Result<Self, Self::Error> {
        let mut problems = Vec::new();
        for (index, action) in actions.iter().enumerate() {
            if actions[..index].iter().any(|a| a.id == action.id) {
                problems.push(ActionProblem::at(
                    index,
                    action.id.as_str(),
                    ActionIssue::DuplicateId,
                ));
            }
        }
        if let Some(issue) = count_issue(actions.len()) {
            problems.push(ActionProblem::list(issue));
        }
        if problems.is_empty() {
            Ok(Self(actions))
        } else {
            Err(ActionListError { problems })
        }
    }
}

impl From<ActionList> for Vec<Action> {
    fn from(list: ActionList) -> Self {
        list.0
    }
}

/// The list-level problem with `count` actions, if any.
pub(super) fn count_issue(count: usize) -> Option<ActionIssue> {
    if count < ActionList::MIN_ACTIONS {
        Some(ActionIssue::NoActions)
    } else if count > ActionList::MAX_ACTIONS {
        Some(ActionIssue::TooMany { count })
    } else {
        None
    }
}

/// A validated list and what was silently fixed on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidatedActions {
    /// The actions.
    pub actions: ActionList,
    /// What was dropped.
    pub warnings: Vec<ActionWarning>,
}

/// Something dropped from an otherwise valid answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionWarning {
    /// An action with the id or description of an earlier one.
    #[error("action {} (\"{id}\"): dropped as a duplicate of action {}", .index + 1, .first + 1)]
    Duplicate {
        /// Its position in the answer, from 0.
        index: usize,
        /// Its id.
        id: Slug,
        /// The position of the action it duplicates, from 0.
        first: usize,
    },
    /// A DC, dice reason or attribute on an action without dice.
    #[error("action {} (\"{id}\"): {field} ignored because there is no diceRoll", .index + 1)]
    IgnoredWithoutDice {
        /// Its position in the answer, from 0.
        index: usize,
        /// Its id.
        id: Slug,
        /// The ignored field's wire name.
        field: &'static str,
    },
}

/// What is wrong with one action or with the whole list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionIssue {
    /// The id is empty or has no letters or digits.
    #[error("bad id: {0}")]
    Id(TextError),
    /// The id of an earlier action (only in stored lists; answers drop duplicates).
    #[error("id is used by an earlier action")]
    DuplicateId,
    /// The description is empty or too long.
    #[error("bad description: {0}")]
    Description(TextError),
    /// The dice notation does not parse or is out of bounds.
    #[error("bad diceRoll {0}")]
    Dice(DiceError),
    /// The dice reason is too long.
    #[error("bad diceReason: {0}")]
    DiceReason(TextError),
    /// The DC is not a whole number 1..=30.
    #[error("bad difficultyClass: {0}")]
    DifficultyClass(DifficultyClassError),
    /// The attribute is unknown.
    #[error("bad attribute: {0}")]
    Attribute(AttributeError),
    /// The skill is unknown.
    #[error("bad skill: {0}")]
    Skill(SkillError),
    /// The list is empty.
    #[error(
        "no actions; give {} to {}",
        ActionList::MIN_ACTIONS,
        ActionList::MAX_ACTIONS
    )]
    NoActions,
    /// The list is too long.
    #[error("{count} actions; give at most {}", ActionList::MAX_ACTIONS)]
    TooMany {
        /// How many distinct actions there were.
        count: usize,
    },
    /// A placeholder, not a move in the scene ("Take action 2").
    #[error(
        "is a placeholder, not a move: say what the character does in this scene, e.g. \
         \"Pry the iron door open\""
    )]
    Placeholder,
    /// It only repeats the character sheet or the premise.
    #[error(
        "repeats the character sheet or the premise: say what the character does in this scene"
    )]
    Echo,
    /// The answer is not the expected JSON.
    #[error("not a valid JSON action list: {detail}")]
    NotJson {
        /// The parser's message.
        detail: String,
    },
}

/// One problem, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionProblem {
    /// The action's position in the answer, from 0; `None` for the list as a whole.
    pub index: Option<usize>,
    /// The action's id as written (cut to 40 characters), if the problem is about one action.
    pub id: Option<String>,
    /// What is wrong.
    pub issue: ActionIssue,
}

impl ActionProblem {
    pub(in crate::game) fn at(index: usize, id: &str, issue: ActionIssue) -> Self {
        Self {
            index: Some(index),
            id: Some(excerpt(id.trim())).filter(|id| !id.is_empty()),
            issue,
        }
    }

    pub(super) fn list(issue: ActionIssue) -> Self {
        Self {
            index: None,
            id: None,
            issue,
        }
    }
}

impl fmt::Display for ActionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.index, &self.id) {
            (Some(index), Some(id)) => write!(f, "action {} (\"{id}\"): {}", index + 1, self.issue),
            (Some(index), None) => write!(f, "action {}: {}", index + 1, self.issue),
            (None, _) => write!(f, "{}", self.issue),
        }
    }
}

/// Why an action list was rejected: every problem found, one per line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ActionListError {
    /// The problems, in order.
    pub problems: Vec<ActionProblem>,
}

impl fmt::Display for ActionListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("The action list was rejected:")?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}
