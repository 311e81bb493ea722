//! Campaigns: one append-only event log per campaign, and the views the player and the model
//! get of it (DESIGN.md §4).
//!
//! - [`view`]: what the browser receives (story log entries, the sheet, the actions, the model's
//!   history as text). Shared by server and browser.
//! - [`event`] (server): the events stored in the log.
//! - [`projection`] (server): the fold of a log into the current sheet, the UI history, the LLM
//!   history and the pending actions.
//! - [`store`] (server): the `CampaignStore` port the database adapters implement.

pub mod ids;
pub mod view;

#[cfg(feature = "ssr")]
pub mod conversation;
#[cfg(feature = "ssr")]
pub mod event;
#[cfg(feature = "ssr")]
pub mod markdown;
#[cfg(feature = "ssr")]
pub mod projection;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod turn_event;

pub use ids::{CampaignId, PlayerId};
