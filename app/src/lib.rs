//! Dicebound's application crate: the game rules (`game`), the pages (`ui`) and the server
//! functions (`api`); with `ssr`, the game master (`gm`).
//!
//! Compiled twice: with `ssr` into the server binary and with `hydrate` into the browser's wasm.
#![recursion_limit = "512"]

pub mod api;
pub mod campaign;
pub mod game;
#[cfg(feature = "ssr")]
pub mod gm;
pub mod ui;

pub use ui::app::{shell, App};
