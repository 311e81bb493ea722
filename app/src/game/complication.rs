//! Failure with teeth: what a failed roll costs when the scene let it cost nothing.
//!
//! An action that names what rides on its roll (its stakes) and whose check fails must cost
//! something the rules can see. When the narration changed nothing (no change to the sheet, no
//! check, no fight), the rules roll a d6 on a small table of bounded complications:
//!
//! | d6 | complication |
//! |---|---|
//! | 1–2 | a minor harm: 1d4 damage, never below 1 hit point |
//! | 3–4 | lost time: 1d6 × 10 minutes |
//! | 5 | an item of little worth lost: one from the largest stack of plain gear carried |
//! | 6 | a foe alerted: the character is *Noticed* for an hour |
//!
//! A complication that cannot apply falls to the next one that can: an item with nothing to
//! lose is a harm, and a harm at 1 hit point is lost time (which always applies).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::conditions::Condition;
use super::delta::StateDelta;
use super::dice::{DiceExpr, Roll};
use super::sheet::CharacterSheet;
use super::text::{ConditionDuration, ConditionName, ConditionNotes, ItemName, Slug};

/// The condition a foe alerted leaves on the character.
pub const NOTICED: &str = "Noticed";

/// How long [`NOTICED`] lasts.
pub const NOTICED_FOR: &str = "1 hour";

/// What a failure cost, with the dice the rules rolled for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Cost {
    /// A minor harm: `damage` hit points, the 1d4's total kept above 0 hit points.
    Harm {
        /// The 1d4.
        roll: Roll,
        /// The hit points lost.
        damage: u16,
    },
    /// Time lost: the 1d6 × 10 minutes.
    LostTime {
        /// The 1d6.
        roll: Roll,
    },
    /// One of the largest stack of plain gear, lost.
    LostItem {
        /// The item's slug.
        slug: Slug,
        /// Its name, for the story.
        name: ItemName,
    },
    /// A foe alerted: the character is [`NOTICED`] for [`NOTICED_FOR`].
    Alerted,
}

impl Cost {
    /// The cost's own dice, when it has some.
    pub fn roll(&self) -> Option<&Roll> {
        match self {
            Cost::Harm { roll, .. } | Cost::LostTime { roll } => Some(roll),
            Cost::LostItem { .. } | Cost::Alerted => None,
        }
    }
}

/// The table's die and what it cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Complication {
    /// The d6 on the table.
    pub table: Roll,
    /// What it cost.
    pub cost: Cost,
}

/// The rows of the table, before their own dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Harm,
    LostTime,
    LostItem,
    Alerted,
}

impl Complication {
    /// Rolls the table for `sheet`, then the dice of the row it lands on.
    pub fn roll<R: Rng + ?Sized>(sheet: &CharacterSheet, rng: &mut R) -> Self {
        Self::roll_faces(sheet, |sides| rng.random_range(1..=sides))
    }

    /// The complication whose dice show the faces `face(sides)` gives, in order.
    fn roll_faces(sheet: &CharacterSheet, mut face: impl FnMut(u16) -> u16) -> Self {
        let table = dice("1d6").roll_faces(None, &mut face);
        let cost = match row(table.total(), sheet) {
            Row::Harm => harm(dice("1d4").roll_faces(None, &mut face), sheet),
            Row::LostTime => Cost::LostTime {
                roll: dice("1d6").roll_faces(None, &mut face),
            },
            Row::LostItem => lost_item(sheet).expect("the row is kept only with an item to lose"),
            Row::Alerted => Cost::Alerted,
        };
        Self { table, cost }
    }

    /// Whether this is exactly what the table gives for `sheet` with the faces it shows (a
    /// complication read from a file nobody edited).
    pub fn is_the_rules(&self, sheet: &CharacterSheet) -> bool {
        if !dice("1d6").explains(&self.table) {
            return false;
        }
        match (row(self.table.total(), sheet), &self.cost) {
            (Row::Harm, Cost::Harm { roll, .. }) => {
                dice("1d4").explains(roll) && harm(roll.clone(), sheet) == self.cost
            }
            (Row::LostTime, Cost::LostTime { roll }) => dice("1d6").explains(roll),
            (Row::LostItem, cost) => lost_item(sheet).as_ref() == Some(cost),
            (Row::Alerted, Cost::Alerted) => true,
            _ => false,
        }
    }

