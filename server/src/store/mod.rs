//! Database adapters of the `CampaignStore`, `LeaseStore` and `TableStore` ports: SQLite or
//! PostgreSQL.

mod recent;
mod sql;
mod sql_batch;
mod sql_campaigns;
mod sql_leases;
mod sql_pictures;
mod sql_recovery;
mod sql_search;
mod sql_settings;
mod sql_table;
mod sql_trash;
mod sql_window;
mod sql_writer;
mod word_counts;

pub use sql::{Backend, SqlStore, UnknownBackend};
