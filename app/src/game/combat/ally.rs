//! The hero's allies in a fight: what the caller gives when the fight starts ([`Ally`]: another
//! player's hero, a seat, or a companion the rules play), and an ally as the running fight keeps
//! it ([`AllyState`]: its hit points now, the heals it has left, whether it is dodging), checked
//! when a stored fight is read back.

use serde::{Deserialize, Serialize};

use super::bounds::CombatError;
use super::profile::AttackProfile;
use crate::game::bestiary::{ArmorClass, Damage};
use crate::game::dice::DiceExpr;
use crate::game::text::CharacterName;

/// Who plays an ally's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AllyKind {
    /// Another player's hero, at this seat: the player chooses its moves.
    Seat(u8),
    /// A non-player ally: the rules play its turns.
    Companion,
}

/// An ally's figures as the caller gives them when the fight starts, worked out from its sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ally {
    /// Its name (`Bran`), distinct among the allies.
    pub name: CharacterName,
    /// Who plays its turns.
    pub kind: AllyKind,
    /// The armour class foes roll against.
    pub armor_class: ArmorClass,
    /// Its hit points now.
    pub hit_points: u16,
    /// Its maximum hit points (healing stops there).
    pub max_hit_points: u16,
    /// The initiative modifier (DEX).
    pub initiative: i8,
    /// Its attack (a companion's every turn; a seat's player names a weapon each turn).
    pub attack: AttackProfile,
    /// The hit points one of its heals restores (`1d8+3`), if it can heal.
    pub healing: Option<DiceExpr>,
    /// How many heals it may use in this fight.
    pub heals_left: u8,
}

impl Ally {
    /// An ally at full `hit_points`, without healing.
    pub fn new(
        name: CharacterName,
        kind: AllyKind,
        armor_class: ArmorClass,
        hit_points: u16,
        initiative: i8,
        attack: AttackProfile,
    ) -> Self {
        Self {
            name,
            kind,
            armor_class,
            hit_points,
            max_hit_points: hit_points,
            initiative,
            attack,
            healing: None,
            heals_left: 0,
        }
    }

    /// The ally with a heal of `dice`, usable `uses` times in the fight.
    pub fn with_healing(self, dice: DiceExpr, uses: u8) -> Self {
        Self {
            healing: Some(dice),
            heals_left: uses,
            ..self
        }
    }
}

/// An ally in a running fight. Its hit points are the fight's from its start on; each exchange
/// reports how they changed for the caller's sheets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "AllyData", into = "AllyData")]
pub struct AllyState {
    data: AllyData,
    damage: Damage,
}

/// An ally as stored in the snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllyData {
    name: CharacterName,
    kind: AllyKind,
    armor_class: ArmorClass,
    hp: u16,
    max_hp: u16,
    attack: AttackProfile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    healing: Option<DiceExpr>,
    #[serde(default, skip_serializing_if = "is_zero")]
    heals_left: u8,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    dodging: bool,
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// A stored ally that breaks an ally's bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stored ally: {0}")]
pub struct InvalidAlly(&'static str);

impl AllyState {
    /// The ally as the fight starts: its maximum no lower than its hit points now.
    pub(super) fn new(ally: Ally) -> Result<Self, CombatError> {
        let damage = ally.attack.total_damage()?;
        Ok(Self {
            data: AllyData {
                max_hp: ally.max_hit_points.max(ally.hit_points),
                name: ally.name,
                kind: ally.kind,
                armor_class: ally.armor_class,
                hp: ally.hit_points,
                attack: ally.attack,
                healing: ally.healing,
                heals_left: ally.heals_left,
                dodging: false,
            },
            damage,
        })
    }

    /// Its name.
    pub fn name(&self) -> &CharacterName {
        &self.data.name
    }

    /// Who plays its turns.
    pub fn kind(&self) -> AllyKind {
        self.data.kind
    }

    /// Whether a player chooses its moves.
    pub fn is_seat(&self) -> bool {
        matches!(self.data.kind, AllyKind::Seat(_))
    }

    /// Its armour class.
    pub fn armor_class(&self) -> ArmorClass {
        self.data.armor_class
    }

    /// Its hit points now, 0..=[`AllyState::max_hit_points`].
    pub fn hit_points(&self) -> u16 {
        self.data.hp
    }

    /// Its maximum hit points.
    pub fn max_hit_points(&self) -> u16 {
        self.data.max_hp
    }

    /// Whether it is still up (above 0 HP).
    pub fn is_standing(&self) -> bool {
        self.data.hp > 0
    }

    /// Its attack.
    pub fn attack(&self) -> &AttackProfile {
        &self.data.attack
    }

    /// Its attack's damage, bonus included.
    pub(super) fn damage(&self) -> &Damage {
        &self.damage
    }

    /// The dice of its heal while it has one left.
    pub fn heal(&self) -> Option<&DiceExpr> {
        self.data
            .healing
            .as_ref()
            .filter(|_| self.data.heals_left > 0)
    }

    /// How many heals it has left.
    pub fn heals_left(&self) -> u8 {
        self.data.heals_left
    }

    /// Spends one heal.
    pub(super) fn spend_heal(&mut self) {
        self.data.heals_left = self.data.heals_left.saturating_sub(1);
    }

    /// Whether attacks against it have disadvantage (it dodged this round).
    pub fn is_dodging(&self) -> bool {
        self.data.dodging
    }

    /// Dodges until its next turn, or stops.
    pub(super) fn set_dodging(&mut self, on: bool) {
        self.data.dodging = on;
    }

    /// Takes `amount` damage (stopping at 0) or, with `heal`, regains it (stopping at the
    /// maximum); its hit points before and after.
    pub(super) fn change_hp(&mut self, amount: u32, heal: bool) -> (u16, u16) {
        let from = self.data.hp;
        let amount = u16::try_from(amount).unwrap_or(u16::MAX);
        self.data.hp = if heal {
            from.saturating_add(amount).min(self.data.max_hp)
        } else {
            from.saturating_sub(amount)
        };
        (from, self.data.hp)
    }

    /// `Bran (AC 16): 12/20 HP, dodging`, `Mira: down`.
    pub fn status(&self) -> String {
        if !self.is_standing() {
            return format!("{}: down", self.data.name);
        }
        let mut out = format!(
            "{} (AC {}): {}/{} HP",
            self.data.name,
            self.data.armor_class.value(),
            self.data.hp,
            self.data.max_hp
        );
        if self.data.dodging {
            out.push_str(", dodging");
        }
        out
    }
}

impl TryFrom<AllyData> for AllyState {
    type Error = InvalidAlly;

    fn try_from(data: AllyData) -> Result<Self, Self::Error> {
        if data.max_hp == 0 || data.hp > data.max_hp {
            return Err(InvalidAlly(
                "its hit points must be within 0..=max, max above 0",
            ));
        }
        let damage = data
            .attack
            .total_damage()
            .map_err(|_| InvalidAlly("its attack's damage does not add up"))?;
        Ok(Self { data, damage })
    }
}

impl From<AllyState> for AllyData {
    fn from(state: AllyState) -> Self {
        state.data
    }
}
