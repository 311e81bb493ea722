//! The journal the rules keep for a model shown no tools: after each scene they note the place
//! the character went to and the proper names that recur — named in the scene or the player's
//! move and before (the premise, the summary, the turns the model still sees) — as entries
//! marked "noted by the rules": at most two a turn, never over an entry of the same name.

use super::names::{proper_names, Name};
use crate::campaign::bounds::cut;
use crate::campaign::conversation::Message;
use crate::campaign::passage::words;
use crate::campaign::state::CampaignState;
use crate::game::text::{JournalName, JournalNote};
use crate::game::{CharacterSheet, JournalChange, JournalKind};

/// The most entries the rules note in one turn.
pub const MAX_NOTICED_PER_TURN: usize = 2;

/// What one turn gives the rules to notice.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The turn.
    pub turn: u32,
    /// The scene as narrated.
    pub text: &'a str,
    /// The player's words this turn, if the move had any.
    pub player_move: Option<&'a str>,
    /// The character after the turn.
    pub sheet: &'a CharacterSheet,
}

/// The journal entries the rules note after `scene`, from `state` before it: the place the
/// character went to, the names the scene shares with what came before or with the move, then
/// the names the move shares with what came before.
pub fn noticed(state: &CampaignState, scene: Scene<'_>) -> Vec<JournalChange> {
    let earlier = earlier_names(state);
    let said = scene.player_move.map(proper_names).unwrap_or_default();
    let hero: Vec<String> = words(scene.sheet.name().as_str()).collect();
    let mut found: Vec<(Name, String)> = Vec::new();
    if scene.sheet.location() != state.sheet.location() {
        let place = scene.sheet.location().as_str().to_owned();
        let where_ =
            sentence_naming(scene.text, &place).unwrap_or_else(|| format!("You went to {place}."));
        let name = Name {
            text: place,
            place: true,
        };
        found.push((name, where_));
    }
    let in_scene = proper_names(scene.text).into_iter().filter_map(|name| {
        let before = earlier
            .iter()
            .chain(&said)
            .find(|known| known.text == name.text)?;
        let sentence = sentence_naming(scene.text, &name.text)?;
        Some((name.merged(before), sentence))
    });
    let in_move = said.iter().filter_map(|name| {
        let before = earlier.iter().find(|known| known.text == name.text)?;
        let sentence = sentence_naming(scene.player_move?, &name.text)?;
        Some((name.clone().merged(before), format!("You said: {sentence}")))
    });
    found.extend(in_scene);
    found.extend(in_move);
    let mut changes = Vec::new();
    for (name, sentence) in found {
        if changes.len() == MAX_NOTICED_PER_TURN {
            break;
        }
        if words(&name.text).all(|word| hero.contains(&word)) {
            continue;
        }
        if let Some(change) = entry(state, &changes, &name, scene.turn, &sentence) {
            changes.push(change);
        }
    }
    changes
}

/// The rules' entry for `name`, if the journal (and this turn's `changes`) lack it.
fn entry(
    state: &CampaignState,
    changes: &[JournalChange],
    name: &Name,
    turn: u32,
    sentence: &str,
) -> Option<JournalChange> {
    let journal_name = JournalName::new(&name.text).ok()?;
    let noted_now = changes.iter().filter_map(|change| match change {
        JournalChange::Noticed { name, .. } => Some(name),
        _ => None,
    });
    let mut known = state
        .journal
        .entries()
        .iter()
        .map(|entry| &entry.name)
        .chain(noted_now);
    if known.any(|other| overlaps(other.as_str(), &name.text))
        || !state.journal.may_notice(&journal_name)
    {
        return None;
    }
    let mut note = format!("Turn {turn}: {sentence}");
    if cut(&mut note, JournalNote::MAX_CHARS - 1) {
        note.push('…');
    }
    Some(JournalChange::Noticed {
        kind: if name.place {
            JournalKind::Place
        } else {
            JournalKind::Person
        },
        name: journal_name,
        note: JournalNote::new(note.trim()).ok()?,
    })
}

/// Whether one name's words are all in the other's (`Tam` and `Brother Tam`), ignoring case.
fn overlaps(a: &str, b: &str) -> bool {
    let (a, b): (Vec<String>, Vec<String>) = (words(a).collect(), words(b).collect());
    a.iter().all(|word| b.contains(word)) || b.iter().all(|word| a.contains(word))
}

