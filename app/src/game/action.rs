//! The actions the player is offered (phase 2's output: an id, a description, and an optional roll
//! with its reason, difficulty class and attribute) and their validation.
//!
//! The model answers with an [`ActionListDraft`] (`{ "actions": [...] }`; the game master shapes
//! its derived JSON schema for the model provider). [`ActionListDraft::validate`] turns it into an
//! [`ActionList`] of 1..=6 [`Action`]s: ids become slugs and must be unique, descriptions are
//! non-empty and at most 200 characters, dice notation parses, difficulty classes are 1..=30,
//! attributes are known. Duplicate actions (same id, or same description ignoring case) are
//! dropped with a warning, and so are a DC, reason or attribute given without dice. Anything else
//! is an [`ActionListError`] listing each bad action by number and id, written so the model can
//! repair its answer.
//!
//! When an action names an attribute, its modifier comes from the sheet and is added to the roll
//! ([`Action::resolve`]); the action's own notation should then be the bare dice (`1d20`).

use std::fmt;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::attributes::{Attribute, AttributeBonus, AttributeError};
use super::dice::{
    Chance, Check, DiceError, DiceExpr, DifficultyClass, DifficultyClassError, Edge, Roll,
};
use super::fight::FightMove;
use super::proficiency::{Skill, SkillError};
use super::sheet::CharacterSheet;
use super::text::{excerpt, ActionDescription, DiceReason, Slug, StakeText, TextError};

/// One action as the model wrote it, before validation. Lenient on purpose: a blank string for
/// an optional field means "none", a DC may be a number or a numeric string, unknown fields are
/// ignored, so that one sloppy field yields a precise error instead of a failed parse.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(description = "One action the player can choose next.")]
pub struct ActionDraft {
    /// Short unique id in kebab-case, e.g. "search-desk".
    #[serde(default)]
    pub id: String,
    /// The action as a button label, at most 200 characters.
    #[serde(default)]
    pub description: String,
    /// Dice to roll if the outcome is uncertain, e.g. "1d20" or "2d20kh1"; null if no roll.
    #[serde(default)]
    pub dice_roll: Option<String>,
    /// What the roll is for, e.g. "Stealth"; null if no roll.
    #[serde(default)]
    pub dice_reason: Option<String>,
    /// Number to meet or beat, 1 to 30; null if no roll or no target.
    #[serde(default)]
    #[schemars(with = "Option<DifficultyClass>")]
    pub difficulty_class: Option<Value>,
    /// Attribute whose modifier is added to the roll; null if none.
    #[serde(default)]
    #[schemars(with = "Option<Attribute>")]
    pub attribute: Option<String>,
    /// The skill the check uses, e.g. "Stealth" (the character's proficiency counts); null if none.
    #[serde(default)]
    #[schemars(with = "Option<Skill>")]
    pub skill: Option<String>,
    /// With a roll: what happens if it succeeds, in a few words; else null.
    #[serde(default)]
    pub on_success: Option<String>,
    /// With a roll: what happens if it fails, in a few words; else null.
    #[serde(default)]
    pub on_failure: Option<String>,
}

/// The model's phase-2 answer, `{ "actions": [...] }`, before validation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(description = "The actions the player can choose from next.")]
pub struct ActionListDraft {
    /// Between 1 and 6 distinct actions.
    pub actions: Vec<ActionDraft>,
}

/// A validated action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    id: Slug,
    description: ActionDescription,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice_roll: Option<DiceExpr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice_reason: Option<DiceReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    difficulty_class: Option<DifficultyClass>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attribute: Option<Attribute>,
    /// The skill of the check, whose proficiency counts (none on actions offered before
    /// proficiency counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skill: Option<Skill>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stakes: Option<RollStakes>,
    /// A move of the fight under way, offered by the rules (never by the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fight: Option<FightMove>,
}

/// What rides on an action's roll, shown before the player commits (what success and failure each lead to).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollStakes {
    /// What a success brings.
    pub success: StakeText,
    /// What a failure costs.
    pub failure: StakeText,
}

/// The outcome of an action's roll: a check when it has a DC, a plain roll otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Resolution {
    /// A roll without a difficulty class.
    Roll(Roll),
    /// A roll against a difficulty class.
    Check(Check),
}

