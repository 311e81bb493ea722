//! Components and pages.

pub mod app;
pub mod home;
