//! The server functions of the panels beside the story: items used, equipped and dropped, ability
//! scores improved, spells cast, class features used, rests and hit dice, the journal edited, the
//! ledger and the context inspector loaded.

pub mod cast_spell;
pub mod drop_item;
pub mod edit_journal;
pub mod equip_item;
pub mod gm_context;
pub mod improve_abilities;
pub mod load_ledger;
pub mod rest_hero;
pub mod spend_hit_die;
pub mod use_feature;
pub mod use_item;

pub use cast_spell::{cast_spell, CastSpell};
pub use drop_item::{drop_item, DropItem};
pub use edit_journal::{edit_journal, EditJournal};
pub use equip_item::{equip_item, EquipItem};
pub use gm_context::{gm_context, GmContext};
pub use improve_abilities::{improve_abilities, ImproveAbilities};
pub use load_ledger::{load_ledger, LoadLedger};
pub use rest_hero::{rest_hero, RestHero};
pub use spend_hit_die::{spend_hit_die, SpendHitDie};
pub use use_feature::{use_feature, UseFeature};
pub use use_item::{use_item, UseItem};
