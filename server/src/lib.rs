//! Dicebound's server: configuration, telemetry, the model behind the game master (`llm`), the
//! campaign store and the axum application that serves the game. (The playtest's players and
//! scores are a crate of their own, `playtest`, which the server's bench and tests use.)
#![recursion_limit = "512"]
// A panic outside tests is a choice made with `expect` and its reason.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod config;
pub mod error_status;
pub mod live;
pub mod llm;
pub mod memory;
pub mod security;
pub mod serve;
pub mod startup;
pub mod store;
pub mod telemetry;