    /// The changes it makes to the sheet.
    pub fn deltas(&self) -> Vec<StateDelta> {
        match &self.cost {
            Cost::Harm { damage, .. } => vec![StateDelta::ChangeHp {
                amount: -i32::from(*damage),
            }],
            Cost::LostTime { roll } => vec![StateDelta::AdvanceTime {
                minutes: u32::try_from(roll.total()).unwrap_or(0) * 10,
            }],
            Cost::LostItem { slug, .. } => vec![StateDelta::ChangeItemQuantity {
                slug: slug.clone(),
                change: -1,
            }],
            Cost::Alerted => vec![StateDelta::AddCondition {
                condition: noticed(),
            }],
        }
    }

    /// What it cost, in the player's words, with its dice: `a minor harm: 3 damage (1d4: 3)`.
    pub fn describe(&self) -> String {
        let what = match &self.cost {
            Cost::Harm { roll, damage } => {
                format!("a minor harm: {damage} damage (1d4: {})", roll.total())
            }
            Cost::LostTime { roll } => format!(
                "lost time: {} minutes (1d6: {} × 10)",
                roll.total() * 10,
                roll.total()
            ),
            Cost::LostItem { name, .. } => format!("a {name} lost"),
            Cost::Alerted => format!("a foe alerted: {NOTICED} for {NOTICED_FOR}"),
        };
        format!("{what}; the table's d6 showed {}", self.table.total())
    }
}

/// The row the table's `face` lands on for `sheet`, after the rows that cannot apply fall.
fn row(face: i32, sheet: &CharacterSheet) -> Row {
    let wanted = match face {
        1 | 2 => Row::Harm,
        3 | 4 => Row::LostTime,
        5 => Row::LostItem,
        _ => Row::Alerted,
    };
    let can_lose_item = lost_item(sheet).is_some();
    let can_harm = sheet.hit_points().current() > 1;
    match wanted {
        Row::LostItem if can_lose_item => Row::LostItem,
        Row::LostItem | Row::Harm if can_harm => Row::Harm,
        Row::LostItem | Row::Harm => Row::LostTime,
        other => other,
    }
}

/// The harm of `roll` to `sheet`: its total, leaving at least 1 hit point.
fn harm(roll: Roll, sheet: &CharacterSheet) -> Cost {
    let above_one = sheet.hit_points().current().saturating_sub(1);
    let damage = u16::try_from(roll.total().max(0))
        .unwrap_or(0)
        .min(above_one);
    Cost::Harm { roll, damage }
}

/// One from the largest stack (two or more) of plain gear not equipped, the first carried among
/// equals; `None` when there is nothing of little worth to lose.
fn lost_item(sheet: &CharacterSheet) -> Option<Cost> {
    let mut best: Option<(&Slug, &ItemName, u16)> = None;
    for item in sheet.inventory().items() {
        let count = item.quantity().value();
        let plain = item.kind().is_gear() && !item.is_equipped() && count >= 2;
        if plain && best.is_none_or(|(_, _, most)| count > most) {
            best = Some((item.slug(), item.name(), count));
        }
    }
    best.map(|(slug, name, _)| Cost::LostItem {
        slug: slug.clone(),
        name: name.clone(),
    })
}

/// The condition of a foe alerted.
fn noticed() -> Condition {
    let mut condition = Condition::named(ConditionName::new(NOTICED).expect("a valid name"));
    condition.duration = Some(ConditionDuration::new(NOTICED_FOR).expect("a valid duration"));
    condition.notes = Some(
        ConditionNotes::new("Something heard the failure; it may come looking")
            .expect("valid notes"),
    );
    condition.typed()
}

/// The table's dice.
fn dice(notation: &str) -> DiceExpr {
    DiceExpr::parse(notation).expect("the table's own dice")
}

#[cfg(test)]
mod tests;
