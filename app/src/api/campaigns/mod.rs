//! The home page's server functions: a player's campaigns listed, started, opened, renamed,
//! branched, started over, exported and imported, deleted to the trash and restored, and a
//! character card read.

pub mod branch_campaign;
pub mod delete_campaign;
pub mod delete_forever;
pub mod export_campaign;
pub mod import_campaign;
pub mod list_campaigns;
pub mod list_trash;
pub mod load_campaign;
pub mod read_card;
pub mod rename_campaign;
pub mod restart_campaign;
pub mod restore_campaign;
pub mod start_campaign;

pub use branch_campaign::{branch_campaign, BranchCampaign};
pub use delete_campaign::{delete_campaign, DeleteCampaign};
pub use delete_forever::{delete_forever, DeleteForever};
pub use export_campaign::{export_campaign, ExportCampaign};
pub use import_campaign::{import_campaign, ImportCampaign};
pub use list_campaigns::{list_campaigns, ListCampaigns};
pub use list_trash::{list_trash, ListTrash};
pub use load_campaign::{load_campaign, LoadCampaign};
pub use read_card::{read_card, ReadCard};
pub use rename_campaign::{rename_campaign, RenameCampaign};
pub use restart_campaign::{restart_campaign, RestartCampaign};
pub use restore_campaign::{restore_campaign, RestoreCampaign};
pub use start_campaign::{start_campaign, StartCampaign};
