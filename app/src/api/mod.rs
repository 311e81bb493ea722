//! Server functions: one per file, each thin (identify, load, call the game, return).

pub mod new_adventure;

pub use new_adventure::{new_adventure, AdventureHook, NewAdventure};
