//! Dicebound's server: configuration, telemetry and the axum application that serves the game;
//! and the playtest bench's players and scores (`playtest`).
#![recursion_limit = "512"]

pub mod config;
pub mod llm;
pub mod playtest;
pub mod security;
pub mod serve;
pub mod startup;
pub mod store;
pub mod telemetry;