impl Resolution {
    /// The roll itself.
    pub fn roll(&self) -> &Roll {
        match self {
            Resolution::Roll(roll) => roll,
            Resolution::Check(check) => check.roll(),
        }
    }

    /// The line for the story log and the narrator (see [`Roll::describe`], [`Check::describe`]).
    pub fn describe(&self, reason: &str) -> String {
        match self {
            Resolution::Roll(roll) => roll.describe(reason),
            Resolution::Check(check) => check.describe(reason),
        }
    }
}

impl Action {
    /// A move of the fight under way, as the rules offer it: no dice of its own (the rules
    /// roll the fight's).
    pub fn fight_move(id: Slug, description: ActionDescription, fight: FightMove) -> Self {
        Self {
            id,
            description,
            dice_roll: None,
            dice_reason: None,
            difficulty_class: None,
            attribute: None,
            skill: None,
            stakes: None,
            fight: Some(fight),
        }
    }

    /// The fight's move, for an action the rules offered in a fight.
    pub fn fight(&self) -> Option<&FightMove> {
        self.fight.as_ref()
    }

    /// The action's id.
    pub fn id(&self) -> &Slug {
        &self.id
    }

    /// The button text.
    pub fn description(&self) -> &ActionDescription {
        &self.description
    }

    /// The dice it rolls, if any.
    pub fn dice_roll(&self) -> Option<&DiceExpr> {
        self.dice_roll.as_ref()
    }

    /// What the roll is for, if given.
    pub fn dice_reason(&self) -> Option<&DiceReason> {
        self.dice_reason.as_ref()
    }

    /// The DC to meet, if any.
    pub fn difficulty_class(&self) -> Option<DifficultyClass> {
        self.difficulty_class
    }

    /// The attribute whose modifier is added, if any.
    pub fn attribute(&self) -> Option<Attribute> {
        self.attribute
    }

    /// The skill of the check, if it names one.
    pub fn skill(&self) -> Option<Skill> {
        self.skill
    }

    /// What `sheet` adds to this action's dice: its attribute's modifier, and the proficiency
    /// bonus when the character is proficient in its skill; `None` without an attribute.
    fn bonus(&self, sheet: &CharacterSheet) -> Option<AttributeBonus> {
        self.attribute
            .map(|attribute| sheet.check_bonus(attribute, self.skill))
    }

    /// What rides on the roll, if the model said.
    pub fn stakes(&self) -> Option<&RollStakes> {
        self.stakes.as_ref()
    }

    /// The reason to show with the roll: the dice reason, else the description.
    pub fn roll_reason(&self) -> &str {
        self.dice_reason
            .as_ref()
            .map_or(self.description.as_str(), DiceReason::as_str)
    }

    /// The action button's dice badge for `sheet`'s character whose conditions give `edge` on
    /// checks, e.g. `1d20+2 vs DC 12`, or `2d20kl1+2 vs DC 12 (disadvantage)` (the attribute
    /// modifier and any proficiency included); `None` when the action rolls no dice.
    pub fn badge(&self, sheet: &CharacterSheet, edge: Edge) -> Option<String> {
        let dice = self.dice_roll.as_ref()?;
        let rolled = edge.apply(dice);
        let bonus = self.bonus(sheet).map_or(0, |b| i32::from(b.total()));
        let notation = rolled.notation_with_bonus(bonus);
        let mut badge = match self.difficulty_class {
            Some(dc) => format!("{notation} vs {dc}"),
            None => notation,
        };
        if let Some(word) = edge.word().filter(|_| rolled != *dice) {
            badge.push_str(&format!(" ({word})"));
        }
        Some(badge)
    }

    /// The chance the action's roll meets its DC for `sheet`'s character with `edge` on checks,
    /// worked out by the rules from the dice and the bonus; `None` without a DC.
    pub fn chance(&self, sheet: &CharacterSheet, edge: Edge) -> Option<Chance> {
        let dice = self.dice_roll.as_ref()?;
        let dc = self.difficulty_class?;
        let bonus = self.bonus(sheet).map_or(0, |b| i32::from(b.total()));
        Chance::to_meet(&edge.apply(dice), bonus, dc)
    }

