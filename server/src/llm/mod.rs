//! The model behind the game master, every adapter in one room: the OpenAI-compatible adapter
//! and its retries, tools over plain text for models without tool calling (`text_tools`), a
//! bound on the calls at once, the bundled local model, the search for a model server already
//! running here, recorded exchanges (cassettes), and the choice among them.

pub mod bundled;
pub mod cassette;
pub mod discover;
pub mod limited;
pub mod openai;
pub mod provider;
pub mod resilient;
pub mod text_tools;
