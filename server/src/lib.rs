//! Dicebound's server, the axum binary (`main.rs` starts it): configuration, startup, telemetry,
//! the model behind the game master, the campaign store, the security layers and the routes that
//! serve the game. (The playtest's players and scores are a crate of their own, `playtest`, which
//! the server's bench and tests use.)
//!
//! - [`config`]: read once from the environment: the model's settings (`model.rs`), what the
//!   server spends and charges (`spend.rs`), the errors (`error.rs`).
//! - [`startup`]: the application built: the database opened, the model picked, the routes
//!   assembled with the security layers.
//! - [`telemetry`]: logging, request spans and process signals.
//! - [`llm`]: the model, every adapter in one place:
//!   - `openai/`: the OpenAI-compatible adapter: settings, wire types, the streamed events, the
//!     reply's assembly, errors, and the endpoint's model list (`models.rs`);
//!   - `resilient.rs`: retries; `limited.rs`: the bound on model calls at once;
//!   - `text_tools.rs`: tools over plain text, for models without tool calling;
//!   - `bundled.rs`: the bundled `llama-server`; `discover.rs`: the search for an Ollama or
//!     llama.cpp server already running; `cassette.rs`: recorded exchanges;
//!   - `choice.rs`: the choice among them, started by `provider.rs`;
//!   - `bounds.rs`: the operator's bounds (the prompt's limits, the spending) within which
//!     `master.rs` makes the game master;
//!   - `endpoint_settings.rs`: the settings page's side: what the environment fixes, what the page
//!     saved, a form read into an endpoint; `office.rs`: the endpoint's model list, a test call,
//!     saving and switching without a restart;
//!   - `images.rs`: the image model, an OpenAI-compatible images endpoint, within its bounds;
//!     `picture_office.rs`: its settings saved from the settings page and swapped in.
//! - [`store`]: SQLite or PostgreSQL by the URL, the same statements on both; the log, the
//!   snapshot and the story tables, leases and pending rolls, the server's own settings; their
//!   migrations in `migrations/sqlite` and `migrations/postgres`.
//!   - `sql.rs` opens it; `sql_campaigns.rs`, `sql_leases.rs` and `sql_settings.rs` serve its
//!     ports;
//!   - `recent.rs`: the campaigns played lately, kept in memory on a SQLite file only this process
//!     writes, updated by each commit, forgotten by any other write;
//!   - `sql_search.rs`: the story's full-text index, the only statements that differ between the
//!     two databases;
//!   - `sql_recovery.rs`: recovery codes' digests, a code redeemed in one transaction;
//!   - `sql_trash.rs`: the trash; a deleted campaign's owner is written `trash:<player>`, so that
//!     nothing scoped by the player finds it.
//! - [`security`]: the player cookie (`identity.rs`) and its key (`keys.rs`), the client's address
//!   (`client.rs`: the forwarded one only from a trusted proxy), and the host (`host.rs`),
//!   cross-site (`origin.rs`) and body-size (`body.rs`) guards; the headers of every answer
//!   (`headers.rs`).
//! - [`live`]: the campaign's event stream for a second screen: `GET /api/live/{id}`,
//!   `text/event-stream`, the owner's only, `Last-Event-ID` honoured.
//! - [`pictures`]: a campaign's pictures, `GET /api/pictures/{campaign}/{id}`, to its table only,
//!   cached for a year (a picture's id is its digest).
//! - [`live_relay`]: on PostgreSQL, the live updates shared by every instance: written to a
//!   table, announced by `NOTIFY`, delivered by each instance's `LISTEN`er to its followers.
//! - [`storybook`]: a campaign as one HTML page to download, `GET /api/storybook/{id}`, for
//!   its table only.
//! - [`serve`]: the connection loop, with limits on the request headers.
//! - [`error_status`]: each kind of a server function's error sent with its HTTP status: not found
//!   404, invalid 422, stale or busy 409, limited 429 with `Retry-After`, the model failing 502 or
//!   too slow 504, storage 503, not allowed 403, a malformed request 400.
//! - [`memory`]: the memory a burst of requests freed, given back to the system after a quiet
//!   second.
//!
//! Benches (`benches/`, run by `make bench`; they print numbers and never fail):
//!
//! - `turn_cost.rs`: a turn's server time, rows read and bytes sent, at 10 and at 1,000 turns, on
//!   SQLite and on PostgreSQL;
//! - `prompt_size.rs`: what the model is sent over 300 turns;
//! - `cheap_requests.rs`: cheap requests that cost the server dearly: a long word's tokens, a
//!   ledger's answer;
//! - `recall.rs`: the rules' recall on a 1,000-turn campaign: latency per move, the index's size;
//! - `footprint.rs`: the release process over HTTP (cold start, memory, a turn); crowds of 10, 100
//!   and 1,000 games on SQLite, and on PostgreSQL with one and two instances;
//! - `gm_quality.rs`: the bundled model's game, scored;
//! - `playtest.rs` (`make playtest`): the `playtest` crate's personas against the model the
//!   settings choose.
//!
//! `examples/record_cassette.rs` records `tests/fixtures/bundled.cassette.json` against the
//! bundled model.
//!
//! The integration tests are one binary, `tests/integration/`: a module per concern, which
//! `main.rs` lists. `support/` holds what they share: the test databases of each backend, the
//! whole server on a random port, a game table with a seated player, a fake provider's streams,
//! the recorded campaign, heavy campaign files. `tests/fixtures/` holds the cassette and the
//! playtest's scripted models.
// Tests may run longer than the 80 lines production functions are held to.
#![cfg_attr(test, allow(clippy::too_many_lines))]
#![recursion_limit = "512"]
// A panic outside tests is a choice made with `expect` and its reason.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// Every binary linking the server (the server, its benches and tests) allocates with mimalloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod config;
pub mod error_status;
pub mod live;
pub mod live_relay;
pub mod llm;
pub mod memory;
pub mod pictures;
pub mod security;
pub mod serve;
pub mod startup;
pub mod store;
pub mod storybook;
pub mod telemetry;
