//! Server functions: one per file, each a few lines (who asks, which campaign, the game's
//! answer), grouped by the screen they serve; `context` holds the preamble they share and the
//! one place a service error becomes the browser's error.
// The `#[server]` macro makes a struct of each function's arguments; its fields are the
// documented function's parameters, and Rust has no doc comments for parameters.
#![allow(missing_docs)]

pub mod campaigns;
#[cfg(feature = "ssr")]
pub mod context;
pub mod panel;
pub mod play;
pub mod recovery;
pub mod settings;
pub mod table;

pub use campaigns::*;
pub use panel::*;
pub use play::*;
pub use recovery::*;
pub use settings::*;
pub use table::*;