    /// Whether `resolution` is what this action's roll gives `sheet`'s character with `edge`,
    /// with the faces it shows: the same dice and modifier, and the verdict its DC gives.
    pub fn explains(&self, sheet: &CharacterSheet, edge: Edge, resolution: &Resolution) -> bool {
        let Some(dice) = &self.dice_roll else {
            return false;
        };
        let roll = resolution.roll();
        let bonus = self.bonus(sheet);
        if roll.attribute() != bonus || !edge.apply(dice).explains(roll) {
            return false;
        }
        match (self.difficulty_class, resolution) {
            (Some(dc), Resolution::Check(check)) => *check == Check::new(roll.clone(), dc),
            (None, Resolution::Roll(_)) => true,
            _ => false,
        }
    }

    /// Rolls the action's dice for `sheet`'s character with `edge` on checks (a plain d20
    /// rolled twice), adding the named attribute's modifier (and the proficiency bonus in a
    /// skill of theirs), and judges the DC if there is one. `None` when the action rolls no dice.
    pub fn resolve<R: Rng + ?Sized>(
        &self,
        sheet: &CharacterSheet,
        edge: Edge,
        rng: &mut R,
    ) -> Option<Resolution> {
        let dice = &edge.apply(self.dice_roll.as_ref()?);
        let roll = match self.bonus(sheet) {
            Some(bonus) => dice.roll_with_bonus(bonus, rng),
            None => dice.roll(rng),
        };
        Some(match self.difficulty_class {
            Some(dc) => Resolution::Check(Check::new(roll, dc)),
            None => Resolution::Roll(roll),
        })
    }
}

/// 1..=6 validated actions with unique ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Action>", into = "Vec<Action>")]
pub struct ActionList(Vec<Action>);

