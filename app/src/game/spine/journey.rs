//! The spine's side of the map: a journey to a known place takes the time the rules give it
//! (an hour for each way on between here and there), and a plan the rules built for a model
//! without tools puts the places
//! its chapters ask for on the map, known but not yet visited, leading from where the hero
//! stands.

use std::collections::VecDeque;

use super::plan::ChapterMark;
use super::{SpineEvent, MAX_TRAVEL_HOURS};
use crate::game::map::{MapError, PlaceRecord, WorldMap};
use crate::game::text::LocationName;

/// The cause of the rules' change of the sheet on a journey (the hero moves, time passes).
pub const TRAVELLED: &str = "Travel";

/// The hours a journey between two places unconnected on the map takes.
const THE_LONG_WAY: u32 = 4;

/// What `event` does to the map, given where the hero stands: whether the map gained a place or
/// a first visit. A refused record leaves the map as it was.
pub fn map_side(
    event: &SpineEvent,
    map: &mut WorldMap,
    here: &LocationName,
) -> Result<bool, MapError> {
    let record = match event {
        SpineEvent::Travelled { to, .. } => PlaceRecord {
            place: to.clone(),
            connects_to: Vec::new(),
        },
        SpineEvent::Planned {
            plan,
            on_the_map: true,
            ..
        } => PlaceRecord {
            place: here.clone(),
            connects_to: plan
                .chapters()
                .iter()
                .filter_map(|chapter| match &chapter.mark {
                    ChapterMark::Reach { place } if !place.eq_ignore_case(here) => {
                        Some(place.clone())
                    }
                    _ => None,
                })
                .collect(),
        },
        _ => return Ok(false),
    };
    let before = (map.places().len(), visited(map));
    map.record(&record)?;
    Ok((map.places().len(), visited(map)) != before)
}

fn visited(map: &WorldMap) -> usize {
    map.places().iter().filter(|p| p.visited).count()
}

/// The known place `words` asks to travel to (`Travel to the mill`, `go to The mill`), if it
/// is on the map and not where the hero stands.
pub fn journey_to(words: &str, map: &WorldMap, here: &LocationName) -> Option<LocationName> {
    let lower = words.trim().trim_end_matches(['.', '!']).to_lowercase();
    let rest = ["travel to ", "go to ", "head to ", "walk to "]
        .iter()
        .find_map(|verb| lower.strip_prefix(verb))?;
    let rest = rest.trim();
    map.places()
        .iter()
        .find(|place| {
            let name = place.name.as_str().to_lowercase();
            name == rest
                || super::attitude::without_article(&name) == super::attitude::without_article(rest)
        })
        .map(|place| place.name.clone())
        .filter(|place| !place.eq_ignore_case(here))
}

/// The hours a journey from `here` to `to` takes: an hour for each way on between them (the
/// fewest), or four the long way when the map does not connect them.
pub fn travel_hours(map: &WorldMap, here: &LocationName, to: &LocationName) -> u32 {
    let places = map.places();
    let index = |name: &LocationName| places.iter().position(|p| p.name.eq_ignore_case(name));
    let (Some(start), Some(goal)) = (index(here), index(to)) else {
        return THE_LONG_WAY;
    };
    let mut hops = vec![None; places.len()];
    hops[start] = Some(0_u32);
    let mut queue = VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        let next_hops = hops[at].map(|h| h + 1);
        for exit in &places[at].exits {
            if let Some(next) = index(exit).filter(|n| hops[*n].is_none()) {
                hops[next] = next_hops;
                queue.push_back(next);
            }
        }
    }
    hops[goal]
        .unwrap_or(THE_LONG_WAY)
        .clamp(1, MAX_TRAVEL_HOURS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> LocationName {
        LocationName::new(text).unwrap()
    }

    fn map() -> WorldMap {
        let mut map = WorldMap::default();
        for (place, exits) in [
            ("The square", &["The bridge"][..]),
            ("The bridge", &["The mill"][..]),
            ("The island", &[][..]),
        ] {
            map.record(&PlaceRecord {
                place: name(place),
                connects_to: exits.iter().map(|e| name(e)).collect(),
            })
            .unwrap();
        }
        map
    }

    #[test]
    fn a_journey_goes_to_a_known_place_and_takes_an_hour_a_way_on() {
        let map = map();
        let here = name("The square");
        assert_eq!(
            journey_to("Travel to the mill.", &map, &here),
            Some(name("The mill"))
        );
        assert_eq!(
            journey_to("go to mill", &map, &here),
            Some(name("The mill"))
        );
        assert_eq!(journey_to("Travel to the moon", &map, &here), None);
        assert_eq!(journey_to("Travel to the square", &map, &here), None);
        assert_eq!(travel_hours(&map, &here, &name("The mill")), 2);
        assert_eq!(travel_hours(&map, &here, &name("The island")), THE_LONG_WAY);
    }

    #[test]
    fn a_journey_marks_its_place_visited_and_says_whether_that_is_new_ground() {
        let mut map = map();
        let here = name("The square");
        let journey = SpineEvent::Travelled {
            to: name("The mill"),
            hours: 2,
        };
        assert_eq!(map_side(&journey, &mut map, &here), Ok(true));
        assert_eq!(map_side(&journey, &mut map, &here), Ok(false));
    }
}
