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
//!
//! Files: this one holds the validated action, its stakes and its roll's resolution; `draft.rs`
//! the model's answer as written and its validation; `list.rs` the validated list and what is
//! wrong with an answer.

mod draft;
mod list;

#[cfg(test)]
mod tests;

use rand::Rng;
use serde::{Deserialize, Serialize};

pub use draft::{ActionDraft, ActionListDraft};
pub use list::{
    ActionIssue, ActionList, ActionListError, ActionProblem, ActionWarning, ValidatedActions,
};

use super::attributes::{Attribute, AttributeBonus};
use super::dice::{Chance, Check, DiceExpr, DifficultyClass, Edge, Roll};
use super::fight::FightMove;
use super::proficiency::Skill;
use super::sheet::CharacterSheet;
use super::text::{ActionDescription, DiceReason, Slug, StakeText};

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
