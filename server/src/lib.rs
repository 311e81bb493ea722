//! Dicebound's server: configuration, telemetry and the axum application that serves the game;
//! and the playtest bench's players and scores (`playtest`).
#![recursion_limit = "512"]
// A panic outside tests is a choice made with `expect` and its reason.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod config;
pub mod error_status;
pub mod live;
pub mod llm;
pub mod memory;
pub mod playtest;
pub mod security;
pub mod serve;
pub mod startup;
pub mod store;
pub mod telemetry;
