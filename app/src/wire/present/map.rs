//! The map panel made from the campaign's map: an SVG drawing, laid out here so the browser
//! only shows it, and the places for the travel buttons.
//!
//! The layout is breadth-first from the first place recorded: a place's column is how many
//! ways on it lies from there, its row its rank by recording within that column; places not
//! reachable from the first share one column after the rest. The same map always gives the
//! same drawing. Every name is escaped (it is the model's or the player's text).

use std::collections::{BTreeSet, VecDeque};

use crate::campaign::state::CampaignState;
use crate::game::map::Place;
use crate::game::text::LocationName;
use crate::wire::view::{MapPlaceView, MapView};

/// The width of a column, in the drawing's units.
const COLUMN: usize = 130;
/// The height of a row.
const ROW: usize = 64;
/// Above the first row.
const TOP: usize = 24;
/// A node's radius; the ring around where you are.
const NODE: usize = 8;
const RING: usize = 14;
/// Below a node: its name, then "you are here".
const NAME_BELOW: usize = 24;
const YOU_BELOW: usize = 38;
/// The most characters of a name drawn (the node's title holds it whole).
const LABEL_CHARS: usize = 16;

/// The map panel for `state`: its map, with the character's location marked.
pub fn campaign_map(state: &CampaignState) -> MapView {
    map_view(state.map.places(), state.sheet.location())
}

/// The map panel for `places` (in the order first recorded), with the place named `here`
/// (ignoring case) marked as where the character is. Empty when no place is recorded.
pub fn map_view(places: &[Place], here: &LocationName) -> MapView {
    if places.is_empty() {
        return MapView::default();
    }
    let at = places
        .iter()
        .position(|place| place.name.eq_ignore_case(here));
    let views: Vec<MapPlaceView> = places
        .iter()
        .enumerate()
        .map(|(index, place)| MapPlaceView {
            name: place.name.as_str().to_owned(),
            visited: place.visited,
            here: Some(index) == at,
        })
        .collect();
    let layout = Layout::of(places);
    MapView {
        svg: drawing(places, &layout, &views, &described(&views, here)),
        places: views,
    }
}

/// Where each place is drawn, and the ways between them.
#[derive(Debug, PartialEq, Eq)]
struct Layout {
    /// Each place's (column, row), by its index.
    cells: Vec<(usize, usize)>,
    /// How many columns and rows are used.
    columns: usize,
    rows: usize,
    /// Each way once, as (lower index, higher index).
    ways: BTreeSet<(usize, usize)>,
}

impl Layout {
    fn of(places: &[Place]) -> Self {
        let find = |name: &LocationName| places.iter().position(|p| p.name.eq_ignore_case(name));
        let exits: Vec<Vec<usize>> = places
            .iter()
            .map(|place| place.exits.iter().filter_map(find).collect())
            .collect();
        let mut distance: Vec<Option<usize>> = vec![None; places.len()];
        let mut queue = VecDeque::new();
        if !places.is_empty() {
            distance[0] = Some(0);
            queue.push_back(0);
        }
        while let Some(from) = queue.pop_front() {
            let next = distance[from].map_or(0, |d| d + 1);
            for &to in &exits[from] {
                if distance[to].is_none() {
                    distance[to] = Some(next);
                    queue.push_back(to);
                }
            }
        }
        let unreachable = distance.iter().flatten().max().map_or(0, |d| d + 1);
        let mut filled: Vec<usize> = Vec::new();
        let cells = distance
            .iter()
            .map(|d| {
                let column = d.unwrap_or(unreachable);
                if filled.len() <= column {
                    filled.resize(column + 1, 0);
                }
                filled[column] += 1;
                (column, filled[column] - 1)
            })
            .collect();
        let ways = exits
            .iter()
            .enumerate()
            .flat_map(|(from, tos)| tos.iter().map(move |&to| (from.min(to), from.max(to))))
            .filter(|(a, b)| a != b)
            .collect();
        Self {
            cells,
            columns: filled.len(),
            rows: filled.iter().copied().max().unwrap_or(0),
            ways,
        }
    }

    /// The centre of place `index`'s node.
    fn centre(&self, index: usize) -> (usize, usize) {
        let (column, row) = self.cells[index];
        (column * COLUMN + COLUMN / 2, TOP + row * ROW)
    }
}

/// The map in words, for the drawing's title and label: where you are, then every place.
fn described(places: &[MapPlaceView], location: &LocationName) -> String {
    let at = match places.iter().find(|place| place.here) {
        Some(place) => format!("you are at {}", place.name),
        None => format!("you are at {}, which is not on the map", location.as_str()),
    };
    let known: Vec<String> = places
        .iter()
        .map(|place| format!("{} ({})", place.name, visited_words(place.visited)))
        .collect();
    format!("Map: {at}. Known places: {}.", known.join(", "))
}

