//! The model's answer as written ([`ActionListDraft`], lenient on purpose) and its validation
//! into an [`ActionList`]: each action's id, description, dice, DC, attribute, skill and stakes
//! checked, every problem recorded, duplicates and stray roll fields dropped with a warning.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::list::{
    count_issue, ActionIssue, ActionList, ActionListError, ActionProblem, ActionWarning,
    ValidatedActions,
};
use super::{Action, RollStakes};
use crate::game::attributes::Attribute;
use crate::game::dice::{DiceExpr, DifficultyClass, DifficultyClassError};
use crate::game::proficiency::Skill;
use crate::game::text::{ActionDescription, DiceReason, Slug, StakeText};

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

impl ActionList {
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
