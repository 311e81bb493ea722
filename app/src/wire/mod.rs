//! The browser's vocabulary: what the server functions send and take, and what the screens show
//! (`view`; the settings page's in `model_settings`), the campaigns' and players' ids (`ids`), and the one error type the browser gets
//! (`errors`). It sits between the rules and the campaign log: the log, the service, the server
//! functions and the screens use it, and it uses only the rules.

pub mod errors;
pub mod ids;
pub mod model_settings;
pub mod view;

pub use ids::{CampaignId, PlayerId};
