//! Components and pages.

pub mod agreement;
pub mod app;
mod ask_twice;
mod campaign_item;
mod card;
pub mod creation;
pub mod files;
pub mod game_master;
pub mod home;
mod lazy_panel;
pub mod play;
mod recovery;
pub mod settings;
pub mod spend;
mod trash;
pub mod updates;
