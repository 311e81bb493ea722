//! The edge from the campaign to the browser (server only): the campaign's state, story and
//! log made into what the screens show. Nothing here decides anything; each function reads the
//! domain and fills a view of [`super::view`].
//!
//! - [`update`]: what the projector says changed, as a turn's streamed updates;
//! - [`sheet`] and [`powers`]: the character panel; [`fight`]: the encounter tracker;
//! - [`actions`]: the action buttons with the rules' badges and chances, and the proposals;
//! - [`map`]: the map panel, drawn here as SVG (the browser never lays it out);
//! - [`spine`]: the story so far and the director; [`table`]: the table of friends;
//! - [`ledger`]: every change and roll of the log with its cause, a page at a time.

pub mod actions;
pub mod fight;
pub mod ledger;
pub mod map;
pub mod powers;
pub mod sheet;
pub mod spine;
pub mod table;
pub mod update;
