//! Dicebound's application crate, in reading order (each module uses only those before it): the
//! game rules (`game`); the campaign, its log, its projector and its story (`campaign`); the
//! browser's vocabulary and, on the server, the views made of the campaign (`wire`); with `ssr`,
//! the game master (`gm`, which emits campaign events) and the application service
//! (`service`); the server functions (`api`); the pages (`ui`).
//!
//! Compiled twice: with `ssr` into the server binary and with `hydrate` into the browser's wasm.
// Tests may run longer than the 80 lines production functions are held to.
#![cfg_attr(test, allow(clippy::too_many_lines))]
#![recursion_limit = "512"]
// A panic outside tests is a choice made with `expect` and its reason.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod api;
pub mod campaign;
pub mod game;
#[cfg(feature = "ssr")]
pub mod gm;
#[cfg(feature = "ssr")]
pub mod service;
pub mod ui;
pub mod wire;

pub use ui::app::{shell, App};
