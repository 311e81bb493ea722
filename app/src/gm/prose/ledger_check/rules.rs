//! What the rules did in one turn, gathered from its events: the hero's hit points lost and
//! regained, items and conditions, experience and level, the verdicts of the player's checks,
//! and in a fight each foe's blows taken, hit points left, fall or flight.

use crate::campaign::proposal::Proposed;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::combat::{AttackResolution, CombatEvent, Outcome, Party};
use crate::game::fight::FightRecord;
use crate::game::{AppliedChanges, Change, Resolution, StateDelta};

use super::text::{number, words};

/// Amounts the rules dealt out, each as it came: one number the prose may fairly repeat is any
/// part, any raw amount asked for before clamping, or the sum of the parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Amounts {
    /// What actually changed, each change.
    parts: Vec<u32>,
    /// Amounts rolled or asked for (an attack's damage before the floor at 0 HP, a potion's roll
    /// before the ceiling at full health), each as it came.
    raw: Vec<u32>,
}

impl Amounts {
    /// What actually changed, all together (0 when nothing did).
    pub fn total(&self) -> u32 {
        self.parts.iter().sum()
    }

    /// Whether nothing was dealt out, neither changed nor rolled.
    pub fn is_none(&self) -> bool {
        self.parts.is_empty() && self.raw.iter().all(|n| *n == 0)
    }

    /// Whether `amount` is one the rules gave: a part, a raw amount, or a total.
    pub fn accepts(&self, amount: u32) -> bool {
        let raw_total: u32 = self.raw.iter().sum();
        self.parts.contains(&amount)
            || self.raw.contains(&amount)
            || (amount > 0 && (amount == self.total() || amount == raw_total))
    }

    fn push(&mut self, amount: u32) {
        self.parts.push(amount);
    }

    fn push_raw(&mut self, amount: u32) {
        self.raw.push(amount);
    }
}

/// An item whose carried quantity changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemMove {
    /// Its name as the rules keep it (`Silver key`).
    pub name: String,
    /// The quantity before.
    pub from: u16,
    /// The quantity after.
    pub to: u16,
}

impl ItemMove {
    /// Whether more are carried after than before.
    pub fn is_gain(&self) -> bool {
        self.to > self.from
    }
}

/// A check the player rolled this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRecord {
    /// What it was for (`Pick the lock`; `Escape` for a try to get away from a fight).
    pub reason: String,
    /// Whether it succeeded.
    pub success: bool,
    /// Whether it was the try to get away from a fight.
    pub escape: bool,
}

/// One foe the turn's fight named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoeRecord {
    /// Its label (`Goblin 2`).
    pub label: String,
    /// Its kind, lower case, without the number (`goblin`).
    pub kind: String,
    /// The number in its label, when several share the kind.
    pub number: Option<u8>,
    /// Its hit points after the last blow it took this turn, if it took one.
    pub hp_left: Option<u16>,
    /// Whether it went down (0 HP) this turn.
    pub down: bool,
    /// Whether it fled this turn.
    pub fled: bool,
    /// The damage of each of the hero's blows that hit it this turn.
    pub blows: Vec<u32>,
}

impl FoeRecord {
    fn new(label: &str) -> Self {
        let mut kind = words(label);
        let number = match kind.last().map(|w| number(w)) {
            Some(Some(n)) => {
                kind.pop();
                u8::try_from(n).ok()
            }
            _ => None,
        };
        Self {
            label: label.to_owned(),
            kind: kind.join(" "),
            number,
            hp_left: None,
            down: false,
            fled: false,
            blows: Vec::new(),
        }
    }
}

/// What the rules did in one turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesRecord {
    /// The hero's hit points lost.
    pub damage: Amounts,
    /// The hero's hit points regained.
    pub healing: Amounts,
    /// The hero's hit points after each change, in order.
    pub hp_seen: Vec<u16>,
    /// Items gained or lost, in order.
    pub items: Vec<ItemMove>,
    /// Conditions gained (names as the rules keep them).
    pub conditions_added: Vec<String>,
    /// Conditions lost.
    pub conditions_removed: Vec<String>,
    /// Experience gained.
    pub experience: Amounts,
    /// The level after the turn, if it changed.
    pub level_after: Option<u8>,
    /// The player's checks, in order.
    pub checks: Vec<CheckRecord>,
    /// The foes the turn's fight named, in the order first named.
    pub foes: Vec<FoeRecord>,
    /// Whether a fight step was played this turn.
    pub fought: bool,
    /// Whether the turn's fight began this turn (so every foe in it is named).
    pub fight_began: bool,
    /// Whether the fight was called off this turn (a truce, a surrender, a foe let go).
    pub fight_stopped: bool,
}

impl RulesRecord {
    /// What the rules did in the turn whose events are `events`.
    pub fn from_events(events: &[TurnEvent]) -> Self {
        let mut record = Self::default();
        for event in events {
            record.add_event(event);
        }
        record
    }

    /// One event's part.
    fn add_event(&mut self, event: &TurnEvent) {
        match event {
            TurnEvent::PlayerRoll {
                reason,
                resolution: Resolution::Check(check),
                ..
            } => self.add_check(reason, check.is_success(), false),
            TurnEvent::Ruled {
                deltas, changes, ..
            } => {
                self.add_deltas(deltas);
                self.add_changes(changes);
            }
            TurnEvent::Complicated {
                complication,
                changes,
                ..
            } => {
                self.add_deltas(&complication.deltas());
                self.add_changes(changes);
            }
            TurnEvent::Fought { record, changes } => {
                self.add_fight(record);
                self.add_changes(changes);
            }
            TurnEvent::ToolResult {
                effect: Some(effect),
                ..
            } => self.add_effect(effect),
            _ => {}
        }
    }

