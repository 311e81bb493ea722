//! Typed state changes ([`StateDelta`]) and the one place they are applied.
//!
//! [`StateDelta::apply`] validates and clamps: hit points stay in 0..=max, max HP in 1..=999,
//! level in 1..=20, attributes in 1..=30, sanity in 0..=100, quantities in 1..=999 (zero or below
//! removes the item). Changing an item that is not carried, removing a condition the character
//! does not have, adding past the inventory or condition limits, or changing sanity on a sheet
//! without it is a [`DeltaError`] whose message the model can read (`No item "sandwich" in
//! inventory`). On error the sheet is untouched; [`StateDelta::apply_all`] is atomic over a list.
//!
//! Items: [`StateDelta::Equip`] takes a carried weapon, armour or shield in hand (putting away
//! what held its slot), [`StateDelta::Unequip`] puts one away, and [`StateDelta::UseItem`] uses
//! one of a consumable with the roll [`StateDelta::use_item`] made (see
//! [`consumable`]).
//!
//! What actually changed comes back as [`Change`]s, each with a short player-facing
//! [`label`](Change::label) for the story log's chips: `−5 HP`, `+ Rusty key`, `+2 Torch`,
//! `− Rope`, `Poisoned`, `Equipped: Longsword`. Labels use the real minus sign `−` (U+2212), which reads better than a
//! hyphen in the UI; model-facing text elsewhere stays ASCII.

use serde::{Deserialize, Serialize};

use super::attributes::{Attribute, AttributeScore};
use super::conditions::{Condition, ConditionError};
use super::consumable::{self, Outcome, UseError};
use super::dice::Roll;
use super::features::Feature;
use super::improvement::{improve, AbilityImprovement, ImprovementError};
use super::inventory::{EquipChange, InventoryError, ItemChange, NewItem};
use super::power_deltas;
use super::powers::PowerError;
use super::progression::{self, MAX_AWARD};
use super::sheet::{CharacterSheet, GameTime, HitPoints, Level, Sanity};
use super::spells::SpellLevel;
use super::stakes::Vitality;
use super::text::{ConditionName, LocationName, Slug};

/// The minus sign used in labels.
const MINUS: char = '\u{2212}';

/// One requested change to the character sheet. Numbers are clamped into their ranges when
/// applied, so they are plain integers here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum StateDelta {
    /// Hit points up (healing) or down (damage) by `amount`.
    ChangeHp {
        /// The change, negative for damage.
        amount: i32,
    },
    /// Hit points set to `hp`.
    SetHp {
        /// The new value, clamped into 0..=max.
        hp: i32,
    },
    /// Maximum hit points set to `max_hp`; current hit points above it drop to it.
    SetMaxHp {
        /// The new maximum, clamped into 1..=999.
        max_hp: i32,
    },
    /// The level set to `level`.
    SetLevel {
        /// The new level, clamped into 1..=20.
        level: i32,
    },
    /// An attribute score set.
    SetAttribute {
        /// Which attribute.
        attribute: Attribute,
        /// The new score, clamped into 1..=30.
        score: i32,
    },
    /// Sanity up or down by `amount` (an error if the sheet has no sanity).
    ChangeSanity {
        /// The change, negative for a loss.
        amount: i32,
    },
    /// An item given, stacked onto a carried item with the same slug.
    AddItem {
        /// The item.
        item: NewItem,
    },
    /// A carried item's quantity changed; at zero or below it is removed.
    ChangeItemQuantity {
        /// The carried item.
        slug: Slug,
        /// The change, negative to use up or drop.
        change: i32,
    },
    /// A condition gained (or, if present, its duration and notes replaced).
    AddCondition {
        /// The condition.
        condition: Condition,
    },
    /// A condition lost.
    RemoveCondition {
        /// Its name, matched ignoring case.
        name: ConditionName,
    },
    /// The character moved.
    MoveTo {
        /// The new location.
        location: LocationName,
    },
    /// In-game time passed.
    AdvanceTime {
        /// How many minutes.
        minutes: u32,
    },
    /// Experience earned; crossing the next level's threshold gains that level and its hit
    /// points (see [`progression`](super::progression)).
    GainExperience {
        /// How much (at most one level's worth counts).
        amount: u32,
    },
    /// A death save whose d20 showed `die` (see [`stakes`](super::stakes)).
    DeathSave {
        /// The d20, 1..=20.
        die: u8,
    },
    /// A rest: a short one spends a hit die (its average plus CON back, an hour passes), a long
    /// one restores every hit point (eight hours pass). A dying character cannot rest.
    Rest {
        /// Which rest.
        kind: RestKind,
    },
    /// A carried weapon, armour or shield equipped; what held its slot is put away.
    Equip {
        /// The carried item.
        slug: Slug,
    },
    /// An equipped item put away (still carried).
    Unequip {
        /// The equipped item.
        slug: Slug,
    },
    /// One of a carried consumable used for its effect (made by [`StateDelta::use_item`]).
    UseItem {
        /// The carried consumable.
        slug: Slug,
        /// Its dice as rolled (healing), or none for an effect without dice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// An ability score improvement the player chose, spent when one is due (see
    /// [`improvement`](super::improvement)).
    ImproveAbilities {
        /// What is raised.
        improvement: AbilityImprovement,
    },
    /// A known spell cast outside a fight (a fight casts in its own steps): the slot of `slot`'s
    /// level spent (none for a cantrip), the concentration it needs taken up, and its healing
    /// dice as rolled (see [`powers`](super::powers)).
    CastSpell {
        /// The spell.
        spell: Slug,
        /// The slot's level (0 for a cantrip).
        slot: SpellLevel,
        /// Its healing dice as rolled, for a healing spell.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// A class feature used: a use spent, and its dice as rolled (Second Wind's healing).
    UseFeature {
        /// The feature.
        feature: Feature,
        /// Its dice as rolled, if it has any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Roll>,
    },
    /// A hit die spent at the end of a short rest: the die plus CON, as rolled, heals.
    SpendHitDie {
        /// The roll.
        roll: Roll,
    },
    /// The spell concentrated on ends (a failed save, a blow that fells the hero).
    EndConcentration,
}

/// A short or a long rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RestKind {
    /// An hour's rest.
    Short,
    /// A night's sleep.
    Long,
}

