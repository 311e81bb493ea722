//! Dicebound's server: configuration, telemetry and the axum application that serves the game.
#![recursion_limit = "512"]

pub mod config;
pub mod llm;
pub mod security;
pub mod serve;
pub mod startup;
pub mod store;
pub mod telemetry;
