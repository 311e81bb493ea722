//! Where you are (a small map): the places the game master has recorded and how they
//! connect. A place is recorded with the places it leads to; a connection goes both ways, and a
//! place named only as a way on is known but not yet visited. Names match ignoring case.

use serde::{Deserialize, Serialize};

use super::text::LocationName;

/// The most places a map keeps.
pub const MAX_PLACES: usize = 60;

/// The most ways on from one place.
pub const MAX_EXITS: usize = 8;

/// One place on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Its name.
    pub name: LocationName,
    /// Whether the character has been there (else it is only known as a way on).
    pub visited: bool,
    /// The places it leads to, in the order recorded.
    pub exits: Vec<LocationName>,
}

/// A place reached, and where it leads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceRecord {
    /// The place.
    pub place: LocationName,
    /// The places it leads to.
    pub connects_to: Vec<LocationName>,
}

/// Why a record was refused; the message is for the model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The map is full.
    #[error("the map already has {MAX_PLACES} places")]
    Full,
    /// A place would have too many ways on.
    #[error("\"{0}\" would lead to more than {MAX_EXITS} places")]
    TooManyExits(String),
    /// A place that leads to itself.
    #[error("\"{0}\" cannot lead to itself")]
    Loop(String),
}

/// The map: places in the order first recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WorldMap {
    places: Vec<Place>,
}

impl WorldMap {
    /// Every place, in the order first recorded.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// Records `record`: the place visited, each connection both ways. All or nothing.
    pub fn record(&mut self, record: &PlaceRecord) -> Result<(), MapError> {
        let mut next = self.clone();
        let here = next.find_or_add(&record.place)?;
        next.places[here].visited = true;
        for exit in &record.connects_to {
            if exit.eq_ignore_case(&record.place) {
                return Err(MapError::Loop(exit.as_str().to_owned()));
            }
            let there = next.find_or_add(exit)?;
            next.connect(here, there)?;
            next.connect(there, here)?;
        }
        *self = next;
        Ok(())
    }

    fn find_or_add(&mut self, name: &LocationName) -> Result<usize, MapError> {
        if let Some(index) = self.places.iter().position(|p| p.name.eq_ignore_case(name)) {
            return Ok(index);
        }
        if self.places.len() >= MAX_PLACES {
            return Err(MapError::Full);
        }
        self.places.push(Place {
            name: name.clone(),
            visited: false,
            exits: Vec::new(),
        });
        Ok(self.places.len() - 1)
    }

    fn connect(&mut self, from: usize, to: usize) -> Result<(), MapError> {
        let name = self.places[to].name.clone();
        let place = &mut self.places[from];
        if place.exits.iter().any(|exit| exit.eq_ignore_case(&name)) {
            return Ok(());
        }
        if place.exits.len() >= MAX_EXITS {
            return Err(MapError::TooManyExits(place.name.as_str().to_owned()));
        }
        place.exits.push(name);
        Ok(())
    }

    /// The map for the model, one place a line: `The square (visited): leads to The bell
    /// tower, The harbour`. Empty when nothing is recorded.
    pub fn describe(&self) -> String {
        self.places
            .iter()
            .map(|place| {
                let exits: Vec<&str> = place.exits.iter().map(LocationName::as_str).collect();
                format!(
                    "{}{}: leads to {}",
                    place.name.as_str(),
                    if place.visited { " (visited)" } else { "" },
                    if exits.is_empty() {
                        "nowhere known".to_owned()
                    } else {
                        exits.join(", ")
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> LocationName {
        LocationName::new(text).unwrap()
    }

    fn record(place: &str, exits: &[&str]) -> PlaceRecord {
        PlaceRecord {
            place: name(place),
            connects_to: exits.iter().map(|exit| name(exit)).collect(),
        }
    }

    #[test]
    fn connections_go_both_ways_and_names_match_ignoring_case() {
        let mut map = WorldMap::default();
        map.record(&record("The square", &["The bell tower", "The harbour"]))
            .unwrap();
        map.record(&record("the bell tower", &["The square", "The crypt"]))
            .unwrap();
        let names: Vec<(&str, bool, usize)> = map
            .places()
            .iter()
            .map(|p| (p.name.as_str(), p.visited, p.exits.len()))
            .collect();
        assert_eq!(
            names,
            [
                ("The square", true, 2),
                ("The bell tower", true, 2),
                ("The harbour", false, 1),
                ("The crypt", false, 1)
            ]
        );
        assert_eq!(
            map.describe().lines().next(),
            Some("The square (visited): leads to The bell tower, The harbour")
        );
    }

    #[test]
    fn a_refused_record_changes_nothing() {
        let mut map = WorldMap::default();
        assert_eq!(
            map.record(&record("Hall", &["Hall"])),
            Err(MapError::Loop("Hall".into()))
        );
        assert!(map.places().is_empty());
        let exits: Vec<String> = (0..=MAX_EXITS).map(|i| format!("Door {i}")).collect();
        let many: Vec<&str> = exits.iter().map(String::as_str).collect();
        assert_eq!(
            map.record(&record("Hall", &many)),
            Err(MapError::TooManyExits("Hall".into()))
        );
        assert!(map.places().is_empty());
        for i in 0..MAX_PLACES {
            map.record(&record(&format!("Room {i}"), &[])).unwrap();
        }
        assert_eq!(map.record(&record("One more", &[])), Err(MapError::Full));
        assert_eq!(map.places().len(), MAX_PLACES);
    }
}
