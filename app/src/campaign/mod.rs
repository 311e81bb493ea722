//! Campaigns: one append-only event log per campaign, and the views the player and the model
//! get of it: the log is the truth, and everything shown is projected from it.
//!
//! - [`view`]: what the browser receives (story entries, the sheet, the actions, turn updates).
//!   Shared by server and browser.
//! - [`event`], [`turn_event`], [`conversation`] (server): the log's vocabulary, which the game
//!   master emits; [`bounds`]: the largest values it may hold.
//! - [`state`] (server): the snapshot of the current state and the one projector that applies an
//!   event to it; [`timeline`] says which events are in effect after undo and redo; [`present`]
//!   shows the state to the browser; [`fight`] applies a fight's step; [`proposal`]: the game
//!   master's changes waiting for the player in approval mode; [`ledger`] lists every change and roll with its cause.
//! - [`store`] (server): the `CampaignStore` port the database adapters implement; [`lease`]:
//!   the `LeaseStore` port (one turn at a time across instances, rolls made final); [`export`]:
//!   a campaign as one versioned file; [`title`]: a campaign's title, bounded and printable;
//!   [`passage`]: the story as searchable text, which the store indexes, and a search's words.

#[cfg(feature = "ssr")]
pub mod bounds;
#[cfg(feature = "ssr")]
pub mod conversation;
#[cfg(feature = "ssr")]
pub mod event;
#[cfg(feature = "ssr")]
pub mod export;
#[cfg(feature = "ssr")]
pub mod fight;
#[cfg(feature = "ssr")]
pub mod lease;
#[cfg(feature = "ssr")]
pub mod ledger;
#[cfg(feature = "ssr")]
pub mod markdown;
#[cfg(feature = "ssr")]
pub mod passage;
#[cfg(feature = "ssr")]
pub mod present;
#[cfg(feature = "ssr")]
pub mod present_powers;
#[cfg(feature = "ssr")]
pub mod proposal;
#[cfg(feature = "ssr")]
pub mod state;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod timeline;
#[cfg(feature = "ssr")]
pub mod title;
#[cfg(feature = "ssr")]
pub mod turn_event;
