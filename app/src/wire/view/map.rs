//! The map panel's view: the drawing, made on the server, and the places for the travel
//! buttons. The browser never lays the map out; it shows the drawing as it comes.

use serde::{Deserialize, Serialize};

/// The map as the play screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapView {
    /// The drawing: one `<svg>` element, every name in it escaped (empty when no place is
    /// recorded).
    #[serde(default)]
    pub svg: String,
    /// Every place, in the order first recorded.
    #[serde(default)]
    pub places: Vec<MapPlaceView>,
}

/// One place on the map, for its travel button.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapPlaceView {
    /// Its name, as recorded.
    pub name: String,
    /// Whether the character has been there.
    pub visited: bool,
    /// Whether the character is there now.
    pub here: bool,
}
