//! Spells as typed data: the spell book shipped with the game and the figures a casting has.
//!
//! [`SpellBook::srd`] holds the spells of `spells.json` (cantrips to 3rd level for the Bard,
//! Cleric, Ranger and Wizard lists; figures from the System Reference Document 5.1, CC-BY-4.0,
//! every summary in our own words), parsed once into [`Spell`]s; a test proves every entry
//! valid. A spell is found by its name however it is written ([`SpellBook::get`]) or in free
//! text ([`SpellBook::named_in`]).
//!
//! [`Spell::figures`] tells what one casting rolls: the dice of each strike (or of the healing,
//! or of the pool), how many strikes and how many targets, grown by the slot spent or, for a
//! cantrip, by the caster's level.

mod book;
mod scaling;
pub mod spell;

pub use book::{SpellBook, SpellBookError, SpellProblem, UnknownSpell};
pub use scaling::{CastFigures, SlotTooLow};
pub use spell::*;
