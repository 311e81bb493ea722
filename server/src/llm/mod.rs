//! The model behind the game master, every adapter in one room: the OpenAI-compatible adapter
//! and its retries, tools over plain text for models without tool calling (`text_tools`), a
//! bound on the calls at once, the bundled local model, the search for a model server already
//! running here, recorded exchanges (cassettes), and the choice among them; the game master
//! made from it (`master`), and the settings page's side of it: the endpoint the environment
//! fixes or the page saved (`endpoint_settings`), listed, tested and switched to (`office`).

pub mod bundled;
pub mod cassette;
pub mod discover;
pub mod endpoint_settings;
pub mod limited;
pub mod master;
pub mod office;
pub mod openai;
pub mod provider;
pub mod resilient;
pub mod text_tools;
