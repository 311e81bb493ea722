//! The table of friends as the browser shows it: who sits where and with which hero, the
//! companions, who has moved this round, and (for the host) the invitation to share.

use serde::{Deserialize, Serialize};

/// One character at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    /// The seat (1 is the host's), or none for a companion.
    pub seat: Option<u8>,
    /// The character's name.
    pub name: String,
    /// Their class.
    pub class: String,
    /// Hit points now.
    pub hp: u16,
    /// Hit points at most.
    pub max_hp: u16,
    /// Whether they have fallen.
    pub fallen: bool,
    /// Whether their move of this round is in (a companion's never is).
    pub moved: bool,
}

/// The table as one seat sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// Everyone at the table, the host's hero first.
    pub members: Vec<MemberView>,
    /// The viewer's seat (1: the host).
    pub you: u8,
    /// The turn the round answers (the campaign's turn when its moves were made).
    pub turn: u32,
    /// Seconds a round waits for every seat before anyone may go on without the missing.
    pub wait_secs: u32,
    /// Seconds left before then, once a move is in (none before the first move).
    pub wait_left: Option<u32>,
    /// Whether the viewer may say "go on without them" now.
    pub may_go_on: bool,
}

/// An invitation the host made: the link to share, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationView {
    /// The path of the link (`/join/CODE`), to put after the server's address.
    pub path: String,
    /// When it runs out, seconds since the Unix epoch.
    pub expires_at: i64,
}

/// What a seat's move did: waiting for the others, or the round narrated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum RoundState {
    /// The move is in; the round waits for the others.
    Waiting {
        /// The table now.
        table: TableView,
    },
    /// The round was narrated: the campaign is at `turn`.
    Narrated {
        /// The campaign's turn now.
        turn: u32,
        /// Tokens spent so far: (prompt, completion).
        tokens: (u32, u32),
    },
}
