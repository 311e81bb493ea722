//! Database adapters of the `CampaignStore` and `LeaseStore` ports.

pub mod sqlite;
mod sqlite_leases;
mod sqlite_settings;
