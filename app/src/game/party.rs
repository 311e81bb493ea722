//! The party: the characters at the table beside the host's hero. Each friend who joins takes a
//! seat (seat 1 is the host's, whose hero is the campaign's own sheet; friends sit at 2 to
//! [`MAX_SEATS`]), and companions made at creation or brought on a card travel with them. Every
//! member has a real sheet the rules keep, so a friend's roll is made against their own scores
//! and a tool's change lands on the sheet it names.
//!
//! Names are unique at the table, ignoring case (the host's hero included), so a name the game
//! master writes in a tool call points at one character. A refused change ([`PartyError`])
//! leaves the party as it was.

use serde::{Deserialize, Serialize};

use super::CharacterSheet;

/// The most players at one table, the host included.
pub const MAX_SEATS: u8 = 4;

/// The most companions travelling with the party.
pub const MAX_COMPANIONS: usize = 2;

/// How long a round waits for every seat, in seconds: the least, the default and the most a
/// table may set.
pub const ROUND_WAIT: (u32, u32, u32) = (30, 300, 24 * 60 * 60);

/// A player's place at the table: 1 is the host's, friends sit at 2 to [`MAX_SEATS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// The host's seat.
    pub const HOST: Self = Self(1);

    /// The seat numbered `number`.
    pub fn new(number: u8) -> Result<Self, PartyError> {
        if (1..=MAX_SEATS).contains(&number) {
            Ok(Self(number))
        } else {
            Err(PartyError::NoSuchSeat { seat: number })
        }
    }

    /// Its number, from 1.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether it is the host's.
    pub fn is_host(self) -> bool {
        self == Self::HOST
    }

    /// The friends' seats, in order.
    pub fn friends() -> impl Iterator<Item = Self> {
        (2..=MAX_SEATS).map(Self)
    }
}

impl TryFrom<u8> for Seat {
    type Error = PartyError;

    fn try_from(number: u8) -> Result<Self, Self::Error> {
        Self::new(number)
    }
}

impl From<Seat> for u8 {
    fn from(seat: Seat) -> Self {
        seat.0
    }
}

/// Who a party member is to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Role {
    /// A friend's hero, played from that seat.
    Seat {
        /// The seat.
        seat: Seat,
    },
    /// A companion: the narrator gives it voice, and in a fight the rules run its turns.
    Companion,
}

/// A character at the table besides the host's hero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Who they are to the table.
    #[serde(flatten)]
    pub role: Role,
    /// Their sheet now.
    pub sheet: CharacterSheet,
}

impl Member {
    /// The member's name.
    pub fn name(&self) -> &str {
        self.sheet.name().as_str()
    }

    /// The seat, for a friend's hero.
    pub fn seat(&self) -> Option<Seat> {
        match self.role {
            Role::Seat { seat } => Some(seat),
            Role::Companion => None,
        }
    }

    /// Whether the member has fallen (0 HP and not getting up: a fallen companion stays out
    /// of the story).
    pub fn has_fallen(&self) -> bool {
        self.sheet.vitality().is_dead()
            || (self.role == Role::Companion && self.sheet.vitality().is_down())
    }
}

/// Why the party cannot change so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartyError {
    /// A seat number outside the table.
    #[error("the table has seats 1 to {MAX_SEATS}, not {seat}")]
    NoSuchSeat {
        /// The number asked for.
        seat: u8,
    },
    /// The host's seat is the campaign's own.
    #[error("seat 1 is the host's")]
    HostSeat,
    /// The seat is taken.
    #[error("seat {seat} is taken")]
    SeatTaken {
        /// The seat.
        seat: u8,
    },
    /// Nobody sits there.
    #[error("nobody sits at seat {seat}")]
    EmptySeat {
        /// The seat.
        seat: u8,
    },
    /// Every seat is taken.
    #[error("the table is full: {MAX_SEATS} players at most")]
    TableFull,
    /// As many companions as the party may have already travel with it.
    #[error("the party has {MAX_COMPANIONS} companions already")]
    TooManyCompanions,
    /// Another character at the table has the name.
    #[error("{name} is already at the table; choose another name")]
    NameTaken {
        /// The name.
        name: String,
    },
}

/// The characters at the table besides the host's hero, in the order they came.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Party {
    members: Vec<Member>,
}

impl Party {
    /// The members, in the order they came.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Whether nobody is at the table but the host.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The friend at `seat`.
    pub fn at(&self, seat: Seat) -> Option<&Member> {
        self.members.iter().find(|m| m.seat() == Some(seat))
    }

