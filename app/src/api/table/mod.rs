//! The table of friends' server functions: the host's invitations and seats, a friend joining,
//! the table as a seat sees it, how long a round waits, and a round narrated without the seats
//! still missing.

pub mod go_on;
pub mod invite_friend;
pub mod join_table;
pub mod load_table;
pub mod remove_seat;
pub mod revoke_invitations;
pub mod set_round_wait;

pub use go_on::{go_on, GoOn};
pub use invite_friend::{invite_friend, InviteFriend};
pub use join_table::{join_table, JoinTable};
pub use load_table::{load_table, LoadTable};
pub use remove_seat::{remove_seat, RemoveSeat};
pub use revoke_invitations::{revoke_invitations, RevokeInvitations};
pub use set_round_wait::{set_round_wait, SetRoundWait};
