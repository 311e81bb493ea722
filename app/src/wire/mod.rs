//! The browser's vocabulary: what the server functions send and take, and what the screens show
//! (`view`; the settings page's in `model_settings`), and the one error type the browser gets
//! (`errors`). It sits above the campaign: the screens show the campaign's story entries and ids
//! as they are, and on the server `present` makes the campaign's state and log into views. The
//! campaign never imports it.

pub mod errors;
pub mod model_settings;
#[cfg(feature = "ssr")]
pub mod present;
pub mod view;

pub use crate::campaign::ids::{CampaignId, PlayerId};
