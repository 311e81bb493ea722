use super::director::{SteerKind, IDLE_THRESHOLD};
use super::plan::{PlanDraft, PlanError};
use super::shapes::Shape;
use super::*;
use crate::game::map::PlaceRecord;
use crate::game::text::{CharacterName, ClassName};

fn sheet() -> CharacterSheet {
    CharacterSheet::new(
        CharacterName::new("Mira").unwrap(),
        ClassName::new("Ranger").unwrap(),
        LocationName::new("The gate").unwrap(),
    )
}

fn planned(shape: Shape) -> Spine {
    let mut spine = Spine::default();
    let (map, sheet) = (WorldMap::default(), sheet());
    let world = World {
        map: &map,
        sheet: &sheet,
    };
    let plan = shape.plan();
    spine
        .apply(
            &SpineEvent::Planned {
                plan,
                by_rules: true,
                on_the_map: false,
            },
            1,
            world,
        )
        .unwrap();
    spine
}

fn apply(spine: &mut Spine, event: &SpineEvent, turn: u32) -> Result<(), SpineError> {
    let (map, sheet) = (WorldMap::default(), sheet());
    spine.apply(
        event,
        turn,
        World {
            map: &map,
            sheet: &sheet,
        },
    )
}

#[test]
fn a_clock_ticks_to_full_once_and_refuses_more_or_unknown_threats() {
    let mut spine = planned(Shape::Escape);
    let mut fills = Vec::new();
    while let Some(tick) = spine.tick(1, TickCause::Pacing) {
        apply(&mut spine, &tick, 2).unwrap();
        fills.push(spine.clocks[1].filled);
    }
    assert_eq!(fills, [1, 2, 3, 4]);
    let threat = PlanTitle::new("The search").unwrap();
    assert_eq!(
        spine.full_line(&threat).as_deref(),
        Some("the hunters find your trail")
    );
    let past = SpineEvent::Ticked {
        threat: threat.clone(),
        cause: TickCause::Pacing,
        filled: 5,
    };
    let before = spine.clone();
    assert_eq!(
        apply(&mut spine, &past, 3),
        Err(SpineError::BadTick("The search".into()))
    );
    let unknown = SpineEvent::Revealed {
        threat: PlanTitle::new("The dragon").unwrap(),
    };
    assert_eq!(
        apply(&mut spine, &unknown, 3),
        Err(SpineError::UnknownThreat("The dragon".into()))
    );
    assert_eq!(spine, before, "a refused event changes nothing");
}

#[test]
fn the_pressing_threat_is_the_first_revealed_one_not_full() {
    let mut spine = planned(Shape::Rescue);
    assert_eq!(spine.pressing(), Some(0));
    let revealed = SpineEvent::Revealed {
        threat: PlanTitle::new("The pursuit").unwrap(),
    };
    apply(&mut spine, &revealed, 2).unwrap();
    assert_eq!(spine.pressing(), Some(1));
}

#[test]
fn the_director_counts_idle_turns_and_steers_past_the_threshold_in_turn() {
    let mut spine = planned(Shape::Mystery);
    assert_eq!(spine.last_moved, 1, "the plan moves the story");
    assert_eq!(spine.idle_turns(1 + IDLE_THRESHOLD - 1), IDLE_THRESHOLD - 1);
    assert_eq!(spine.due_steer(1 + IDLE_THRESHOLD - 1), None);
    let turn = 1 + IDLE_THRESHOLD;
    let steer = spine.due_steer(turn).expect("four idle turns steer");
    assert_eq!(
        steer.text,
        "Now the witness arrives, wanting to be believed."
    );
    let event = SpineEvent::Steered {
        steer,
        idle: IDLE_THRESHOLD,
    };
    apply(&mut spine, &event, turn + 1).unwrap();
    assert_eq!(spine.idle_turns(turn + 1), 0, "a steer moves the story");
    let next = spine.due_steer(turn + 1 + IDLE_THRESHOLD).unwrap();
    assert!(
        matches!(next.kind, SteerKind::Threat { ref threat } if threat == "The cover-up"),
        "the second steer is the threat's: {next:?}"
    );
}

