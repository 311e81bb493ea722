//! What the app's integration tests share.

use app::game::text::{CharacterName, ClassName, LocationName};
use app::game::CharacterSheet;

/// Mira, a first-level Ranger, at `location`.
pub fn mira_at(location: &str) -> CharacterSheet {
    CharacterSheet::new(
        CharacterName::new("Mira").unwrap(),
        ClassName::new("Ranger").unwrap(),
        LocationName::new(location).unwrap(),
    )
}
