//! Campaigns: one append-only event log per campaign, and what is projected from it: the log is
//! the truth, and the state and the story are views of it. This is the domain: it imports the
//! rules (`game`) and nothing of the browser's vocabulary (`wire`).
//!
//! - [`story`], [`ids`], [`title`]: the story log's entries (what the player reads), the
//!   campaigns' and players' ids, a campaign's title (bounded, printable). Shared by server and
//!   browser.
//! - [`event`], [`turn_event`], [`conversation`] (server): the log's vocabulary, which the game
//!   master emits; [`bounds`]: the largest values it may hold.
//! - [`state`] (server): the snapshot of the current state and the one projector that applies an
//!   event to it and says what the player sees change ([`shown`]), the story's spine among it
//!   (`spine.rs`) and the table of friends (`party.rs`); [`timeline`] says which
//!   events are in effect after undo and redo; [`fight`] applies a fight's step (its rolls, the
//!   encounter tracker); [`proposal`]: the game master's changes waiting for the player in
//!   approval mode, applied by the same rules once accepted.
//! - [`store`] (server): the `CampaignStore` port the database adapters implement; [`lease`]:
//!   the `LeaseStore` port (one turn at a time across instances, rolls made final); [`table`]:
//!   the `TableStore` port (invitations, seats, the round's moves); [`export`]:
//!   a campaign as one versioned file; [`passage`]: the story as searchable text, which the
//!   store indexes, and a search's words; [`picture`]: a portrait or a scene's picture, its id
//!   and the campaign's bounds on them (shared by server and browser).

#[cfg(feature = "ssr")]
pub mod bounds;
#[cfg(feature = "ssr")]
pub mod conversation;
#[cfg(feature = "ssr")]
mod decisions;
#[cfg(feature = "ssr")]
mod effects;
#[cfg(feature = "ssr")]
pub mod event;
#[cfg(feature = "ssr")]
pub mod export;
#[cfg(feature = "ssr")]
pub mod fight;
pub mod ids;
#[cfg(feature = "ssr")]
pub mod lease;
#[cfg(feature = "ssr")]
pub mod markdown;
#[cfg(feature = "ssr")]
mod party;
#[cfg(feature = "ssr")]
pub mod passage;
pub mod picture;
#[cfg(feature = "ssr")]
pub mod proposal;
#[cfg(feature = "ssr")]
pub mod shown;
#[cfg(feature = "ssr")]
mod spine;
#[cfg(feature = "ssr")]
pub mod state;
#[cfg(feature = "ssr")]
pub mod store;
pub mod story;
#[cfg(feature = "ssr")]
pub mod table;
#[cfg(feature = "ssr")]
pub mod timeline;
pub mod title;
#[cfg(feature = "ssr")]
pub mod turn_event;