    fn add_effect(&mut self, effect: &ToolEffect) {
        match effect {
            // A proposal is narrated as what happens: the prose is checked against it.
            ToolEffect::Changed { deltas, changes }
            | ToolEffect::Proposed {
                proposed: Proposed::Sheet { deltas, changes },
                ..
            } => {
                self.add_deltas(deltas);
                self.add_changes(changes);
            }
            ToolEffect::Checked { reason, check } => {
                self.add_check(reason, check.is_success(), false)
            }
            ToolEffect::SanityChecked {
                reason,
                check,
                changes,
            } => {
                self.add_check(reason, check.save.is_success(), false);
                self.add_changes(changes);
            }
            ToolEffect::Fought { record, changes } => {
                self.add_fight(record);
                self.add_changes(changes);
            }
            ToolEffect::Hazard {
                hazard, changes, ..
            } => {
                self.add_deltas(&hazard.deltas());
                self.add_changes(changes);
            }
            _ => {}
        }
    }

    fn add_check(&mut self, reason: &str, success: bool, escape: bool) {
        self.checks.push(CheckRecord {
            reason: reason.to_owned(),
            success,
            escape,
        });
    }

    /// The amounts asked for, before the sheet's bounds clamped them.
    fn add_deltas(&mut self, deltas: &[StateDelta]) {
        for delta in deltas {
            match delta {
                StateDelta::ChangeHp { amount } if *amount < 0 => {
                    self.damage.push_raw(amount.unsigned_abs())
                }
                StateDelta::ChangeHp { amount } => self.healing.push_raw(amount.unsigned_abs()),
                StateDelta::UseItem {
                    roll: Some(roll), ..
                } => self
                    .healing
                    .push_raw(u32::try_from(roll.total()).unwrap_or(0)),
                StateDelta::GainExperience { amount } => self.experience.push_raw(*amount),
                _ => {}
            }
        }
    }

    /// What actually changed on the sheet.
    fn add_changes(&mut self, changes: &AppliedChanges) {
        for change in changes.changes() {
            match change {
                Change::Hp { from, to } => {
                    if to < from {
                        self.damage.push(u32::from(from - to));
                    } else {
                        self.healing.push(u32::from(to - from));
                    }
                    self.hp_seen.push(*to);
                }
                Change::Item(item) => self.items.push(ItemMove {
                    name: item.name.to_string(),
                    from: item.from,
                    to: item.to,
                }),
                Change::ConditionAdded(c) => self.conditions_added.push(c.name.to_string()),
                Change::ConditionRemoved(c) => self.conditions_removed.push(c.name.to_string()),
                Change::Experience { from, to } => self.experience.push(to.saturating_sub(*from)),
                Change::Level { to, .. } => self.level_after = Some(*to),
                _ => {}
            }
        }
    }

    /// A fight step: every foe it names, the blows each way, who fell or fled, an escape's check.
    fn add_fight(&mut self, record: &FightRecord) {
        self.fought = true;
        let exchange = &record.exchange;
        for event in &exchange.events {
            match event {
                CombatEvent::Initiative { order } => {
                    self.fight_began = true;
                    for place in order.iter().filter_map(|p| p.foe.as_ref()) {
                        self.foe(place.as_str());
                    }
                }
                CombatEvent::Attack(attack) => self.add_attack(attack),
                CombatEvent::Flee { check } => self.add_check("Escape", check.is_success(), true),
                CombatEvent::FoesFlee { foes } => {
                    for label in foes {
                        self.foe(label.as_str()).fled = true;
                    }
                }
                CombatEvent::StandsUp { foe } | CombatEvent::LosesTurn { foe, .. } => {
                    self.foe(foe.as_str());
                }
                _ => {}
            }
        }
        self.damage.push_raw(exchange.damage_to_hero);
        if let Some(end) = &exchange.end {
            for label in &end.defeated {
                self.foe(label.as_str()).down = true;
            }
            self.fight_stopped |= end.outcome == Outcome::Stopped;
            self.experience.push_raw(end.xp);
        }
    }

    /// An attack: the hero's damage from a foe's blow, or a blow of the hero's on a foe.
    fn add_attack(&mut self, attack: &AttackResolution) {
        let damage = attack.total_damage();
        match (attack.attacker(), attack.target()) {
            (Party::Foe(foe), Party::Hero) => {
                self.foe(foe.as_str());
                self.damage.push_raw(damage);
                for part in attack.damage() {
                    self.damage.push_raw(part.amount());
                }
            }
            (_, Party::Foe(target)) => {
                let foe = self.foe(target.as_str());
                if attack.is_hit() {
                    foe.blows.push(damage);
                }
                if let Some(hp) = attack.target_hp() {
                    foe.hp_left = Some(hp.to);
                    foe.down |= hp.to == 0;
                }
            }
            _ => {}
        }
    }

    /// The foe labelled `label`, named now if it was not yet.
    fn foe(&mut self, label: &str) -> &mut FoeRecord {
        let at = match self.foes.iter().position(|f| f.label == label) {
            Some(at) => at,
            None => {
                self.foes.push(FoeRecord::new(label));
                self.foes.len() - 1
            }
        };
        &mut self.foes[at]
    }

    /// The hero's hit points after the turn: the last change, else `before`.
    pub fn hp_left(&self, before: u16) -> u16 {
        self.hp_seen.last().copied().unwrap_or(before)
    }
}
