//! The English-text heuristics over what the model wrote and the player typed: plain rules over
//! words, no model.
//!
//! - `lexicon.rs`: the one lexicon: every word list these heuristics (and the turn's, and
//!   recall's) read with
//! - `ledger_check.rs` and `ledger_check/`: the scene's claims held against what the rules did
//! - `scene.rs`: the last scene, the things a scene names and what an action may not echo
//! - `metrics.rs`: what makes output playable, measured: scored by the benches only
//! - `voice.rs`: a very small model's voice kept by the rules
//! - `names.rs`: proper names in prose
//! - `noticed.rs`: the journal the rules keep for a model shown no tools
//! - `lines.rs`: the table's agreement kept: its lines and veils told, a scene that crosses a
//!   line held back

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