    /// The friends' seats taken, in order.
    pub fn seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self.members.iter().filter_map(Member::seat).collect();
        seats.sort();
        seats
    }

    /// The first free friend's seat, if any.
    pub fn free_seat(&self) -> Option<Seat> {
        Seat::friends().find(|seat| self.at(*seat).is_none())
    }

    /// The member named `name`, ignoring case and spaces around it.
    pub fn named(&self, name: &str) -> Option<usize> {
        let wanted = name.trim().to_lowercase();
        self.members
            .iter()
            .position(|m| m.name().to_lowercase() == wanted)
    }

    /// The member at `index`, to change their sheet.
    pub fn member_mut(&mut self, index: usize) -> Option<&mut Member> {
        self.members.get_mut(index)
    }

    /// Seats `member` (a friend's hero or a companion) at the table beside the host's hero
    /// `host`.
    pub fn join(&mut self, member: Member, host: &str) -> Result<(), PartyError> {
        let name = member.name();
        if self.named(name).is_some() || host.trim().eq_ignore_ascii_case(name.trim()) {
            return Err(PartyError::NameTaken {
                name: name.to_owned(),
            });
        }
        match member.role {
            Role::Seat { seat } if seat.is_host() => return Err(PartyError::HostSeat),
            Role::Seat { seat } if self.at(seat).is_some() => {
                return Err(PartyError::SeatTaken { seat: seat.0 })
            }
            Role::Seat { .. } => {}
            Role::Companion => {
                let companions = self
                    .members
                    .iter()
                    .filter(|m| m.role == Role::Companion)
                    .count();
                if companions >= MAX_COMPANIONS {
                    return Err(PartyError::TooManyCompanions);
                }
            }
        }
        self.members.push(member);
        Ok(())
    }

    /// The friend at `seat` leaves the table, and their hero the story.
    pub fn leave(&mut self, seat: Seat) -> Result<Member, PartyError> {
        let index = self
            .members
            .iter()
            .position(|m| m.seat() == Some(seat))
            .ok_or(PartyError::EmptySeat { seat: seat.0 })?;
        Ok(self.members.remove(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::creation::tests_support::named;

    fn sheet_named(name: &str) -> CharacterSheet {
        named(name, "Fighter")
    }

    fn friend(name: &str, seat: u8) -> Member {
        Member {
            role: Role::Seat {
                seat: Seat::new(seat).unwrap(),
            },
            sheet: sheet_named(name),
        }
    }

    fn companion(name: &str) -> Member {
        Member {
            role: Role::Companion,
            sheet: sheet_named(name),
        }
    }

    #[test]
    fn friends_take_free_seats_and_leave_them() {
        let mut party = Party::default();
        assert_eq!(party.free_seat(), Seat::new(2).ok());
        party.join(friend("Mira", 2), "Aria").unwrap();
        party.join(friend("Bran", 3), "Aria").unwrap();
        assert_eq!(party.free_seat(), Seat::new(4).ok());
        assert_eq!(party.seats().len(), 2);
        let gone = party.leave(Seat::new(2).unwrap()).unwrap();
        assert_eq!(gone.name(), "Mira");
        assert_eq!(party.free_seat(), Seat::new(2).ok());
        assert_eq!(
            party.leave(Seat::new(2).unwrap()),
            Err(PartyError::EmptySeat { seat: 2 })
        );
    }

    #[test]
    fn refusals_change_nothing() {
        let mut party = Party::default();
        party.join(friend("Mira", 2), "Aria").unwrap();
        let before = party.clone();
        assert_eq!(
            party.join(friend("mira", 3), "Aria"),
            Err(PartyError::NameTaken {
                name: "mira".into()
            })
        );
        assert!(matches!(
            party.join(friend("ARIA", 3), "Aria"),
            Err(PartyError::NameTaken { .. })
        ));
        assert_eq!(
            party.join(friend("Bran", 2), "Aria"),
            Err(PartyError::SeatTaken { seat: 2 })
        );
        assert_eq!(
            party.join(friend("Bran", 1), "Aria"),
            Err(PartyError::HostSeat)
        );
        party.join(companion("Wolf"), "Aria").unwrap();
        party.join(companion("Hawk"), "Aria").unwrap();
        let with_companions = party.clone();
        assert_eq!(
            party.join(companion("Owl"), "Aria"),
            Err(PartyError::TooManyCompanions)
        );
        assert_eq!(party, with_companions);
        assert_ne!(party, before);
        assert_eq!(Seat::new(5), Err(PartyError::NoSuchSeat { seat: 5 }));
        assert_eq!(Seat::new(0), Err(PartyError::NoSuchSeat { seat: 0 }));
    }

    #[test]
    fn names_are_found_ignoring_case() {
        let mut party = Party::default();
        party.join(friend("Mira", 2), "Aria").unwrap();
        assert_eq!(party.named(" mira "), Some(0));
        assert_eq!(party.named("Bran"), None);
    }

    #[test]
    fn a_party_reads_back_as_stored() {
        let mut party = Party::default();
        party.join(friend("Mira", 2), "Aria").unwrap();
        party.join(companion("Wolf"), "Aria").unwrap();
        let json = serde_json::to_string(&party).unwrap();
        assert!(json.contains(r#""role":"seat","seat":2"#), "{json}");
        assert_eq!(serde_json::from_str::<Party>(&json).unwrap(), party);
        assert!(
            serde_json::from_str::<Party>(&json.replace(r#""seat":2"#, r#""seat":9"#)).is_err()
        );
    }
}
