//! The app crate's integration tests, in one binary: the fuzz targets run as property tests
//! (`fuzz`), the projector seen from outside (`projector`) and the two-phase turn against the
//! scripted model (`turn`); what they share is in `support`.
// Tests may run longer than the 80 lines production functions are held to.
#![allow(clippy::too_many_lines)]
#![cfg(feature = "ssr")]

mod fuzz;
mod projector;
mod support;
mod turn;
