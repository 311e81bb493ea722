//! What applying deltas actually changed: each [`Change`] with its chip label (`−5 HP`,
//! `+ Rusty key`, `Equipped: Longsword`) and its before and after for the ledger, and the
//! [`AppliedChanges`] of a list of deltas, in order.

use serde::{Deserialize, Serialize};

use crate::game::attributes::Attribute;
use crate::game::conditions::Condition;
use crate::game::features::Feature;
use crate::game::inventory::{EquipChange, ItemChange};
use crate::game::sheet::GameTime;
use crate::game::spells::SpellLevel;
use crate::game::stakes::Vitality;
use crate::game::text::LocationName;

/// The minus sign used in labels.
const MINUS: char = '\u{2212}';

/// One thing that actually changed on the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Change {
    /// Current hit points.
    Hp {
        /// Before.
        from: u16,
        /// After.
        to: u16,
    },
    /// Maximum hit points.
    MaxHp {
        /// Before.
        from: u16,
        /// After.
        to: u16,
    },
    /// The level.
    Level {
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// An attribute score.
    Attribute {
        /// Which attribute.
        attribute: Attribute,
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// Sanity.
    Sanity {
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// An item's quantity (from 0: picked up; to 0: gone).
    Item(ItemChange),
    /// A condition gained, or its duration or notes changed.
    ConditionAdded(Condition),
    /// A condition lost.
    ConditionRemoved(Condition),
    /// The location.
    Location {
        /// Before.
        from: LocationName,
        /// After.
        to: LocationName,
    },
    /// The in-game time.
    Time {
        /// Before.
        from: GameTime,
        /// After.
        to: GameTime,
    },
    /// Experience points.
    Experience {
        /// Before.
        from: u32,
        /// After.
        to: u32,
    },
    /// Up, down, stable or fallen.
    Vitality {
        /// Before.
        from: Vitality,
        /// After.
        to: Vitality,
    },
    /// An item equipped or put away.
    Equipment(EquipChange),
    /// Hit dice left to spend on short rests.
    HitDice {
        /// Before.
        from: u8,
        /// After.
        to: u8,
    },
    /// Spell slots of a level left.
    Slots {
        /// The spell level, 1..=9.
        level: u8,
        /// Left before.
        from: u8,
        /// Left after.
        to: u8,
    },
    /// Uses of a class feature left.
    Uses {
        /// The feature.
        feature: Feature,
        /// Left before.
        from: u8,
        /// Left after.
        to: u8,
    },
    /// The spell concentrated on.
    Concentration {
        /// Before (none: no spell held).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        /// After.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<String>,
    },
    /// Spells learned with a level.
    Learned {
        /// Their names.
        spells: Vec<String>,
    },
}

impl Change {
    /// The chip text: `−5 HP`, `+3 HP`, `Max HP 12`, `Level 3`, `STR 14`, `−10 Sanity`,
    /// `+ Rusty key` (one picked up), `+2 Torch`, `−1 Torch`, `− Rope` (none left), `Poisoned`,
    /// `− Poisoned`, `→ The crypt`, `+1 h 30 min`, `Equipped: Longsword`, `Unequipped: Shield`.
    pub fn label(&self) -> String {
        match self {
            Change::Hp { from, to } => format!("{} HP", signed(i64::from(*to) - i64::from(*from))),
            Change::MaxHp { to, .. } => format!("Max HP {to}"),
            Change::Level { to, .. } => format!("Level {to}"),
            Change::Attribute { attribute, to, .. } => format!("{attribute} {to}"),
            Change::Sanity { from, to } => {
                format!("{} Sanity", signed(i64::from(*to) - i64::from(*from)))
            }
            Change::Item(ItemChange { name, from, to, .. }) => match (*from, *to) {
                (0, 1) => format!("+ {name}"),
                (_, 0) => format!("{MINUS} {name}"),
                (from, to) => format!("{} {name}", signed(i64::from(to) - i64::from(from))),
            },
            Change::ConditionAdded(condition) => condition.name.to_string(),
            Change::ConditionRemoved(condition) => format!("{MINUS} {}", condition.name),
            Change::Location { to, .. } => format!("→ {to}"),
            Change::Time { from, to } => {
                format!("+{}", duration(to.minutes().saturating_sub(from.minutes())))
            }
            Change::Experience { from, to } => format!("+{} XP", to.saturating_sub(*from)),
            Change::HitDice { to, .. } => format!("Hit dice left: {to}"),
            Change::Slots { level, to, .. } => {
                let level =
                    SpellLevel::new(*level).map_or_else(|_| level.to_string(), SpellLevel::ordinal);
                format!("{level} slots left: {to}")
            }
            Change::Uses { feature, to, .. } => format!("{} uses left: {to}", feature.name()),
            Change::Concentration {
                to: Some(spell), ..
            } => format!("Concentrating: {spell}"),
            Change::Concentration { from, .. } => format!(
                "{MINUS} Concentration{}",
                from.as_ref()
                    .map_or(String::new(), |spell| format!(": {spell}"))
            ),
            Change::Learned { spells } => format!("Learned: {}", spells.join(", ")),
            Change::Vitality { to, .. } => to.label(),
            Change::Equipment(EquipChange { name, equipped, .. }) => {
                let verb = if *equipped { "Equipped" } else { "Unequipped" };
                format!("{verb}: {name}")
            }
        }
    }
}

impl Change {
    /// For the ledger: what changed, its value before and after (`HP`, `10`, `5`).
    pub fn before_after(&self) -> (String, String, String) {
        let pair = |what: &str, from: &dyn ToString, to: &dyn ToString| {
            (what.to_owned(), from.to_string(), to.to_string())
        };
        match self {
            Change::Hp { from, to } => pair("HP", from, to),
            Change::MaxHp { from, to } => pair("Max HP", from, to),
            Change::Level { from, to } => pair("Level", from, to),
            Change::Attribute {
                attribute,
                from,
                to,
            } => pair(attribute.abbreviation(), from, to),
            Change::Sanity { from, to } => pair("Sanity", from, to),
            Change::Item(ItemChange { name, from, to, .. }) => pair(name.as_str(), from, to),
            Change::ConditionAdded(condition) => pair(condition.name.as_str(), &"—", &"gained"),
            Change::ConditionRemoved(condition) => pair(condition.name.as_str(), &"had", &"lost"),
            Change::Location { from, to } => pair("Location", &from.as_str(), &to.as_str()),
            Change::Time { from, to } => pair("Time", from, to),
            Change::HitDice { from, to } => pair("Hit dice", from, to),
            Change::Slots { level, from, to } => {
                let level =
                    SpellLevel::new(*level).map_or_else(|_| level.to_string(), SpellLevel::ordinal);
                pair(&format!("{level} slots"), from, to)
            }
            Change::Uses { feature, from, to } => pair(feature.name(), from, to),
            Change::Concentration { from, to } => pair(
                "Concentration",
                &from.as_deref().unwrap_or("—"),
                &to.as_deref().unwrap_or("—"),
            ),
            Change::Learned { spells } => pair("Spells", &"—", &spells.join(", ")),
            Change::Experience { from, to } => pair("XP", from, to),
            Change::Vitality { from, to } => pair("State", &from.label(), &to.label()),
            Change::Equipment(EquipChange { name, equipped, .. }) => {
                let (from, to) = if *equipped {
                    ("carried", "equipped")
                } else {
                    ("equipped", "carried")
                };
                pair(name.as_str(), &from, &to)
            }
        }
    }
}

/// `+3` or `−5`, with the real minus sign.
fn signed(value: i64) -> String {
    if value < 0 {
        format!("{MINUS}{}", value.unsigned_abs())
    } else {
        format!("+{value}")
    }
}

/// `45 min`, `2 h`, `1 h 30 min`, `3 d 2 h`.
fn duration(minutes: u32) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let parts: Vec<String> = [(days, "d"), (hours, "h"), (mins, "min")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    if parts.is_empty() {
        "0 min".to_owned()
    } else {
        parts.join(" ")
    }
}

/// What applying deltas actually changed, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AppliedChanges(pub(super) Vec<Change>);

impl AppliedChanges {
    /// The changes.
    pub fn changes(&self) -> &[Change] {
        &self.0
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The chip labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.0.iter().map(Change::label).collect()
    }
}