fn visited_words(visited: bool) -> &'static str {
    if visited {
        "visited"
    } else {
        "not yet visited"
    }
}

/// The `<svg>`: the ways first, then the places over them.
fn drawing(places: &[Place], layout: &Layout, views: &[MapPlaceView], label: &str) -> String {
    let width = layout.columns * COLUMN;
    let height = TOP + layout.rows * ROW;
    let label = escape(label);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map-drawing\" \
         viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" \
         role=\"img\" aria-label=\"{label}\"><title>{label}</title><g class=\"ways\">"
    );
    for &(from, to) in &layout.ways {
        svg.push_str(&way(layout, from, to));
    }
    svg.push_str("</g><g class=\"nodes\">");
    for (index, (place, view)) in places.iter().zip(views).enumerate() {
        svg.push_str(&node(layout.centre(index), place, view));
    }
    svg.push_str("</g></svg>");
    svg
}

/// A way between two places: a line, or a curve bowing right between two places of one column.
fn way(layout: &Layout, from: usize, to: usize) -> String {
    let (x1, y1) = layout.centre(from);
    let (x2, y2) = layout.centre(to);
    if x1 != x2 {
        return format!("<line class=\"way\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"/>");
    }
    let bow = (16 + y1.abs_diff(y2) / 4).min(COLUMN / 2 - NODE);
    let middle = (y1 + y2) / 2;
    format!(
        "<path class=\"way\" d=\"M {x1} {y1} Q {} {middle} {x2} {y2}\"/>",
        x1 + bow
    )
}

/// A place's node: its title, the dot (ringed where you are) and its name below.
fn node((x, y): (usize, usize), place: &Place, view: &MapPlaceView) -> String {
    let mut class = String::from("place");
    class.push_str(if view.visited {
        " visited"
    } else {
        " unvisited"
    });
    let mut state = visited_words(view.visited).to_owned();
    if view.here {
        class.push_str(" here");
        state = format!("you are here, {state}");
    }
    let exits: Vec<&str> = place.exits.iter().map(LocationName::as_str).collect();
    let leads = if exits.is_empty() {
        "Leads nowhere known.".to_owned()
    } else {
        format!("Leads to {}.", exits.join(", "))
    };
    let title = escape(&format!("{} ({state}). {leads}", view.name));
    let name = escape(&shortened(&view.name));
    let mut markup = format!("<g class=\"{class}\"><title>{title}</title>");
    if view.here {
        markup.push_str(&format!(
            "<circle class=\"ring\" cx=\"{x}\" cy=\"{y}\" r=\"{RING}\"/>"
        ));
    }
    markup.push_str(&format!(
        "<circle class=\"dot\" cx=\"{x}\" cy=\"{y}\" r=\"{NODE}\"/>\
         <text class=\"name\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{name}</text>",
        y + NAME_BELOW
    ));
    if view.here {
        markup.push_str(&format!(
            "<text class=\"you\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\">you are here</text>",
            y + YOU_BELOW
        ));
    }
    markup.push_str("</g>");
    markup
}

/// `name`, cut to [`LABEL_CHARS`] characters with an ellipsis when longer.
fn shortened(name: &str) -> String {
    if name.chars().count() <= LABEL_CHARS {
        return name.to_owned();
    }
    let cut: String = name.chars().take(LABEL_CHARS - 1).collect();
    let mut short = cut.trim_end().to_owned();
    short.push('…');
    short
}

/// `text` made safe inside XML text and quoted attributes.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::map::{PlaceRecord, WorldMap};

    fn name(text: &str) -> LocationName {
        LocationName::new(text).expect("a valid name")
    }

    /// `records` played in order: (place, where it leads).
    fn map(records: &[(&str, &[&str])]) -> WorldMap {
        let mut map = WorldMap::default();
        for (place, exits) in records {
            map.record(&PlaceRecord {
                place: name(place),
                connects_to: exits.iter().map(|exit| name(exit)).collect(),
            })
            .expect("recorded");
        }
        map
    }

    fn town() -> WorldMap {
        map(&[
            ("The square", &["The harbour", "The bell tower"]),
            ("The bell tower", &["The bell-ringer's room"]),
            ("The island", &[]),
        ])
    }

    #[test]
    fn columns_are_the_distance_from_the_first_place_and_rows_the_order_recorded() {
        let town = town();
        let layout = Layout::of(town.places());
        let names: Vec<&str> = town.places().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "The square",
                "The harbour",
                "The bell tower",
                "The bell-ringer's room",
                "The island"
            ]
        );
        // The island is not reachable: its own column, after the rest.
        assert_eq!(layout.cells, [(0, 0), (1, 0), (1, 1), (2, 0), (3, 0)]);
        assert_eq!((layout.columns, layout.rows), (4, 2));
        assert_eq!(
            layout.ways.iter().copied().collect::<Vec<_>>(),
            [(0, 1), (0, 2), (2, 3)],
            "each way once"
        );
    }

    #[test]
    fn the_drawing_is_sized_to_its_columns_and_rows_and_always_the_same() {
        let town = town();
        let view = map_view(town.places(), &name("The square"));
        assert!(view.svg.starts_with("<svg "), "{}", view.svg);
        assert!(view.svg.contains("viewBox=\"0 0 520 152\""), "{}", view.svg);
        assert_eq!(view.svg.matches("<line class=\"way\"").count(), 3);
        assert_eq!(view.svg.matches("<g class=\"place").count(), 5);
        assert_eq!(view, map_view(town.places(), &name("The square")));
    }

    #[test]
    fn a_way_within_one_column_bows_aside() {
        let places = map(&[("Cave", &[]), ("Lake", &["Woods"])]);
        let view = map_view(places.places(), &name("Cave"));
        assert_eq!(view.svg.matches("<path class=\"way\"").count(), 1);
        assert!(!view.svg.contains("<line"));
    }

    #[test]
    fn every_name_is_escaped() {
        assert_eq!(
            escape(r#"<a & "b" 'c'>"#),
            "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;"
        );
        let places = map(&[(r#"Tom's <Inn> & "Bar""#, &["</svg><script>"])]);
        let view = map_view(places.places(), &name("Nowhere"));
        assert!(view
            .svg
            .contains("Tom&apos;s &lt;Inn&gt; &amp; &quot;Bar&quot;"));
        assert!(!view.svg.contains("<Inn>"));
        assert!(!view.svg.contains("<script>"));
        assert_eq!(view.svg.matches("</svg>").count(), 1);
        assert_eq!(
            view.places[0].name, r#"Tom's <Inn> & "Bar""#,
            "the buttons get it as it is"
        );
    }

    #[test]
    fn where_you_are_is_marked_ignoring_case_and_unvisited_places_are_faded() {
        let town = town();
        let view = map_view(town.places(), &name("the BELL tower"));
        let here: Vec<&str> = view
            .places
            .iter()
            .filter(|p| p.here)
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(here, ["The bell tower"]);
        assert!(view.svg.contains("<g class=\"place visited here\"><title>The bell tower (you are here, visited). Leads to The square, The bell-ringer&apos;s room.</title><circle class=\"ring\""));
        assert_eq!(view.svg.matches(" here\"").count(), 1);
        assert_eq!(view.svg.matches("you are here</text>").count(), 1);
        assert!(view.svg.contains("<g class=\"place unvisited\"><title>The harbour (not yet visited). Leads to The square.</title>"));
        assert!(view
            .svg
            .contains("<title>The island (visited). Leads nowhere known.</title>"));
        assert_eq!(view.svg.matches("class=\"place unvisited\"").count(), 2);
    }

    #[test]
    fn the_label_says_in_words_where_you_are_and_what_is_known() {
        let places = map(&[("The square", &["The harbour"])]);
        let view = map_view(places.places(), &name("the square"));
        let label = "Map: you are at The square. Known places: The square (visited), \
                     The harbour (not yet visited).";
        assert!(
            view.svg.contains(&format!(
                "role=\"img\" aria-label=\"{label}\"><title>{label}</title>"
            )),
            "{}",
            view.svg
        );

        let elsewhere = map_view(places.places(), &name("The crypt"));
        assert!(elsewhere
            .svg
            .contains("<title>Map: you are at The crypt, which is not on the map. Known places:"));
        assert!(elsewhere.places.iter().all(|p| !p.here));
    }

    #[test]
    fn a_long_name_is_shortened_in_the_drawing_but_whole_in_its_title() {
        let long = "The long road to the far mountains";
        let places = map(&[(long, &[])]);
        let view = map_view(places.places(), &name(long));
        assert!(
            view.svg.contains(">The long road t…</text>"),
            "{}",
            view.svg
        );
        assert_eq!(shortened("The long road to"), "The long road to");
        assert_eq!(
            shortened("The long road  is here"),
            "The long road…",
            "no space before the cut"
        );
        assert!(view.svg.contains(&format!("<title>{long} (you are here")));
    }

    #[test]
    fn an_empty_map_draws_nothing() {
        let view = map_view(&[], &name("The square"));
        assert_eq!(view, MapView::default());
        assert!(view.svg.is_empty() && view.places.is_empty());
    }
}