impl ActionList {
    /// The fewest actions offered.
    pub const MIN_ACTIONS: usize = 1;
    /// The most actions offered.
    pub const MAX_ACTIONS: usize = 6;
    /// Parses and validates the model's JSON answer: `{ "actions": [...] }` or a bare array.
    pub fn parse_json(json: &str) -> Result<ValidatedActions, ActionListError> {
        let not_json = |e: serde_json::Error| ActionListError {
            problems: vec![ActionProblem::list(ActionIssue::NotJson {
                detail: e.to_string(),
            })],
        };
        let value: Value = serde_json::from_str(json).map_err(not_json)?;
        let draft = if value.is_array() {
            serde_json::from_value(value).map(|actions| ActionListDraft { actions })
        } else {
            serde_json::from_value::<ActionListDraft>(value)
        };
        draft.map_err(not_json)?.validate()
    }

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
fn count_issue(count: usize) -> Option<ActionIssue> {
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
    pub(super) fn at(index: usize, id: &str, issue: ActionIssue) -> Self {
        Self {
            index: Some(index),
            id: Some(excerpt(id.trim())).filter(|id| !id.is_empty()),
            issue,
        }
    }

    fn list(issue: ActionIssue) -> Self {
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

impl ActionListDraft {
    /// Validates every action and the list (see the module docs).
    pub fn validate(self) -> Result<ValidatedActions, ActionListError> {
        let mut problems = Vec::new();
        let mut warnings = Vec::new();
        let mut kept: Vec<(usize, Action)> = Vec::new();
        for (index, draft) in self.actions.into_iter().enumerate() {
            let Some(action) = validate_action(index, draft, &mut problems, &mut warnings) else {
                continue;
            };
            let duplicate_of = kept.iter().find(|(_, a)| {
                a.id == action.id || a.description.eq_ignore_case(&action.description)
            });
            match duplicate_of {
                Some((first, _)) => warnings.push(ActionWarning::Duplicate {
                    index,
                    id: action.id,
                    first: *first,
                }),
                None => kept.push((index, action)),
            }
        }
        if problems.is_empty() {
            if let Some(issue) = count_issue(kept.len()) {
                problems.push(ActionProblem::list(issue));
            }
        }
        if !problems.is_empty() {
            return Err(ActionListError { problems });
        }
        Ok(ValidatedActions {
            actions: ActionList(kept.into_iter().map(|(_, a)| a).collect()),
            warnings,
        })
    }
}

/// Validates one draft, recording every problem; `None` if it had any.
fn validate_action(
    index: usize,
    draft: ActionDraft,
    problems: &mut Vec<ActionProblem>,
    warnings: &mut Vec<ActionWarning>,
) -> Option<Action> {
    let before = problems.len();
    let mut problem = |issue| problems.push(ActionProblem::at(index, &draft.id, issue));
    let id = Slug::new(&draft.id)
        .map_err(|e| problem(ActionIssue::Id(e)))
        .ok();
    let description = ActionDescription::new(&draft.description)
        .map_err(|e| problem(ActionIssue::Description(e)))
        .ok();
    let dice_roll = blank(draft.dice_roll.as_deref()).and_then(|raw| {
        DiceExpr::parse(raw)
            .map_err(|e| problem(ActionIssue::Dice(e)))
            .ok()
    });
    let has_dice = blank(draft.dice_roll.as_deref()).is_some();
    // Without dice the roll fields mean nothing: they are ignored (with a warning), not checked.
    let mut ignored = Vec::new();
    let dice_reason = match blank(draft.dice_reason.as_deref()) {
        Some(_) if !has_dice => {
            ignored.push("diceReason");
            None
        }
        raw => DiceReason::new_optional(raw.unwrap_or(""))
            .map_err(|e| problem(ActionIssue::DiceReason(e)))
            .ok()
            .flatten(),
    };
    let difficulty_class = match draft.difficulty_class.as_ref().map(parse_difficulty_class) {
        Some(Ok(None)) | None => None,
        Some(_) if !has_dice => {
            ignored.push("difficultyClass");
            None
        }
        Some(parsed) => parsed
            .map_err(|e| problem(ActionIssue::DifficultyClass(e)))
            .ok()
            .flatten(),
    };
    let (attribute, skill) =
        action_attribute(&draft, dice_reason.as_ref(), &mut ignored, &mut problem);
    if problems.len() > before {
        return None;
    }
    let (id, description) = (id?, description?);
    for field in ignored {
        warnings.push(ActionWarning::IgnoredWithoutDice {
            index,
            id: id.clone(),
            field,
        });
    }
    let stakes = roll_stakes(&draft, has_dice);
    Some(Action {
        id,
        description,
        dice_roll,
        dice_reason,
        difficulty_class,
        attribute,
        skill,
        stakes,
        fight: None,
    })
}

/// The attribute and skill of a rolled action: the attribute it names, else its skill's (a
/// skill names the attribute of a check that names none). Either named without dice is ignored,
/// an unknown one is a problem.
fn action_attribute(
    draft: &ActionDraft,
    reason: Option<&DiceReason>,
    ignored: &mut Vec<&'static str>,
    problem: &mut impl FnMut(ActionIssue),
) -> (Option<Attribute>, Option<Skill>) {
    let has_dice = blank(draft.dice_roll.as_deref()).is_some();
    let attribute = match blank(draft.attribute.as_deref()) {
        Some(_) if !has_dice => {
            ignored.push("attribute");
            None
        }
        raw => raw.and_then(|raw| {
            raw.parse::<Attribute>()
                .map_err(|e| problem(ActionIssue::Attribute(e)))
                .ok()
        }),
    };
    let skill = action_skill(draft, reason, ignored, problem);
    (attribute.or(skill.map(Skill::attribute)), skill)
}

/// The skill of a rolled action: the one it names, else the one its dice reason is the name of
/// (`"Stealth"`); a skill named without dice is ignored, an unknown one is a problem.
fn action_skill(
    draft: &ActionDraft,
    reason: Option<&DiceReason>,
    ignored: &mut Vec<&'static str>,
    problem: &mut impl FnMut(ActionIssue),
) -> Option<Skill> {
    let has_dice = blank(draft.dice_roll.as_deref()).is_some();
    match blank(draft.skill.as_deref()) {
        Some(_) if !has_dice => {
            ignored.push("skill");
            None
        }
        Some(raw) => raw
            .parse::<Skill>()
            .map_err(|e| problem(ActionIssue::Skill(e)))
            .ok(),
        None => reason.and_then(|reason| Skill::named_by(reason.as_str())),
    }
}

/// Both stakes of a roll, when the action rolls and both are usable text (they are a courtesy
/// to the player: unusable ones are left out, not refused).
fn roll_stakes(draft: &ActionDraft, has_dice: bool) -> Option<RollStakes> {
    let text = |raw: &Option<String>| StakeText::new(blank(raw.as_deref())?).ok();
    has_dice.then_some(())?;
    Some(RollStakes {
        success: text(&draft.on_success)?,
        failure: text(&draft.on_failure)?,
    })
}

/// `raw` unless it is missing or blank.
fn blank(raw: Option<&str>) -> Option<&str> {
    raw.filter(|s| !s.trim().is_empty())
}

/// A DC from JSON: a whole number, a numeric string (`"12"`, `"DC 12"`), or null / blank for
/// none.
fn parse_difficulty_class(value: &Value) -> Result<Option<DifficultyClass>, DifficultyClassError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) => s.parse().map(Some),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => DifficultyClass::new(i).map(Some),
            // Integral floats such as 12.0 are fine; the cast is exact for them within range.
            (None, Some(f)) if f.fract() == 0.0 && (1.0..=30.0).contains(&f) => {
                DifficultyClass::new(f as i64).map(Some)
            }
            _ => Err(DifficultyClassError::new(n)),
        },
        other => Err(DifficultyClassError::new(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::attributes::{AttributeScore, Attributes};
    use crate::game::sheet::tests::mira;
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use serde_json::json;

    fn draft(id: &str, description: &str) -> ActionDraft {
        ActionDraft {
            id: id.to_owned(),
            description: description.to_owned(),
            ..ActionDraft::default()
        }
    }

    fn rolled(id: &str, dice: &str, dc: Option<i64>) -> ActionDraft {
        ActionDraft {
            dice_roll: Some(dice.to_owned()),
            difficulty_class: dc.map(Value::from),
            ..draft(id, &format!("Try {id}"))
        }
    }

    fn validate(actions: Vec<ActionDraft>) -> Result<ValidatedActions, ActionListError> {
        ActionListDraft { actions }.validate()
    }

    #[test]
    fn the_stakes_of_a_roll_are_kept_and_those_of_no_roll_dropped() {
        let with = |mut draft: ActionDraft| {
            draft.on_success = Some("You are over the wall".into());
            draft.on_failure = Some("The guard hears you".into());
            draft
        };
        let validated = validate(vec![
            with(rolled("climb", "1d20", Some(12))),
            with(draft("wait", "Wait")),
        ])
        .unwrap();
        let actions = validated.actions.actions();
        let stakes = actions[0].stakes().expect("a roll keeps its stakes");
        assert_eq!(stakes.success.as_str(), "You are over the wall");
        assert_eq!(stakes.failure.as_str(), "The guard hears you");
        assert_eq!(actions[1].stakes(), None);
        let mut long = with(rolled("leap", "1d20", Some(12)));
        long.on_failure = Some("x".repeat(500));
        assert_eq!(
            validate(vec![long]).unwrap().actions.actions()[0].stakes(),
            None
        );
    }

    #[test]
    fn parses_seed_001_answer() {
        let json = r#"{"actions":[{"id":"attack","description":"Attack the goblin",
            "diceRoll":"1d20+5","diceReason":"Attack Roll","difficultyClass":12}]}"#;
        let validated = ActionList::parse_json(json).unwrap();
        assert!(validated.warnings.is_empty());
        let action = &validated.actions.actions()[0];
        assert_eq!(action.id().as_str(), "attack");
        assert_eq!(action.description().as_str(), "Attack the goblin");
        assert_eq!(action.dice_roll().unwrap().to_string(), "1d20+5");
        assert_eq!(action.dice_reason().unwrap().as_str(), "Attack Roll");
        assert_eq!(action.difficulty_class().unwrap().value(), 12);
        assert_eq!(action.attribute(), None);
        assert_eq!(action.roll_reason(), "Attack Roll");
        let wire = serde_json::to_value(validated.actions.actions()).unwrap();
        assert_eq!(
            wire,
            json!([{"id":"attack","description":"Attack the goblin","diceRoll":"1d20+5",
                     "diceReason":"Attack Roll","difficultyClass":12}])
        );
    }

    #[test]
    fn lenient_fields() {
        let json = r#"[{"id":"Sneak Past","description":" Sneak past the guard ","diceRoll":"",
            "diceReason":null,"difficultyClass":null,"attribute":"","extra":1},
            {"id":"climb","description":"Climb","diceRoll":"d20","difficultyClass":"DC 14",
            "attribute":"strength"},
            {"id":"jump","description":"Jump","diceRoll":"d20","difficultyClass":11.0}]"#;
        let validated = ActionList::parse_json(json).unwrap();
        let actions = validated.actions.actions();
        assert_eq!(actions[0].id().as_str(), "sneak-past");
        assert_eq!(actions[0].description().as_str(), "Sneak past the guard");
        assert_eq!(actions[0].dice_roll(), None);
        assert_eq!(actions[1].difficulty_class().unwrap().value(), 14);
        assert_eq!(actions[1].attribute(), Some(Attribute::Strength));
        assert_eq!(actions[2].difficulty_class().unwrap().value(), 11);
        assert_eq!(validated.actions.len(), 3);
        assert!(!validated.actions.is_empty());
        assert!(validated
            .actions
            .get(&Slug::new("climb").unwrap())
            .is_some());
    }

    #[test]
    fn duplicates_are_dropped_with_warnings() {
        let validated = validate(vec![
            draft("look", "Look around"),
            draft("look", "Look again"),
            draft("peek", "look AROUND"),
            draft("leave", "Leave"),
        ])
        .unwrap();
        let ids: Vec<&str> = validated
            .actions
            .actions()
            .iter()
            .map(|a| a.id().as_str())
            .collect();
        assert_eq!(ids, ["look", "leave"]);
        let warnings: Vec<String> = validated.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            warnings,
            [
                "action 2 (\"look\"): dropped as a duplicate of action 1",
                "action 3 (\"peek\"): dropped as a duplicate of action 1",
            ]
        );
    }

    #[test]
    fn roll_fields_without_dice_are_ignored_with_warnings() {
        let mut action = draft("talk", "Talk to the guard");
        action.difficulty_class = Some(json!(0));
        action.attribute = Some("charm".to_owned());
        let mut plain = draft("wait", "Wait");
        plain.difficulty_class = Some(json!(null));
        plain.dice_reason = Some(String::new());
        let validated = validate(vec![action, plain]).unwrap();
        let action = &validated.actions.actions()[0];
        assert_eq!(
            (action.difficulty_class(), action.attribute()),
            (None, None)
        );
        let warnings: Vec<String> = validated.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            warnings,
            [
                "action 1 (\"talk\"): difficultyClass ignored because there is no diceRoll",
                "action 1 (\"talk\"): attribute ignored because there is no diceRoll",
            ]
        );
    }

    #[test]
    fn errors_say_which_action_and_why() {
        let mut bad_attr = rolled("dance", "1d20", None);
        bad_attr.attribute = Some("luck".to_owned());
        let err = validate(vec![
            draft("ok", "Fine"),
            draft("!!!", ""),
            rolled("open-door", "0d6", Some(12)),
            rolled("pick-lock", "1d20", Some(35)),
            bad_attr,
            draft("long", &"x".repeat(201)),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n\
             - action 2 (\"!!!\"): bad id: slug \"!!!\" has no letters or digits\n\
             - action 2 (\"!!!\"): bad description: action description is empty\n\
             - action 3 (\"open-door\"): bad diceRoll \"0d6\": dice count must be 1..=100\n\
             - action 4 (\"pick-lock\"): bad difficultyClass: difficulty class must be a whole number 1..=30 (got 35)\n\
             - action 5 (\"dance\"): bad attribute: unknown attribute \"luck\"; expected one of STR, DEX, CON, INT, WIS, CHA\n\
             - action 6 (\"long\"): bad description: action description is 201 characters long; at most 200 are allowed"
        );
        assert_eq!(err.problems[0].index, Some(1));
    }

    #[test]
    fn list_size_is_bounded() {
        let err = validate(vec![]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n- no actions; give 1 to 6"
        );
        let seven = (0..7)
            .map(|i| draft(&format!("a{i}"), &format!("Do {i}")))
            .collect();
        let err = validate(seven).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n- 7 actions; give at most 6"
        );
        // Duplicates are dropped before counting.
        let mut six: Vec<ActionDraft> = (0..6)
            .map(|i| draft(&format!("a{i}"), &format!("Do {i}")))
            .collect();
        six.push(draft("a0", "Again"));
        assert_eq!(validate(six).unwrap().actions.len(), 6);
    }

    #[test]
    fn bad_json_is_an_error_for_the_model() {
        let err = ActionList::parse_json("not json").unwrap_err();
        assert!(err.to_string().starts_with(
            "The action list was rejected:\n- not a valid JSON action list: expected ident"
        ));
        let err = ActionList::parse_json(r#"{"choices": 3}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n- not a valid JSON action list: missing field `actions`"
        );
        let err = ActionList::parse_json(r#"[{"id": 5, "description": "Five"}]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n- not a valid JSON action list: \
             invalid type: integer `5`, expected a string"
        );
        let err = ActionList::parse_json(r#"[{"description": "Nameless"}]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "The action list was rejected:\n- action 1: bad id: slug \"\" has no letters or digits"
        );
        let err = ActionList::parse_json(
            r#"{"actions":[{"id":"a","description":"A","difficultyClass":true,"diceRoll":"d20"}]}"#,
        )
        .unwrap_err();
        assert!(err.to_string().ends_with(
            "bad difficultyClass: difficulty class must be a whole number 1..=30 (got true)"
        ));
        let err = ActionList::parse_json(
            r#"{"actions":[{"id":"a","description":"A","difficultyClass":12.5,"diceRoll":"d20"}]}"#,
        )
        .unwrap_err();
        assert!(err.to_string().ends_with("(got 12.5)"));
    }

    #[test]
    fn stored_lists_are_revalidated() {
        let json = json!([{"id":"a","description":"A"},{"id":"a","description":"B"}]);
        let err = serde_json::from_value::<ActionList>(json).unwrap_err();
        assert!(err.to_string().contains("id is used by an earlier action"));
        assert!(serde_json::from_value::<ActionList>(json!([])).is_err());
        let ok = json!([{"id":"a","description":"A","diceRoll":"2d20kh1","attribute":"DEX"}]);
        let list: ActionList = serde_json::from_value(ok.clone()).unwrap();
        assert_eq!(serde_json::to_value(&list).unwrap(), ok);
    }

    #[test]
    fn a_conditions_edge_rolls_two_d20s_shows_in_the_badge_and_is_checked() {
        let mut climb = rolled("climb", "1d20", Some(12));
        climb.attribute = Some("STR".to_owned());
        let validated = validate(vec![climb, rolled("damage", "1d8+1", None)]).unwrap();
        let [climb, damage] = validated.actions.actions() else {
            panic!("two actions expected")
        };
        let sheet = mira().with_attributes(Attributes {
            strength: AttributeScore::new(16).unwrap(),
            ..Attributes::default()
        });
        assert_eq!(
            climb.badge(&sheet, Edge::Disadvantage).unwrap(),
            "2d20kl1+3 vs DC 12 (disadvantage)"
        );
        assert_eq!(
            climb.badge(&sheet, Edge::Advantage).unwrap(),
            "2d20kh1+3 vs DC 12 (advantage)"
        );
        // Only a d20 has an edge.
        assert_eq!(damage.badge(&sheet, Edge::Disadvantage).unwrap(), "1d8+1");
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20 {
            let resolution = climb.resolve(&sheet, Edge::Disadvantage, &mut rng).unwrap();
            let roll = resolution.roll();
            assert_eq!(roll.notation(), "2d20kl1+3");
            let faces: Vec<u16> = roll.terms()[0].dice().iter().map(|d| d.value()).collect();
            assert_eq!(roll.total(), i32::from(*faces.iter().min().unwrap()) + 3);
            assert!(climb.explains(&sheet, Edge::Disadvantage, &resolution));
            assert!(!climb.explains(&sheet, Edge::Normal, &resolution));
            assert!(!climb.explains(&sheet, Edge::Advantage, &resolution));
        }
    }

    #[test]
    fn resolve_adds_the_attribute_modifier_and_judges_the_dc() {
        let mut climb = rolled("climb", "1d20", Some(12));
        climb.attribute = Some("STR".to_owned());
        let validated = validate(vec![
            climb,
            rolled("damage", "1d8+1", None),
            draft("wait", "Wait"),
        ])
        .unwrap();
        let [climb, damage, wait] = validated.actions.actions() else {
            panic!("three actions expected")
        };
        let sheet = mira().with_attributes(Attributes {
            strength: AttributeScore::new(16).unwrap(),
            ..Attributes::default()
        });
        assert_eq!(
            climb.badge(&sheet, Edge::Normal).unwrap(),
            "1d20+3 vs DC 12"
        );
        assert_eq!(damage.badge(&sheet, Edge::Normal).unwrap(), "1d8+1");
        assert_eq!(wait.badge(&sheet, Edge::Normal), None);

        let mut rng = StdRng::seed_from_u64(5);
        let Some(Resolution::Check(check)) = climb.resolve(&sheet, Edge::Normal, &mut rng) else {
            panic!("a check expected")
        };
        assert_eq!(check.roll().notation(), "1d20+3");
        assert_eq!(check.roll().modifier(), 3);
        assert_eq!(check.is_success(), check.roll().total() >= 12);
        let resolution = Resolution::Check(check);
        assert!(resolution
            .describe("Climb")
            .starts_with("Rolled 1d20+3 for Climb (STR +3): ["));
        let Some(Resolution::Roll(roll)) = damage.resolve(&sheet, Edge::Normal, &mut rng) else {
            panic!("a plain roll expected")
        };
        assert!((2..=9).contains(&roll.total()));
        assert_eq!(Resolution::Roll(roll.clone()).roll(), &roll);
        assert!(wait.resolve(&sheet, Edge::Normal, &mut rng).is_none());
    }

    #[test]
    fn a_skill_named_or_read_from_the_reason_adds_proficiency_where_the_hero_has_it() {
        let mut sneak = rolled("sneak", "1d20", Some(13));
        sneak.skill = Some("stealth".to_owned());
        let mut listen = rolled("listen", "1d20", Some(10));
        listen.dice_reason = Some("Perception".to_owned());
        let mut lift = rolled("lift", "1d20", Some(10));
        lift.skill = Some("Athletics".to_owned());
        lift.attribute = Some("CON".to_owned());
        let validated = validate(vec![sneak, listen, lift]).unwrap();
        let [sneak, listen, lift] = validated.actions.actions() else {
            panic!("three actions expected")
        };
        assert_eq!(
            (sneak.skill(), sneak.attribute()),
            (Some(Skill::Stealth), Some(Attribute::Dexterity))
        );
        assert_eq!(
            (listen.skill(), listen.attribute()),
            (Some(Skill::Perception), Some(Attribute::Wisdom))
        );
        // A named attribute stays: the skill only adds its proficiency.
        assert_eq!(lift.attribute(), Some(Attribute::Constitution));
        let sheet = mira()
            .with_attributes(Attributes {
                dexterity: AttributeScore::new(14).unwrap(),
                ..Attributes::default()
            })
            .with_proficiencies(crate::game::proficiency::Proficiencies::new(
                vec![Skill::Stealth],
                vec![],
            ));
        assert_eq!(
            sneak.badge(&sheet, Edge::Normal).unwrap(),
            "1d20+4 vs DC 13"
        );
        assert_eq!(listen.badge(&sheet, Edge::Normal).unwrap(), "1d20 vs DC 10");
        // The chance counts the same bonus: 9 or more on the d20 (60%), 10 or more (55%), and
        // with disadvantage the lower of two (36%).
        let percent = |action: &Action, edge| action.chance(&sheet, edge).unwrap().percent();
        assert_eq!(percent(sneak, Edge::Normal), 60);
        assert_eq!(percent(listen, Edge::Normal), 55);
        assert_eq!(percent(sneak, Edge::Disadvantage), 36);
        let mut rng = StdRng::seed_from_u64(3);
        let resolution = sneak.resolve(&sheet, Edge::Normal, &mut rng).unwrap();
        assert_eq!(resolution.roll().modifier(), 4);
        assert!(resolution
            .describe("Stealth")
            .contains("(DEX +2, proficiency +2)"));
        assert!(sneak.explains(&sheet, Edge::Normal, &resolution));
        // The same roll does not fit a hero without the proficiency.
        let untrained = sheet.clone().before_proficiencies();
        assert!(!sneak.explains(&untrained, Edge::Normal, &resolution));
        let bad = ActionDraft {
            skill: Some("Lockpicking".to_owned()),
            ..rolled("pick", "1d20", Some(12))
        };
        let error = validate(vec![bad]).unwrap_err();
        assert!(error
            .to_string()
            .contains("bad skill: unknown skill \"Lockpicking\""));
    }
}
