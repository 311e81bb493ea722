//! The browser's vocabulary: what the server functions send and take, and what the screens show
//! (`view`; the settings page's in `model_settings`), and the one error type the browser gets
//! (`errors`). It sits above the campaign: the screens show the campaign's story entries and ids
//! as they are, and on the server `present` makes the campaign's state and log into views. The
//! campaign never imports it.
//!
//! - `view/`: what the screens show, a file per screen or drawer (home, play, sheet, inspector)
//!   and what the player sends (forms);
//! - `model_settings`: the settings page's vocabulary: what is set, the form, a test's report;
//!   the key only ever travels towards the server; `picture_settings` the same for the image
//!   model;
//! - `codec`: the one JSON reader of the browser's code, for server functions and resources;
//! - `errors`: `AppError`: not found, stale, invalid, busy, limited, too slow, the game master or
//!   storage unavailable, not allowed, a malformed request;
//! - `tag_first`: the browser's reader for the story's entries and the vitality, internally
//!   tagged, without serde's buffering;
//! - `present/` (server): the campaign's state, story and log made into views.

pub mod codec;
pub mod errors;
pub mod model_settings;
pub mod picture_settings;
#[cfg(feature = "ssr")]
pub mod present;
pub mod tag_first;
pub mod view;

pub use crate::campaign::ids::{CampaignId, PlayerId};
