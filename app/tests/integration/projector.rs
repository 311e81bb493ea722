//! The one projector: what one event does to the campaign state and what the player sees
//! change. (The 30-turn check that a replay of the whole log equals the stored snapshot is
//! `server/tests/integration/snapshot.rs`.)

use crate::support::mira_at;
use app::campaign::conversation::Message;
use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::state::{CampaignState, ProjectionError, StorySummary, MAX_VERBATIM_TURNS};
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::map::PlaceRecord;
use app::game::text::{LocationName, Slug};
use app::game::{AppliedChanges, CharacterSheet, StateDelta};
use app::wire::present::update::turn_updates;
use app::wire::view::{MapView, StoryEntry, TurnUpdate};

fn sheet() -> CharacterSheet {
    mira_at("Crypt")
}

fn at(turn: u32, event: TurnEvent) -> StoredEvent {
    StoredEvent {
        turn,
        event: CampaignEvent::Turn(event),
    }
}

#[test]
fn a_scene_stored_before_its_html_was_kept_replays_to_the_same_entry() {
    let live = TurnEvent::narration("A **key**. <script>x()</script>".into());
    let TurnEvent::Narration { text, html } = &live else {
        unreachable!()
    };
    assert!(
        html.contains("<strong>key</strong>") && !html.contains("<script>"),
        "{html}"
    );
    let old = TurnEvent::Narration {
        text: text.clone(),
        html: String::new(),
    };
    let mut a = CampaignState::start("p", sheet());
    let mut b = CampaignState::start("p", sheet());
    assert_eq!(
        a.apply(&at(1, live)).unwrap(),
        b.apply(&at(1, old)).unwrap()
    );
    assert_eq!(a, b);
}

#[test]
fn a_change_updates_the_sheet_and_adds_its_chips_with_running_indexes() {
    let mut state = CampaignState::start("p", sheet());
    state
        .apply(&at(
            1,
            TurnEvent::Move {
                text: "I wait".into(),
                action_id: None,
            },
        ))
        .unwrap();
    let mut damaged = sheet();
    let deltas = vec![StateDelta::ChangeHp { amount: -4 }];
    let changes = StateDelta::apply_all(&deltas, &mut damaged).unwrap();
    let updates = state
        .apply(&at(
            1,
            TurnEvent::ToolResult {
                call_id: "c".into(),
                tool: "update_character".into(),
                result: "Done".into(),
                effect: Some(ToolEffect::Changed { deltas, changes }),
            },
        ))
        .unwrap();
    let updates = turn_updates(updates, &state);
    assert!(matches!(&updates[0], TurnUpdate::Sheet { sheet } if sheet.hp == 6));
    assert!(
        matches!(&updates[1], TurnUpdate::Entry { index: 1, entry: StoryEntry::Changes { labels } } if labels == &["−4 HP"]),
        "{updates:?}"
    );
    assert_eq!(state.sheet, damaged);
    assert_eq!(state.story_len, 2);
}

#[test]
fn a_change_that_no_longer_applies_is_refused_and_the_sheet_is_untouched() {
    let mut state = CampaignState::start("p", sheet());
    let deltas = vec![StateDelta::ChangeItemQuantity {
        slug: Slug::new("rope").unwrap(),
        change: -1,
    }];
    let refused = state.apply(&at(
        1,
        TurnEvent::ToolResult {
            call_id: "c".into(),
            tool: "update_inventory".into(),
            result: "Done".into(),
            effect: Some(ToolEffect::Changed {
                deltas,
                changes: AppliedChanges::default(),
            }),
        },
    ));
    assert!(
        matches!(refused, Err(ProjectionError::Delta(_))),
        "{refused:?}"
    );
    assert_eq!(state.sheet, sheet());
    assert_eq!(state.story_len, 0);
}

