//! Dicebound's server: configuration, telemetry and the axum application that serves the game.

pub mod config;
pub mod llm;
pub mod startup;
pub mod store;
pub mod telemetry;