/// Why a delta could not be applied. The message is written for the model (it becomes the tool
/// result) and for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeltaError {
    /// An inventory rule: a missing item or a full inventory.
    #[error(transparent)]
    Inventory(#[from] InventoryError),
    /// A condition rule: a missing condition or too many.
    #[error(transparent)]
    Condition(#[from] ConditionError),
    /// A sanity change on a sheet that does not track sanity.
    #[error("This character has no sanity score")]
    NoSanity,
    /// Any change to a character who has died.
    #[error("The character has fallen and the story is over; nothing more changes")]
    Fallen,
    /// A rest while dying.
    #[error("A dying character cannot rest; they must be stabilised or healed first")]
    Dying,
    /// A short rest with every hit die spent.
    #[error("No hit dice left to spend on a short rest; a long rest brings them back")]
    NoHitDice,
    /// Experience past the last level.
    #[error("Experience comes in awards of 1 to {MAX_AWARD}")]
    Award,
    /// A consumable that cannot be used now.
    #[error(transparent)]
    Use(UseError),
    /// An ability score improvement the rules refuse.
    #[error(transparent)]
    Improvement(#[from] ImprovementError),
    /// A spell, class feature or rest the rules refuse.
    #[error(transparent)]
    Power(#[from] PowerError),
}

/// A consumable's refusal as the sheet's: a fallen character and a missing item are refused as
/// every change is.
impl From<UseError> for DeltaError {
    fn from(error: UseError) -> Self {
        match error {
            UseError::Fallen => DeltaError::Fallen,
            UseError::NotCarried(error) => DeltaError::Inventory(error),
            other => DeltaError::Use(other),
        }
    }
}

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

/// `+3` or `−5`, with the real minus sign.
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
pub struct AppliedChanges(Vec<Change>);

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

impl StateDelta {
    /// Applies the delta to `sheet`, clamping numbers into range, and reports what changed.
    /// On error `sheet` is unchanged.
    pub fn apply(&self, sheet: &mut CharacterSheet) -> Result<AppliedChanges, DeltaError> {
        let mut changes = AppliedChanges::default();
        self.apply_into(sheet, &mut changes)?;
        Ok(changes)
    }

    /// Applies every delta in order, all or nothing: on the first error `sheet` is left as it
    /// was before the first delta.
    pub fn apply_all(
        deltas: &[StateDelta],
        sheet: &mut CharacterSheet,
    ) -> Result<AppliedChanges, DeltaError> {
        let mut next = sheet.clone();
        let mut changes = AppliedChanges::default();
        for delta in deltas {
            delta.apply_into(&mut next, &mut changes)?;
        }
        *sheet = next;
        Ok(changes)
    }

    /// Applies the delta, pushing what changed. Every check comes before any mutation, so an
    /// error leaves `sheet` as it was.
    fn apply_into(
        &self,
        sheet: &mut CharacterSheet,
        changes: &mut AppliedChanges,
    ) -> Result<(), DeltaError> {
        if sheet.vitality.is_dead() {
            return Err(DeltaError::Fallen);
        }
        let out = &mut changes.0;
        match self {
            StateDelta::ChangeHp { amount } => {
                let current = i64::from(sheet.hit_points.current());
                set_hp(sheet, current + i64::from(*amount), *amount < 0, out);
            }
            StateDelta::SetHp { hp } => set_hp(sheet, i64::from(*hp), false, out),
            StateDelta::SetMaxHp { max_hp } => set_max_hp(sheet, *max_hp, out),
            StateDelta::SetLevel { level } => set_level(sheet, *level, out),
            StateDelta::SetAttribute { attribute, score } => {
                set_attribute(sheet, *attribute, *score, out);
            }
            StateDelta::ChangeSanity { amount } => change_sanity(sheet, *amount, out)?,
            StateDelta::AddItem { .. }
            | StateDelta::ChangeItemQuantity { .. }
            | StateDelta::Equip { .. }
            | StateDelta::Unequip { .. }
            | StateDelta::UseItem { .. } => self.apply_to_items(sheet, out)?,
            StateDelta::AddCondition { condition } => {
                let mut condition = condition.clone();
                let now = sheet.time.minutes();
                condition.ends_at = condition.minutes.map(|m| now.saturating_add(m));
                let previous = sheet.conditions.add(condition.clone())?;
                if previous.as_ref() != Some(&condition) {
                    out.push(Change::ConditionAdded(condition));
                }
            }
            StateDelta::RemoveCondition { name } => {
                let removed = sheet.conditions.remove(name)?;
                out.push(Change::ConditionRemoved(removed));
            }
            StateDelta::MoveTo { location } => {
                if &sheet.location != location {
                    let from = std::mem::replace(&mut sheet.location, location.clone());
                    out.push(Change::Location {
                        from,
                        to: location.clone(),
                    });
                }
            }
            StateDelta::AdvanceTime { minutes } => advance_time(sheet, *minutes, out),
            StateDelta::GainExperience { amount } => gain_experience(sheet, *amount, out)?,
            StateDelta::DeathSave { die } => {
                let (after, revived) = sheet.vitality.after_death_save(*die);
                if revived {
                    set_hp(sheet, 1, false, out);
                } else {
                    set_vitality(sheet, after, out);
                }
            }
            StateDelta::Rest { kind } => rest(sheet, *kind, out)?,
            StateDelta::ImproveAbilities { improvement } => {
                improve_abilities(sheet, *improvement, out)?;
            }
            StateDelta::CastSpell { spell, slot, roll } => {
                power_deltas::cast_spell(sheet, spell, *slot, roll.as_ref(), out)?;
            }
            StateDelta::UseFeature { feature, roll } => {
                power_deltas::use_feature(sheet, *feature, roll.as_ref(), out)?;
            }
            StateDelta::SpendHitDie { roll } => power_deltas::spend_hit_die(sheet, roll, out)?,
            StateDelta::EndConcentration => power_deltas::concentrate(sheet, None, out)?,
        }
        Ok(())
    }

    /// Applies a delta about items (any other delta changes nothing here), checking before it
    /// changes anything.
    fn apply_to_items(
        &self,
        sheet: &mut CharacterSheet,
        out: &mut Vec<Change>,
    ) -> Result<(), DeltaError> {
        match self {
            StateDelta::AddItem { item } => {
                out.extend(sheet.inventory.add(item)?.map(Change::Item));
            }
            StateDelta::ChangeItemQuantity { slug, change } => {
                let changed = sheet.inventory.change_quantity(slug, *change)?;
                out.extend(changed.map(Change::Item));
            }
            StateDelta::Equip { slug } => {
                let changed = sheet.inventory.equip(slug)?;
                out.extend(changed.into_iter().map(Change::Equipment));
            }
            StateDelta::Unequip { slug } => {
                out.push(Change::Equipment(sheet.inventory.unequip(slug)?));
            }
            StateDelta::UseItem { slug, roll } => use_item(sheet, slug, roll.as_ref(), out)?,
            _ => {}
        }
        Ok(())
    }

    /// The delta that uses one of the carried item `slug`, its dice (if any) rolled with `rng`;
    /// an error, before any die is rolled, when it cannot be used now.
    pub fn use_item<R: rand::Rng + ?Sized>(
        sheet: &CharacterSheet,
        slug: &Slug,
        rng: &mut R,
    ) -> Result<StateDelta, DeltaError> {
        Ok(StateDelta::UseItem {
            slug: slug.clone(),
            roll: consumable::roll_for_use(sheet, slug, rng)?,
        })
    }

    /// The roll the delta carries, if any (a consumable's healing dice).
    pub fn roll(&self) -> Option<&Roll> {
        match self {
            StateDelta::UseItem { roll, .. }
            | StateDelta::CastSpell { roll, .. }
            | StateDelta::UseFeature { roll, .. } => roll.as_ref(),
            StateDelta::SpendHitDie { roll } => Some(roll),
            _ => None,
        }
    }
}

/// Uses one of the consumable `slug` with `roll`: one fewer carried, then its effect.
fn use_item(
    sheet: &mut CharacterSheet,
    slug: &Slug,
    roll: Option<&Roll>,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    // Every check is in `outcome`: nothing below fails.
    let outcome = consumable::outcome(sheet, slug, roll)?;
    out.extend(sheet.inventory.change_quantity(slug, -1)?.map(Change::Item));
    match outcome {
        Outcome::Heal(amount) => {
            let current = i64::from(sheet.hit_points.current());
            set_hp(sheet, current + i64::from(amount), false, out);
        }
        Outcome::Cure(condition) => {
            out.push(Change::ConditionRemoved(
                sheet.conditions.remove(&condition)?,
            ));
        }
    }
    Ok(())
}

/// Sets the level, clamped into 1..=20.
fn set_level(sheet: &mut CharacterSheet, level: i32, out: &mut Vec<Change>) {
    let from = sheet.level;
    sheet.level = Level::clamped(i64::from(level));
    if sheet.level != from {
        out.push(Change::Level {
            from: from.value(),
            to: sheet.level.value(),
        });
        power_deltas::learn_for_level(sheet, out);
    }
}

/// Sets an attribute score, clamped into 1..=30.
fn set_attribute(
    sheet: &mut CharacterSheet,
    attribute: Attribute,
    score: i32,
    out: &mut Vec<Change>,
) {
    let from = sheet.attributes.get(attribute);
    let to = AttributeScore::clamped(i64::from(score));
    sheet.attributes.set(attribute, to);
    if to != from {
        out.push(Change::Attribute {
            attribute,
            from: from.value(),
            to: to.value(),
        });
    }
}

/// Spends an ability score improvement (see [`improvement`](super::improvement)), pushing the
/// scores raised and the hit points a higher CON brings.
fn improve_abilities(
    sheet: &mut CharacterSheet,
    improvement: AbilityImprovement,
    out: &mut Vec<Change>,
) -> Result<(), ImprovementError> {
    let improved = improve(sheet, improvement)?;
    out.extend(
        improved
            .scores
            .into_iter()
            .map(|(attribute, from, to)| Change::Attribute {
                attribute,
                from,
                to,
            }),
    );
    if let Some((before, after)) = improved.hit_points {
        push_hit_points(before, after, out);
    }
    Ok(())
}

/// Changes sanity, clamped into 0..=100; an error on a sheet without it.
fn change_sanity(
    sheet: &mut CharacterSheet,
    amount: i32,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    let from = sheet.sanity.ok_or(DeltaError::NoSanity)?;
    let to = Sanity::clamped(i64::from(from.value()) + i64::from(amount));
    sheet.sanity = Some(to);
    if to != from {
        out.push(Change::Sanity {
            from: from.value(),
            to: to.value(),
        });
    }
    Ok(())
}

/// Sets the maximum hit points; current hit points above it drop to it.
fn set_max_hp(sheet: &mut CharacterSheet, max_hp: i32, out: &mut Vec<Change>) {
    let before = sheet.hit_points;
    sheet.hit_points.set_max_clamped(i64::from(max_hp));
    push_hit_points(before, sheet.hit_points, out);
}

/// Pushes what changed from `before` to `after`: the maximum, then the current hit points.
fn push_hit_points(before: HitPoints, after: HitPoints, out: &mut Vec<Change>) {
    if after.max() != before.max() {
        out.push(Change::MaxHp {
            from: before.max(),
            to: after.max(),
        });
    }
    if after.current() != before.current() {
        out.push(Change::Hp {
            from: before.current(),
            to: after.current(),
        });
    }
}

/// Time passes; the conditions whose time is up end.
fn advance_time(sheet: &mut CharacterSheet, minutes: u32, out: &mut Vec<Change>) {
    let from = sheet.time;
    sheet.time = from.after(minutes);
    if sheet.time != from {
        out.push(Change::Time {
            from,
            to: sheet.time,
        });
    }
    let ended = sheet.conditions.expire(sheet.time.minutes());
    out.extend(ended.into_iter().map(Change::ConditionRemoved));
}

/// Sets the hit points and moves the character up, down or out as the stakes say; `damage`
/// taken at 0 HP counts as a failed death save.
fn set_hp(sheet: &mut CharacterSheet, value: i64, damage: bool, out: &mut Vec<Change>) {
    let from = sheet.hit_points.current();
    sheet.hit_points.set_current_clamped(value);
    let to = sheet.hit_points.current();
    if to != from {
        out.push(Change::Hp { from, to });
    }
    if to == 0
        && sheet
            .powers
            .as_ref()
            .is_some_and(|p| p.concentration.is_some())
    {
        let _ = power_deltas::concentrate(sheet, None, out);
    }
    let mut after = sheet.vitality.after_hp(sheet.stakes, from, to);
    if damage && from == 0 {
        after = after.after_damage_while_down();
    }
    set_vitality(sheet, after, out);
}

/// Sets the hit points to `value` (clamped into 0..=max), as healing does.
pub(in crate::game) fn set_hp_within(
    sheet: &mut CharacterSheet,
    value: i64,
    out: &mut Vec<Change>,
) {
    set_hp(sheet, value, false, out);
}

fn set_vitality(sheet: &mut CharacterSheet, to: Vitality, out: &mut Vec<Change>) {
    if to != sheet.vitality {
        let from = std::mem::replace(&mut sheet.vitality, to);
        out.push(Change::Vitality { from, to });
    }
}

/// Adds experience; crossing the next threshold gains one level and its hit points.
fn gain_experience(
    sheet: &mut CharacterSheet,
    amount: u32,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    if !(1..=MAX_AWARD).contains(&amount) {
        return Err(DeltaError::Award);
    }
    let from = sheet.experience;
    sheet.experience = progression::award(sheet.level, from, amount);
    if sheet.experience != from {
        out.push(Change::Experience {
            from,
            to: sheet.experience,
        });
    }
    let level = progression::level_for(sheet.level, sheet.experience);
    if level != sheet.level {
        out.push(Change::Level {
            from: sheet.level.value(),
            to: level.value(),
        });
        sheet.level = level;
        let gained = sheet.hit_die.level_hp(sheet.attributes.constitution);
        let max = sheet.hit_points.max();
        sheet
            .hit_points
            .set_max_clamped(i64::from(max) + i64::from(gained));
        out.push(Change::MaxHp {
            from: max,
            to: sheet.hit_points.max(),
        });
        let current = i64::from(sheet.hit_points.current());
        set_hp(sheet, current + i64::from(gained), false, out);
        power_deltas::learn_for_level(sheet, out);
    }
    Ok(())
}

/// A long rest gives back 5 sanity plus the WIS modifier (at least 1), in games that track it.
/// Sheets made before hit dice were a pool (and sanity had its teeth) rest as before.
fn regain_sanity(sheet: &mut CharacterSheet, kind: RestKind, out: &mut Vec<Change>) {
    let Some(from) = sheet.sanity else {
        return;
    };
    if kind != RestKind::Long || sheet.hit_dice_spent.is_none() {
        return;
    }
    let back = (5 + i64::from(sheet.attributes.wisdom.modifier())).max(1);
    let to = Sanity::clamped(i64::from(from.value()) + back);
    sheet.sanity = Some(to);
    if to != from {
        out.push(Change::Sanity {
            from: from.value(),
            to: to.value(),
        });
    }
}

/// A short rest spends a hit die, a long one restores every hit point.
fn rest(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    if sheet.vitality.is_dying() {
        return Err(DeltaError::Dying);
    }
    if sheet.powers.is_some() {
        return powered_rest(sheet, kind, out);
    }
    spend_or_regain_hit_dice(sheet, kind, out)?;
    regain_sanity(sheet, kind, out);
    let current = i64::from(sheet.hit_points.current());
    let (healed, minutes) = match kind {
        RestKind::Short => (
            current + i64::from(sheet.hit_die.level_hp(sheet.attributes.constitution)),
            60,
        ),
        RestKind::Long => (i64::from(sheet.hit_points.max()), 8 * 60),
    };
    set_hp(sheet, healed, false, out);
    advance_time(sheet, minutes, out);
    Ok(())
}

/// The rest of a hero whose powers count. A short one is an hour; the hit dice are the player's
/// to spend after it, one [`StateDelta::SpendHitDie`] each, and short-rest uses come back. A
/// long one, at most once a day, is eight hours: every hit point, half the hit dice, every slot
/// and use back.
fn powered_rest(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    match kind {
        RestKind::Short => {
            advance_time(sheet, 60, out);
            power_deltas::short_rest(sheet, out);
        }
        RestKind::Long => {
            power_deltas::check_long_rest(sheet)?;
            spend_or_regain_hit_dice(sheet, kind, out)?;
            regain_sanity(sheet, kind, out);
            set_hp(sheet, i64::from(sheet.hit_points.max()), false, out);
            advance_time(sheet, 8 * 60, out);
            power_deltas::long_rest(sheet, out);
        }
    }
    Ok(())
}

/// A short rest spends a hit die (refused with none left); a long one brings back half of them
/// (at least one). Sheets made before hit dice were a pool rest as before.
fn spend_or_regain_hit_dice(
    sheet: &mut CharacterSheet,
    kind: RestKind,
    out: &mut Vec<Change>,
) -> Result<(), DeltaError> {
    let (Some(spent), Some((from, total))) = (sheet.hit_dice_spent, sheet.hit_dice()) else {
        return Ok(());
    };
    // More spent than a lowered level has counts as all of them.
    let spent = spent.min(total);
    let spent_after = match kind {
        RestKind::Short if from == 0 => return Err(DeltaError::NoHitDice),
        RestKind::Short => spent + 1,
        RestKind::Long => spent.saturating_sub((total / 2).max(1)),
    };
    let to = total.saturating_sub(spent_after);
    if to != from {
        sheet.hit_dice_spent = Some(spent_after);
        out.push(Change::HitDice { from, to });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::inventory::Quantity;
    use crate::game::sheet::tests::mira;
    use crate::game::text::{ConditionDuration, ItemName};

    fn add_item(name: &str, quantity: i64) -> StateDelta {
        StateDelta::AddItem {
            item: NewItem::new(
                ItemName::new(name).unwrap(),
                None,
                Quantity::new(quantity).unwrap(),
            )
            .unwrap(),
        }
    }

    fn change_item(slug: &str, change: i32) -> StateDelta {
        StateDelta::ChangeItemQuantity {
            slug: Slug::new(slug).unwrap(),
            change,
        }
    }

    fn labels(delta: StateDelta, sheet: &mut CharacterSheet) -> Vec<String> {
        delta.apply(sheet).unwrap().labels()
    }

    #[test]
    fn hp_is_clamped_and_reports_the_actual_change() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -5 }, &mut sheet),
            ["−5 HP"]
        );
        assert_eq!(sheet.hit_points().current(), 5);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -50 }, &mut sheet),
            ["−5 HP", "Down (0 ✓, 0 ✗)"]
        );
        assert_eq!(sheet.hit_points().current(), 0);
        assert_eq!(
            labels(StateDelta::SetHp { hp: 0 }, &mut sheet),
            Vec::<String>::new()
        );
        assert_eq!(
            labels(StateDelta::SetHp { hp: 99 }, &mut sheet),
            ["+10 HP", "On your feet"]
        );
        assert_eq!(sheet.hit_points().current(), 10);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: i32::MIN }, &mut sheet),
            ["−10 HP", "Down (0 ✓, 0 ✗)"]
        );
    }

    #[test]
    fn max_hp_drags_current_down() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: 6 }, &mut sheet),
            ["Max HP 6", "−4 HP"]
        );
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: 5000 }, &mut sheet),
            ["Max HP 999"]
        );
        assert_eq!(sheet.hit_points().current(), 6);
        assert_eq!(
            labels(StateDelta::SetMaxHp { max_hp: -3 }, &mut sheet),
            ["Max HP 1", "−5 HP"]
        );
    }

    #[test]
    fn level_and_attributes_are_clamped() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::SetLevel { level: 25 }, &mut sheet),
            ["Level 20"]
        );
        assert_eq!(
            labels(StateDelta::SetLevel { level: 0 }, &mut sheet),
            ["Level 1"]
        );
        let set = |score| StateDelta::SetAttribute {
            attribute: Attribute::Strength,
            score,
        };
        assert_eq!(labels(set(14), &mut sheet), ["STR 14"]);
        assert_eq!(labels(set(40), &mut sheet), ["STR 30"]);
        assert_eq!(labels(set(-2), &mut sheet), ["STR 1"]);
        assert_eq!(sheet.attributes().strength.value(), 1);
    }

    #[test]
    fn sanity_needs_a_sanity_score() {
        let mut sheet = mira();
        let err = StateDelta::ChangeSanity { amount: -5 }
            .apply(&mut sheet)
            .unwrap_err();
        assert_eq!(err.to_string(), "This character has no sanity score");
        let mut sheet = mira().with_sanity(Sanity::new(100).unwrap());
        assert_eq!(
            labels(StateDelta::ChangeSanity { amount: -10 }, &mut sheet),
            ["−10 Sanity"]
        );
        assert_eq!(
            labels(StateDelta::ChangeSanity { amount: 50 }, &mut sheet),
            ["+10 Sanity"]
        );
    }

    #[test]
    fn item_labels() {
        let mut sheet = mira();
        assert_eq!(
            labels(add_item("Rusty key", 1), &mut sheet),
            ["+ Rusty key"]
        );
        assert_eq!(labels(add_item("Torch", 2), &mut sheet), ["+2 Torch"]);
        assert_eq!(labels(add_item("torch", 1), &mut sheet), ["+1 Torch"]);
        assert_eq!(labels(change_item("torch", -1), &mut sheet), ["−1 Torch"]);
        assert_eq!(labels(add_item("Rope", 3), &mut sheet), ["+3 Rope"]);
        assert_eq!(labels(change_item("Rope", -3), &mut sheet), ["− Rope"]);
        assert!(sheet.inventory().get(&Slug::new("rope").unwrap()).is_none());
        assert_eq!(
            labels(change_item("torch", 0), &mut sheet),
            Vec::<String>::new()
        );
    }

    #[test]
    fn missing_item_is_an_error_and_changes_nothing() {
        let mut sheet = mira();
        let before = sheet.clone();
        let err = change_item("sandwich", -1).apply(&mut sheet).unwrap_err();
        assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
        assert_eq!(sheet, before);
    }

    #[test]
    fn condition_labels_and_errors() {
        let mut sheet = mira();
        let poisoned = Condition::named(ConditionName::new("Poisoned").unwrap());
        let add = StateDelta::AddCondition {
            condition: poisoned.clone(),
        };
        assert_eq!(labels(add.clone(), &mut sheet), ["Poisoned"]);
        assert_eq!(labels(add, &mut sheet), Vec::<String>::new());
        let mut longer = poisoned.clone();
        longer.duration = Some(ConditionDuration::new("1 hour").unwrap());
        assert_eq!(
            labels(StateDelta::AddCondition { condition: longer }, &mut sheet),
            ["Poisoned"]
        );
        let remove = StateDelta::RemoveCondition {
            name: ConditionName::new("poisoned").unwrap(),
        };
        assert_eq!(labels(remove.clone(), &mut sheet), ["− Poisoned"]);
        assert_eq!(
            remove.apply(&mut sheet).unwrap_err().to_string(),
            "No condition \"poisoned\" to remove"
        );
    }

    #[test]
    fn a_timed_condition_ends_when_game_time_passes_it() {
        let mut sheet = mira();
        let mut poisoned = Condition::named(ConditionName::new("Poisoned").unwrap());
        poisoned.duration = Some(ConditionDuration::new("1 hour").unwrap());
        let add = StateDelta::AddCondition {
            condition: poisoned.typed(),
        };
        add.apply(&mut sheet).unwrap();
        let start = sheet.time().minutes();
        let gained = &sheet.conditions().list()[0];
        assert_eq!(gained.ends_at, Some(start + 60));
        assert_eq!(
            sheet.conditions().roll_effects().attacks,
            crate::game::dice::Edge::Disadvantage
        );
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 59 }, &mut sheet),
            ["+59 min"]
        );
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 1 }, &mut sheet),
            ["+1 min", "− Poisoned"]
        );
        assert!(sheet.conditions().is_empty());
    }

    #[test]
    fn location_and_time() {
        let mut sheet = mira();
        let crypt = LocationName::new("The crypt").unwrap();
        let move_to = StateDelta::MoveTo { location: crypt };
        assert_eq!(labels(move_to.clone(), &mut sheet), ["→ The crypt"]);
        assert_eq!(labels(move_to, &mut sheet), Vec::<String>::new());
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 90 }, &mut sheet),
            ["+1 h 30 min"]
        );
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 45 }, &mut sheet),
            ["+45 min"]
        );
        assert_eq!(
            labels(
                StateDelta::AdvanceTime {
                    minutes: 3 * 1440 + 120
                },
                &mut sheet
            ),
            ["+3 d 2 h"]
        );
        assert_eq!(sheet.time().to_string(), "Day 4, 12:15");
        assert_eq!(
            labels(StateDelta::AdvanceTime { minutes: 0 }, &mut sheet),
            Vec::<String>::new()
        );
    }

    #[test]
    fn apply_all_is_atomic() {
        let mut sheet = mira();
        let before = sheet.clone();
        let deltas = [
            StateDelta::ChangeHp { amount: -3 },
            add_item("Torch", 1),
            change_item("sandwich", -1),
        ];
        let err = StateDelta::apply_all(&deltas, &mut sheet).unwrap_err();
        assert_eq!(err.to_string(), "No item \"sandwich\" in inventory");
        assert_eq!(sheet, before);
        let changes = StateDelta::apply_all(&deltas[..2], &mut sheet).unwrap();
        assert_eq!(changes.labels(), ["−3 HP", "+ Torch"]);
        assert_eq!(changes.changes().len(), 2);
        assert!(!changes.is_empty());
    }

    #[test]
    fn full_inventory_rejects_new_items_only() {
        let mut sheet = mira();
        let deltas: Vec<StateDelta> = (0..100)
            .map(|i| add_item(&format!("Pebble {i}"), 1))
            .collect();
        StateDelta::apply_all(&deltas, &mut sheet).unwrap();
        let err = add_item("Feather", 1).apply(&mut sheet).unwrap_err();
        assert!(matches!(err, DeltaError::Inventory(InventoryError::Full)));
        assert_eq!(labels(add_item("pebble 7", 2), &mut sheet), ["+2 Pebble 7"]);
    }

    #[test]
    fn zero_hp_downs_a_heroic_character_who_then_saves_or_dies() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -12 }, &mut sheet),
            ["−10 HP", "Down (0 ✓, 0 ✗)"]
        );
        assert_eq!(
            labels(StateDelta::DeathSave { die: 14 }, &mut sheet),
            ["Down (1 ✓, 0 ✗)"]
        );
        // Damage while down is a failed save; a natural 1 is two.
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -3 }, &mut sheet),
            ["Down (1 ✓, 1 ✗)"]
        );
        assert_eq!(
            labels(StateDelta::DeathSave { die: 1 }, &mut sheet),
            ["Fallen"]
        );
        assert!(sheet.vitality().is_dead());
        let refused = StateDelta::ChangeHp { amount: 5 }
            .apply(&mut sheet)
            .unwrap_err();
        assert_eq!(refused, DeltaError::Fallen);
        assert_eq!(sheet.hit_points().current(), 0);
    }

    #[test]
    fn healing_or_a_natural_twenty_brings_them_back() {
        let mut sheet = mira();
        StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
        assert_eq!(
            labels(StateDelta::DeathSave { die: 20 }, &mut sheet),
            ["+1 HP", "On your feet"]
        );
        StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
        for die in [10, 11, 12] {
            StateDelta::DeathSave { die }.apply(&mut sheet).unwrap();
        }
        assert_eq!(sheet.vitality(), Vitality::Stable);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: 4 }, &mut sheet),
            ["+4 HP", "On your feet"]
        );
    }

    #[test]
    fn zero_hp_ends_a_gritty_story_at_once() {
        let mut sheet = mira().with_stakes(crate::game::Stakes::Gritty);
        assert_eq!(
            labels(StateDelta::ChangeHp { amount: -10 }, &mut sheet),
            ["−10 HP", "Fallen"]
        );
        let deltas = [StateDelta::AdvanceTime { minutes: 5 }];
        assert_eq!(
            StateDelta::apply_all(&deltas, &mut sheet).unwrap_err(),
            DeltaError::Fallen
        );
    }

    #[test]
    fn experience_gains_one_level_at_a_time_with_its_hit_points() {
        let mut sheet = mira();
        assert_eq!(
            labels(StateDelta::GainExperience { amount: 5_000 }, &mut sheet),
            ["+899 XP", "Level 2", "Max HP 15", "+5 HP"]
        );
        assert_eq!(sheet.level().value(), 2);
        assert_eq!(
            StateDelta::GainExperience { amount: 0 }.apply(&mut sheet),
            Err(DeltaError::Award)
        );
        assert_eq!(
            labels(StateDelta::GainExperience { amount: 1 }, &mut sheet),
            ["+1 XP", "Level 3", "Max HP 20", "+5 HP"]
        );
    }

    #[test]
    fn rests_heal_within_the_rules() {
        let mut sheet = mira();
        StateDelta::SetHp { hp: 2 }.apply(&mut sheet).unwrap();
        let short = StateDelta::Rest {
            kind: RestKind::Short,
        };
        assert_eq!(
            labels(short.clone(), &mut sheet),
            ["Hit dice left: 0", "+5 HP", "+1 h"]
        );
        let long = StateDelta::Rest {
            kind: RestKind::Long,
        };
        assert_eq!(
            labels(long, &mut sheet),
            ["Hit dice left: 1", "+3 HP", "+8 h"]
        );
        StateDelta::SetHp { hp: 0 }.apply(&mut sheet).unwrap();
        assert_eq!(short.apply(&mut sheet), Err(DeltaError::Dying));
    }

    #[test]
    fn hit_dice_are_a_pool_spent_on_short_rests_and_half_regained_on_long_ones() {
        let mut sheet = mira().with_level(crate::game::Level::new(5).unwrap());
        let short = StateDelta::Rest {
            kind: RestKind::Short,
        };
        let long = StateDelta::Rest {
            kind: RestKind::Long,
        };
        assert_eq!(sheet.hit_dice(), Some((5, 5)));
        for left in (0..5).rev() {
            short.apply(&mut sheet).unwrap();
            assert_eq!(sheet.hit_dice(), Some((left, 5)));
        }
        let before = sheet.clone();
        assert_eq!(short.apply(&mut sheet), Err(DeltaError::NoHitDice));
        assert_eq!(sheet, before, "a refused rest changes nothing");
        // Half of five, rounded down: two back; then two more; then the last one.
        for left in [2, 4, 5] {
            long.apply(&mut sheet).unwrap();
            assert_eq!(sheet.hit_dice(), Some((left, 5)));
        }
        // A sheet from before the pool rests as it always did.
        let mut older: CharacterSheet = serde_json::from_value({
            let mut json = serde_json::to_value(mira()).unwrap();
            json.as_object_mut().unwrap().remove("hitDiceSpent");
            json
        })
        .unwrap();
        assert_eq!(older.hit_dice(), None);
        for _ in 0..3 {
            short.apply(&mut older).unwrap();
        }
    }

    #[test]
    fn deltas_and_changes_serialise_tagged() {
        let delta = StateDelta::SetMaxHp { max_hp: 12 };
        let json = serde_json::to_value(&delta).unwrap();
        assert_eq!(json, serde_json::json!({"type": "setMaxHp", "maxHp": 12}));
        let back: StateDelta = serde_json::from_value(json).unwrap();
        assert_eq!(back, delta);
        let add: StateDelta = serde_json::from_value(serde_json::json!({
            "type": "addItem", "item": {"name": "Rusty key", "quantity": 1}
        }))
        .unwrap();
        let mut sheet = mira();
        let changes = add.apply(&mut sheet).unwrap();
        let json = serde_json::to_value(&changes).unwrap();
        assert_eq!(json[0]["type"], "item");
        assert_eq!(json[0]["slug"], "rusty-key");
        let back: AppliedChanges = serde_json::from_value(json).unwrap();
        assert_eq!(back, changes);
    }
}