#[test]
fn a_summary_replaces_the_turns_it_covers_in_the_verbatim_context() {
    let mut state = CampaignState::start("p", sheet());
    for turn in 1..=5 {
        let messages = vec![Message::user(format!("turn {turn}"))];
        state
            .apply(&StoredEvent {
                turn,
                event: CampaignEvent::ModelMessages { messages },
            })
            .unwrap();
    }
    let summarized = CampaignEvent::Summarized {
        through_turn: 3,
        text: "You met Mira.".into(),
    };
    let updates = state
        .apply(&StoredEvent {
            turn: 5,
            event: summarized,
        })
        .unwrap();
    assert!(updates.is_empty(), "the player's story does not change");
    let turns: Vec<u32> = state.context.iter().map(|turn| turn.turn).collect();
    assert_eq!(turns, [4, 5]);
    assert_eq!(
        state.summary,
        Some(StorySummary {
            through_turn: 3,
            text: "You met Mira.".into()
        })
    );
    assert_eq!(state.story_len, 0);
}

#[test]
fn the_verbatim_context_is_bounded_and_a_second_start_is_refused() {
    let mut state = CampaignState::start("p", sheet());
    for turn in 1..=(MAX_VERBATIM_TURNS as u32 + 3) {
        let messages = vec![Message::user(format!("turn {turn}"))];
        state
            .apply(&StoredEvent {
                turn,
                event: CampaignEvent::ModelMessages { messages },
            })
            .unwrap();
    }
    assert_eq!(state.context.len(), MAX_VERBATIM_TURNS);
    assert_eq!(state.context[0].turn, 4);
    assert_eq!(state.context[0].messages, vec![Message::user("turn 4")]);
    assert_eq!(state.turn, MAX_VERBATIM_TURNS as u32 + 3);
    let started = state.apply(&StoredEvent {
        turn: 99,
        event: CampaignEvent::Started {
            premise: "again".into(),
            sheet: sheet(),
        },
    });
    assert!(matches!(started, Err(ProjectionError::StartedTwice)));
}

/// A tool's effect, applied at turn 1.
fn tool_effect(state: &mut CampaignState, effect: ToolEffect) -> Vec<TurnUpdate> {
    let shown = state
        .apply(&at(
            1,
            TurnEvent::ToolResult {
                call_id: "c".into(),
                tool: "t".into(),
                result: "Done".into(),
                effect: Some(effect),
            },
        ))
        .unwrap();
    turn_updates(shown, state)
}

#[test]
fn a_move_elsewhere_redraws_the_map_with_where_the_character_now_is() {
    let name = |text: &str| LocationName::new(text).unwrap();
    let mut state = CampaignState::start("p", sheet());
    let recorded = tool_effect(
        &mut state,
        ToolEffect::Mapped {
            record: PlaceRecord {
                place: name("crypt"),
                connects_to: vec![name("The chapel")],
            },
        },
    );
    let Some(TurnUpdate::Map { map }) = recorded.first() else {
        panic!("{recorded:?}")
    };
    let here: Vec<&str> = map
        .places
        .iter()
        .filter(|p| p.here)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(here, ["crypt"], "the sheet's Crypt, ignoring case");

    let mut moved = state.sheet.clone();
    let deltas = vec![StateDelta::MoveTo {
        location: name("The chapel"),
    }];
    let changes = StateDelta::apply_all(&deltas, &mut moved).unwrap();
    let updates = tool_effect(&mut state, ToolEffect::Changed { deltas, changes });
    let maps: Vec<&MapView> = updates
        .iter()
        .filter_map(|update| match update {
            TurnUpdate::Map { map } => Some(map),
            _ => None,
        })
        .collect();
    let [map] = maps[..] else {
        panic!("one map update: {updates:?}")
    };
    let here: Vec<&str> = map
        .places
        .iter()
        .filter(|p| p.here)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(here, ["The chapel"]);
    assert!(
        map.svg.contains("<title>Map: you are at The chapel."),
        "{}",
        map.svg
    );

    let mut hurt = state.sheet.clone();
    let deltas = vec![StateDelta::ChangeHp { amount: -1 }];
    let changes = StateDelta::apply_all(&deltas, &mut hurt).unwrap();
    let updates = tool_effect(&mut state, ToolEffect::Changed { deltas, changes });
    assert!(
        !updates.iter().any(|u| matches!(u, TurnUpdate::Map { .. })),
        "staying put leaves the map as it is: {updates:?}"
    );
}
