//! The model behind the game master, every adapter in one room: the OpenAI-compatible adapter
//! and its retries, tools over plain text for models without tool calling (`text_tools`), a
//! bound on the calls at once, the bundled local model, the search for a model server already
//! running here, recorded exchanges (cassettes), and the choice among them (`choice`, started by
//! `provider`); the game master made from it within the operator's bounds (`bounds`, `master`),
//! and the settings page's side of it: the endpoint the environment fixes or the page saved
//! (`endpoint_settings`), listed, tested and switched to (`office`); the image model that draws
//! the story's pictures (`images`) and its settings (`picture_office`).
//!
//! Nothing here imports the server's configuration: `config` reads the environment into these
//! types (the `from_lookup` readers here take the variables it looked up) and hands them in.

pub mod bounds;
pub mod bundled;
pub mod cassette;
pub mod choice;
pub mod discover;
pub mod endpoint_settings;
pub mod images;
pub mod limited;
pub mod master;
pub mod office;
pub mod openai;
pub mod picture_office;
pub mod provider;
pub mod resilient;
#[cfg(test)]
pub(crate) mod test_env;
pub mod text_tools;
