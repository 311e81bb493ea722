//! Database adapters of the `CampaignStore` port.

pub mod sqlite;