#[test]
fn a_chapter_ends_only_when_its_goal_is_met_and_in_order() {
    let mut spine = planned(Shape::Mystery);
    let end = |chapter| SpineEvent::ChapterEnded { chapter };
    assert_eq!(
        apply(&mut spine, &end(0), 2),
        Err(SpineError::GoalNotMet("meet the witness".into()))
    );
    assert_eq!(
        apply(&mut spine, &end(1), 2),
        Err(SpineError::NotTheChapter(1))
    );
    let met = SpineEvent::Met {
        person: JournalName::new("The Witness").unwrap(),
        attitude: Attitude::Wary,
    };
    apply(&mut spine, &met, 2).unwrap();
    assert_eq!(
        apply(&mut spine, &met, 2),
        Err(SpineError::Person("The Witness".into()))
    );
    apply(&mut spine, &end(0), 3).unwrap();
    assert_eq!(spine.chapter, 1);
    // Chapter 2 asks for a place: the map's visited places count.
    let mut map = WorldMap::default();
    let sheet = sheet();
    let world = World {
        map: &map,
        sheet: &sheet,
    };
    assert!(spine.apply(&end(1), 4, world).is_err());
    map.record(&PlaceRecord {
        place: LocationName::new("the scene of the crime").unwrap(),
        connects_to: Vec::new(),
    })
    .unwrap();
    let world = World {
        map: &map,
        sheet: &sheet,
    };
    spine.apply(&end(1), 4, world).unwrap();
    assert_eq!(spine.chapter, 2);
}

#[test]
fn a_sway_starts_from_the_persons_attitude() {
    let mut spine = planned(Shape::Rescue);
    let guard = JournalName::new("the guard").unwrap();
    let met = SpineEvent::Met {
        person: guard.clone(),
        attitude: Attitude::Wary,
    };
    apply(&mut spine, &met, 2).unwrap();
    let sway = |from, to| SpineEvent::Swayed {
        person: guard.clone(),
        from,
        to,
        fact: "was persuaded".into(),
    };
    assert_eq!(
        apply(&mut spine, &sway(Attitude::Hostile, Attitude::Wary), 3),
        Err(SpineError::Attitude("the guard".into(), "hostile"))
    );
    apply(&mut spine, &sway(Attitude::Wary, Attitude::Friendly), 3).unwrap();
    assert_eq!(spine.person(&guard).unwrap().attitude, Attitude::Friendly);
}

#[test]
fn a_plan_past_its_bounds_is_refused_on_the_way_in() {
    let plan = Shape::Heist.plan();
    let mut draft = PlanDraft::from(plan.clone());
    draft.chapters.truncate(2);
    assert_eq!(StoryPlan::try_from(draft), Err(PlanError::Chapters(2)));
    let mut draft = PlanDraft::from(plan.clone());
    draft.threats[0].segments = 9;
    assert_eq!(
        StoryPlan::try_from(draft),
        Err(PlanError::Segments("The alarm".into()))
    );
    let mut draft = PlanDraft::from(plan.clone());
    draft.people[1].name = draft.people[0].name.clone();
    assert_eq!(
        StoryPlan::try_from(draft),
        Err(PlanError::Twice("the steward".into()))
    );
    // A stored plan is checked as it is read.
    let mut json = serde_json::to_value(&plan).unwrap();
    json["threats"][0]["segments"] = 2.into();
    assert!(serde_json::from_value::<StoryPlan>(json).is_err());
    let mut spine = planned(Shape::Heist);
    let again = SpineEvent::Planned {
        plan,
        by_rules: false,
        on_the_map: false,
    };
    assert_eq!(apply(&mut spine, &again, 2), Err(SpineError::PlannedTwice));
}
