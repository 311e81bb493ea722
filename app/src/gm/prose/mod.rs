//! The English-text heuristics over what the model wrote and the player typed: plain rules over
//! words, no model.
//!
//! - `lexicon.rs`: the one lexicon: every word list these heuristics (and the turn's, and
//!   recall's) read with
//! - `ledger_check.rs` and `ledger_check/`: the scene's claims held against what the rules did:
//!   damage, healing, items, foes down, conditions, XP and verdicts against the turn's events; a
//!   model with tools is asked once to correct a contradiction, and one that stays becomes a note
//!   to the player, never a change
//! - `scene.rs`: the last scene, the things a scene names and what an action may not echo
//! - `metrics.rs`: what makes output playable, measured: scored by the benches only
//! - `voice.rs`: a very small model's voice kept by the rules
//! - `names.rs`: proper names in prose
//! - `noticed.rs`: the journal the rules keep for a model shown no tools
//! - `lines.rs`: the table's agreement kept: the style, lines and veils told in the stable part
//!   of the prompt; a scene that crosses a line held back sentence by sentence as it streams,
//!   told again once, and cut if it still crosses

pub mod ledger_check;
// Its word lists are laid out by hand, many words a line.
#[rustfmt::skip]
pub mod lexicon;
pub mod lines;
pub mod metrics;
pub mod names;
pub mod noticed;
pub mod scene;
pub mod voice;
