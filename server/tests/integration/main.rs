//! The server's integration tests, in one binary (each module one concern; linking the whole
//! server once, not once per file): against the game service over a real database and scripted
//! models, the running server over HTTP, fake providers on loopback (wiremock), and the real
//! bundled model. `support` holds what they share.
// Tests may run longer than the 80 lines production functions are held to.
#![allow(clippy::too_many_lines)]

#[macro_use]
mod support;

mod adversary;
mod agreement;
mod approval;
mod bounded_work;
mod card;
mod cassette;
mod crash;
mod discover;
mod failure;
mod fight;
mod friends;
mod game;
mod history;
mod horror;
mod http;
mod instances;
mod kept_rolls;
mod ledger_check;
mod levels;
mod live;
mod live_instances;
mod local_model;
mod memory;
mod one_turn;
mod openai_adapter;
mod panel;
mod pictures;
mod playtest;
mod portable;
mod powers;
mod provider;
mod readme_config;
mod readme_map;
mod recall;
mod recovery;
mod resilient;
mod rules_numbers;
mod security;
mod settings;
mod snapshot;
mod spell_share;
mod spend;
mod statuses;
mod store;
mod story_spine;
mod storybook;
