//! Server functions: one per file, each thin (identify the player, call the game, return).
// The `#[server]` macro makes a struct of each function's arguments; its fields are the
// documented function's parameters, and Rust has no doc comments for parameters.
#![allow(missing_docs)]

pub mod ask_the_gm;
pub mod branch_campaign;
#[cfg(feature = "ssr")]
pub mod context;
pub mod decide_proposals;
pub mod delete_campaign;
pub mod delete_forever;
pub mod drop_item;
pub mod earlier_story;
pub mod edit_journal;
pub mod endpoint_models;
pub mod equip_item;
pub mod export_campaign;
pub mod game_master;
pub mod gm_context;
pub mod import_campaign;
pub mod improve_abilities;
pub mod list_campaigns;
pub mod list_trash;
pub mod load_campaign;
pub mod load_ledger;
pub mod model_settings;
pub mod new_actions;
pub mod next_actions;
pub mod play_turn;
pub mod redo_turn;
pub mod rename_campaign;
pub mod restart_campaign;
pub mod restore_campaign;
pub mod retell_turn;
pub mod save_model_settings;
pub mod search_story;
pub mod set_agreement;
pub mod set_approval;
pub mod start_campaign;
pub mod test_connection;
pub mod undo_turn;
pub mod use_item;

pub mod has_recovery_code;
pub mod new_recovery_code;
pub mod redeem_recovery_code;
pub mod revoke_recovery_code;

pub use ask_the_gm::{ask_the_gm, AskTheGm};
pub use branch_campaign::{branch_campaign, BranchCampaign};
pub use decide_proposals::{decide_proposals, DecideProposals};
pub use delete_campaign::{delete_campaign, DeleteCampaign};
pub use delete_forever::{delete_forever, DeleteForever};
pub use drop_item::{drop_item, DropItem};
pub use earlier_story::{earlier_story, EarlierStory};
pub use edit_journal::{edit_journal, EditJournal};
pub use endpoint_models::{endpoint_models, EndpointModels};
pub use equip_item::{equip_item, EquipItem};
pub use export_campaign::{export_campaign, ExportCampaign};
pub use game_master::{game_master, GameMaster};
pub use gm_context::{gm_context, GmContext};
pub use has_recovery_code::{has_recovery_code, HasRecoveryCode};
pub use import_campaign::{import_campaign, ImportCampaign};
pub use improve_abilities::{improve_abilities, ImproveAbilities};
pub use list_campaigns::{list_campaigns, ListCampaigns};
pub use list_trash::{list_trash, ListTrash};
pub use load_campaign::{load_campaign, LoadCampaign};
pub use load_ledger::{load_ledger, LoadLedger};
pub use model_settings::{model_settings, ModelSettings};
pub use new_actions::{new_actions, NewActions};
pub use new_recovery_code::{new_recovery_code, NewRecoveryCode};
pub use next_actions::{next_actions, NextActions};
pub use play_turn::{play_turn, PlayTurn};
pub use redeem_recovery_code::{redeem_recovery_code, RedeemRecoveryCode};
pub use redo_turn::{redo_turn, RedoTurn};
pub use rename_campaign::{rename_campaign, RenameCampaign};
pub use restart_campaign::{restart_campaign, RestartCampaign};
pub use restore_campaign::{restore_campaign, RestoreCampaign};
pub use retell_turn::{retell_turn, RetellTurn};
pub use revoke_recovery_code::{revoke_recovery_code, RevokeRecoveryCode};
pub use save_model_settings::{save_model_settings, SaveModelSettings};
pub use search_story::{search_story, SearchStory};
pub use set_agreement::{set_agreement, SetAgreement};
pub use set_approval::{set_approval, SetApproval};
pub use start_campaign::{start_campaign, StartCampaign};
pub use test_connection::{test_connection, TestConnection};
pub use undo_turn::{undo_turn, UndoTurn};
pub use use_item::{use_item, UseItem};