/// The names in what came before the turn: the premise, the summary and the turns the model
/// still holds.
fn earlier_names(state: &CampaignState) -> Vec<Name> {
    let mut texts: Vec<&str> = vec![&state.premise];
    if let Some(summary) = &state.summary {
        texts.push(&summary.text);
    }
    for turn in &state.context {
        for message in &turn.messages {
            match message {
                Message::User { content } => texts.push(content),
                Message::Assistant {
                    content: Some(content),
                    ..
                } => texts.push(content),
                _ => {}
            }
        }
    }
    texts.iter().flat_map(|text| proper_names(text)).collect()
}

/// The first sentence of `text` that holds `name`.
fn sentence_naming(text: &str, name: &str) -> Option<String> {
    text.split_inclusive(['.', '!', '?', '\n'])
        .find(|sentence| sentence.contains(name))
        .map(|sentence| {
            sentence
                .trim()
                .trim_start_matches(['#', '*', '-', ' '])
                .to_owned()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::ContextTurn;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::StateDelta;

    fn state() -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Wren").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("The road").unwrap(),
        );
        let mut state = CampaignState::start("A crypt beneath the village of Hollowmere.", sheet);
        state.context.push(ContextTurn {
            turn: 2,
            messages: vec![
                Message::user("I call out to Brother Tam."),
                Message::assistant("The wind answers, and Wren shivers."),
            ],
        });
        state
    }

    fn names(changes: &[JournalChange]) -> Vec<(JournalKind, String, String)> {
        changes
            .iter()
            .map(|change| match change {
                JournalChange::Noticed { kind, name, note } => {
                    (*kind, name.as_str().to_owned(), note.as_str().to_owned())
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn names_the_scene_shares_with_what_came_before_are_noted_at_most_two() {
        let state = state();
        let scene = "Rain falls. You see Brother Tam walk into Hollowmere with Wren's lamp. \
                     A stranger, Oswin, waves from the ford.";
        let sheet = state.sheet.clone();
        let changes = noticed(
            &state,
            Scene {
                turn: 3,
                text: scene,
                player_move: Some("I follow Tam"),
                sheet: &sheet,
            },
        );
        assert_eq!(
            names(&changes),
            [
                (
                    JournalKind::Person,
                    "Brother Tam".to_owned(),
                    "Turn 3: You see Brother Tam walk into Hollowmere with Wren's lamp.".to_owned()
                ),
                (
                    JournalKind::Place,
                    "Hollowmere".to_owned(),
                    "Turn 3: You see Brother Tam walk into Hollowmere with Wren's lamp.".to_owned()
                ),
            ],
            "Oswin is new, Wren is the hero"
        );
        assert!(overlaps("Tam", "brother tam") && !overlaps("Tam", "Tamsin"));
    }

    #[test]
    fn a_place_of_the_premise_the_player_names_is_noted_whatever_the_scene_says() {
        let state = state();
        let sheet = state.sheet.clone();
        let changes = noticed(
            &state,
            Scene {
                turn: 3,
                text: "The mist is thick.",
                player_move: Some("I walk into Hollowmere and call for Oswin."),
                sheet: &sheet,
            },
        );
        assert_eq!(
            names(&changes),
            [(
                JournalKind::Place,
                "Hollowmere".to_owned(),
                "Turn 3: You said: I walk into Hollowmere and call for Oswin.".to_owned()
            )]
        );
    }

    #[test]
    fn the_place_the_character_went_to_is_noted_and_a_known_name_is_not() {
        let mut state = state();
        state
            .journal
            .apply(&JournalChange::Note {
                kind: JournalKind::Person,
                name: JournalName::new("brother tam").unwrap(),
                note: JournalNote::new("A monk.").unwrap(),
            })
            .unwrap();
        let mut sheet = state.sheet.clone();
        let moved = StateDelta::MoveTo {
            location: LocationName::new("Old Mill").unwrap(),
        };
        StateDelta::apply_all(&[moved], &mut sheet).unwrap();
        let changes = noticed(
            &state,
            Scene {
                turn: 4,
                text: "Ask Tam. Brother Tam unbars the door of the Old Mill for Tam.",
                player_move: None,
                sheet: &sheet,
            },
        );
        assert_eq!(
            names(&changes),
            [(
                JournalKind::Place,
                "Old Mill".to_owned(),
                "Turn 4: Brother Tam unbars the door of the Old Mill for Tam.".to_owned()
            )]
        );
    }
}
