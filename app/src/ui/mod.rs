//! Pages and components, by feature: the home page and its panels, the new-adventure form, the
//! settings page and the play screen.
//!
//! - [`app`]: the HTML shell the server renders, and the root component with its routes;
//! - [`home`]: the home page: a new adventure (its opening streamed as it is written) and the
//!   saved campaigns;
//! - [`creation`]: the character on the new-adventure form, its skills ticked from the class's
//!   list;
//! - [`card`]: a character card or lorebook brought to the new-adventure form;
//! - [`agreement`]: the style, lines and veils as a player writes them, at creation and in play
//!   (`play/agreement.rs`);
//! - [`campaign_item`]: a saved campaign on the home page, renamed in place, deleted to the trash
//!   when asked twice;
//! - [`files`]: a campaign exported as a file, or a file imported;
//! - `file_size.rs`: a file's size in mebibytes, worked out without floats;
//! - [`trash`]: the deleted campaigns, restored or deleted for good;
//! - [`recovery`]: the home page's recovery code, made, revoked or redeemed;
//! - [`spend`]: a story's tokens and cost as the home page and the inspector write them;
//! - [`game_master`]: which model is the game master, and advice about it;
//! - [`settings`]: the settings page (`/settings`): the game master's endpoint, the model picked
//!   from its list, the key, tools and context size, tested and saved; `picture_settings.rs` the
//!   image model that draws the story's pictures;
//! - `join.rs`: the page an invitation link opens (`/join/CODE`): a friend's hero, a seat taken;
//! - [`ask_twice`]: a button whose first click only asks, for what cannot be taken back lightly;
//! - [`lazy_panel`]: a side panel whose body the browser fetches the first time it opens;
//! - `lazy_page.rs`: a page rendered in the browser once its code has arrived (settings, join);
//! - `lazy_when.rs`: a part only some visits need, its code fetched the first time it is needed
//!   (approval mode's waiting changes, the encounter tracker, the read-aloud speaker);
//! - [`resource`]: resources decoded with the server functions' JSON reader (one decoder path);
//! - [`updates`]: a streamed answer of the server read as it comes (a turn, a campaign started);
//! - [`play`]: the play screen; its own doc lists its parts.

pub mod agreement;
pub mod app;
mod ask_twice;
pub(crate) mod campaign_item;
mod card;
pub mod creation;
mod file_size;
pub mod files;
pub mod game_master;
pub mod home;
mod join;
mod lazy_page;
mod lazy_panel;
mod lazy_when;
mod picture_settings;
pub mod play;
mod recovery;
pub mod resource;
pub mod settings;
pub mod spend;
mod trash;
pub mod updates;
