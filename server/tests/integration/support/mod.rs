//! What the tests share: the test databases of each backend (and the macro that runs a test on
//! both), fake streamed replies of an OpenAI-compatible provider, a server that never answers,
//! a game over a fresh SQLite file and a scripted model, log lines caught in memory, the
//! recorded campaign of the cassette, and the heavy campaign files.

#[macro_use]
pub mod databases;
pub mod guard;
pub mod heavy_files;
pub mod logs;
pub mod recorded_game;
pub mod silent;
pub mod sse;
pub mod table;
pub mod test_app;
