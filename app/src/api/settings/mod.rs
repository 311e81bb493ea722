//! The settings page's server functions (the operator's): the game master in use, the model
//! settings read, tested and saved, an endpoint's models listed; the image model's settings read
//! and saved.

pub mod endpoint_models;
pub mod game_master;
pub mod model_settings;
pub mod picture_settings;
pub mod save_model_settings;
pub mod save_picture_settings;
pub mod test_connection;

pub use endpoint_models::{endpoint_models, EndpointModels};
pub use game_master::{game_master, GameMaster};
pub use model_settings::{model_settings, ModelSettings};
pub use picture_settings::{picture_settings, PictureSettings};
pub use save_model_settings::{save_model_settings, SaveModelSettings};
pub use save_picture_settings::{save_picture_settings, SavePictureSettings};
pub use test_connection::{test_connection, TestConnection};
