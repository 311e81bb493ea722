//! The story's spine in a turn, decided by the rules around the scene. Before it: the plan the
//! rules build at the opening for a model without tools, a journey to a known place (its time
//! added), waiting, the player's roll (a failure whose stakes name a threat ticks its clock; a
//! social check sways the person it names), and the director's steer when the story has stood
//! still. After it: the threats and people the scene names, rests, and for a model without tools
//! the chapter whose goal is met. Each change is checked by the spine's rules on the turn's table
//! before it is logged; what the narrator must know comes back as lines for the move's message.

use super::log::EventLog;
use super::moves::PlayerMove;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::proficiency::Skill;
use crate::game::spine::attitude::{is_social, Attitude, MAX_FACT_CHARS};
use crate::game::spine::clock::TickCause;
use crate::game::spine::director::SteerKind;
use crate::game::spine::journey::{journey_to, map_side, travel_hours, TRAVELLED};
use crate::game::spine::shapes::Shape;
use crate::game::spine::{SpineEvent, World};
use crate::game::text::{JournalName, PlanTitle};
use crate::game::{Action, JournalChange, JournalKind, Resolution, RestKind, StateDelta};
use crate::gm::tools::ToolTable;

/// Applies `event` to the turn's table (its spine, and the map for a journey or a rules' plan)
/// and logs it; an event the rules refuse is dropped. Whether it was kept.
pub(super) fn emit(event: SpineEvent, table: &mut ToolTable, log: &mut EventLog<'_>) -> bool {
    let mut map = table.map.clone();
    let mut spine = table.spine.clone();
    let Ok(new_ground) = map_side(&event, &mut map, table.sheet.location()) else {
        return false;
    };
    let world = World {
        map: &map,
        sheet: &table.sheet,
    };
    if spine.apply(&event, table.turn, world).is_err() {
        return false;
    }
    if new_ground {
        spine.moved(table.turn);
    }
    table.map = map;
    table.spine = spine;
    log.push(TurnEvent::Spine { change: event });
    true
}

/// The plan the rules build from `premise`, when the story has none; `on_the_map`: its places
/// put on the map (for a model without tools, which records none).
fn plan_by_rules(premise: &str, on_the_map: bool, table: &mut ToolTable, log: &mut EventLog<'_>) {
    if table.spine.plan.is_none() {
        let plan = Shape::of(premise).plan();
        let planned = SpineEvent::Planned {
            plan,
            by_rules: true,
            on_the_map,
        };
        emit(planned, table, log);
    }
}

/// Everything the rules decide about the spine before the scene; the lines the narrator must
/// follow (none when nothing happened).
pub(super) fn before_the_scene(
    player_move: &PlayerMove,
    premise: &str,
    full_prompt: bool,
    table: &mut ToolTable,
    log: &mut EventLog<'_>,
) -> Vec<String> {
    let mut lines = Vec::new();
    let inner = match player_move {
        PlayerMove::Retold(inner, _) => inner.as_ref(),
        other => other,
    };
    if matches!(inner, PlayerMove::Opening(_)) {
        if !full_prompt {
            plan_by_rules(premise, true, table, log);
        }
        return lines;
    }
    if let Some(words) = inner.words() {
        if !table.combat.is_running() {
            lines.extend(journey(words, table, log));
        }
        if words.trim_start().to_lowercase().starts_with("wait") {
            lines.extend(time_passes("waiting", table, log));
        }
    }
    if let (PlayerMove::Action(action), Some(check)) = (inner, player_check(log)) {
        lines.extend(stakes_tick(action, check, table, log));
        lines.extend(sway(action, check, table, log));
    }
    lines.extend(steer(table, log));
    lines
}

/// The player's roll against a DC this turn: its total and whether it succeeded.
fn player_check(log: &EventLog<'_>) -> Option<(i32, bool)> {
    log.events.iter().find_map(|event| match event {
        TurnEvent::PlayerRoll {
            resolution: Resolution::Check(check),
            ..
        } => Some((check.roll().total(), check.is_success())),
        _ => None,
    })
}

/// A journey to a known place: the hero moves, the hours pass, the clock of the pressing threat
/// ticks.
fn journey(words: &str, table: &mut ToolTable, log: &mut EventLog<'_>) -> Vec<String> {
    let here = table.sheet.location().clone();
    let Some(to) = journey_to(words, &table.map, &here) else {
        return Vec::new();
    };
    let hours = travel_hours(&table.map, &here, &to);
    let deltas = vec![
        StateDelta::MoveTo {
            location: to.clone(),
        },
        StateDelta::AdvanceTime {
            minutes: hours * 60,
        },
    ];
    let mut sheet = table.sheet.clone();
    let Ok(changes) = StateDelta::apply_all(&deltas, &mut sheet) else {
        return Vec::new();
    };
    table.sheet = sheet;
    log.push(TurnEvent::Ruled {
        cause: TRAVELLED.to_owned(),
        deltas,
        changes,
    });
    let event = SpineEvent::Travelled {
        to: to.clone(),
        hours,
    };
    if !emit(event, table, log) {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "[Rules] The hero travelled to {to}; the journey took {hours} hour{}.",
        if hours == 1 { "" } else { "s" }
    )];
    lines.extend(time_passes(&format!("travel to {to}"), table, log));
    lines
}

/// Time passing ticks the clock of the most pressing threat.
fn time_passes(how: &str, table: &mut ToolTable, log: &mut EventLog<'_>) -> Vec<String> {
    let cause = TickCause::Time {
        how: how.to_owned(),
    };
    table
        .spine
        .pressing()
        .and_then(|at| tick(at, cause, table, log))
        .into_iter()
        .collect()
}

/// Ticks threat `at` by `cause`: the line for the narrator when the player knows the threat,
/// or when its clock filled.
fn tick(
    at: usize,
    cause: TickCause,
    table: &mut ToolTable,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let event = table.spine.tick(at, cause)?;
    let SpineEvent::Ticked { threat, filled, .. } = &event else {
        return None;
    };
    let threat = threat.clone();
    let filled = *filled;
    if !emit(event, table, log) {
        return None;
    }
    let clock = &table.spine.clocks[at];
    if let Some(full) = table.spine.full_line(&threat) {
        return Some(format!(
            "[Rules] The clock of {threat} is full: {full}. Show it happening in this scene."
        ));
    }
    clock.revealed.then(|| {
        format!(
            "[Rules] {threat} draws closer ({filled} of {}).",
            clock.segments
        )
    })
}

/// A failed roll whose stakes name a threat ticks that threat's clock (and reveals it).
fn stakes_tick(
    action: &Action,
    (_, success): (i32, bool),
    table: &mut ToolTable,
    log: &mut EventLog<'_>,
) -> Option<String> {
    if success {
        return None;
    }
    let stakes = action.stakes()?;
    let plan = table.spine.plan.as_ref()?;
    let (at, threat) = plan.threats().iter().enumerate().find(|(_, threat)| {
        crate::game::spine::attitude::names(threat.name.as_str(), stakes.failure.as_str())
    })?;
    let name = threat.name.clone();
    reveal(&name, table, log);
    let roll = action
        .dice_reason()
        .map_or_else(|| "roll".to_owned(), |reason| format!("{reason} roll"));
    tick(at, TickCause::Failure { roll }, table, log)
}

/// Reveals `threat` unless the player already knows it.
fn reveal(threat: &PlanTitle, table: &mut ToolTable, log: &mut EventLog<'_>) {
    let known = table
        .spine
        .plan
        .as_ref()
        .and_then(|plan| plan.threat(threat.as_str()))
        .is_some_and(|(at, _)| table.spine.clocks[at].revealed);
    if !known {
        let event = SpineEvent::Revealed {
            threat: threat.clone(),
        };
        emit(event, table, log);
    }
}

/// The social skill an action's check uses, if it uses one.
pub(super) fn social_skill(action: &Action) -> Option<Skill> {
    let named = action
        .dice_reason()
        .and_then(|reason| reason.as_str().parse::<Skill>().ok());
    action.skill().or(named).filter(|skill| is_social(*skill))
}

/// A social check sways the person the action names: its success moves them towards the hero,
/// its failure away.
fn sway(
    action: &Action,
    (total, success): (i32, bool),
    table: &mut ToolTable,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let skill = social_skill(action)?;
    let (person, from) = table.spine.person_in(action.description().as_str())?;
    if table.spine.person(&person).is_none() {
        let met = SpineEvent::Met {
            person: person.clone(),
            attitude: from,
        };
        emit(met, table, log);
    }
    let to = from.after_check(total);
    let verb = if success {
        "won them over"
    } else {
        "failed with them"
    };
    let fact: String = format!("turn {}: the hero's {} {verb}", table.turn, skill.name())
        .chars()
        .take(MAX_FACT_CHARS)
        .collect();
    if to == from {
        return None;
    }
    let event = SpineEvent::Swayed {
        person: person.clone(),
        from,
        to,
        fact,
    };
    emit(event, table, log).then(|| {
        format!(
            "[Rules] {person} was {} and is now {}: play them so.",
            from.name(),
            to.name()
        )
    })
}

/// The director's steer, when the story has stood still for the threshold: logged, the most
/// pressing threat's clock ticked, a threat steer revealing its threat.
fn steer(table: &mut ToolTable, log: &mut EventLog<'_>) -> Vec<String> {
    let before = table.turn.saturating_sub(1);
    let Some(steer) = table.spine.due_steer(before) else {
        return Vec::new();
    };
    let idle = table.spine.idle_turns(before);
    let text = steer.text.clone();
    let threat = match &steer.kind {
        SteerKind::Threat { threat } => PlanTitle::new(threat).ok(),
        _ => None,
    };
    if !emit(SpineEvent::Steered { steer, idle }, table, log) {
        return Vec::new();
    }
    if let Some(threat) = threat {
        reveal(&threat, table, log);
    }
    let mut lines = vec![format!(
        "[Director] The story has stood still for {idle} turns. {text} Make this happen in \
         this scene."
    )];
    lines.extend(
        table
            .spine
            .pressing()
            .and_then(|at| tick(at, TickCause::Pacing, table, log)),
    );
    lines
}

/// What the scene told brings about: the threats and people it names are revealed and met,
/// this turn's rests pass time, and (for a model without tools) the chapter whose goal is met
/// ends.
pub(super) fn after_the_scene(
    text: &str,
    premise: &str,
    full_prompt: bool,
    table: &mut ToolTable,
    log: &mut EventLog<'_>,
) {
    plan_by_rules(premise, !full_prompt, table, log);
    let Some(plan) = table.spine.plan.clone() else {
        return;
    };
    for threat in plan.threats() {
        if crate::game::spine::attitude::names(threat.name.as_str(), text) {
            reveal(&threat.name, table, log);
        }
    }
    for (person, attitude) in people_in(text, &plan, table, log) {
        if table.spine.person(&person).is_none() {
            emit(SpineEvent::Met { person, attitude }, table, log);
        }
    }
    for how in rests(log) {
        time_passes(how, table, log);
    }
    if !full_prompt {
        end_the_chapter(table, log);
    }
}

/// The people the scene brings in: the plan's key people it names, with their first attitude,
/// and the people the journal keeps (indifferent, unless the plan names them).
fn people_in(
    text: &str,
    plan: &crate::game::spine::plan::StoryPlan,
    table: &ToolTable,
    log: &EventLog<'_>,
) -> Vec<(JournalName, Attitude)> {
    let of_plan = |name: &JournalName| {
        plan.people()
            .iter()
            .find(|p| p.name.eq_ignore_case(name))
            .map_or(Attitude::Indifferent, |p| p.attitude)
    };
    let mut people: Vec<(JournalName, Attitude)> = plan
        .people()
        .iter()
        .filter(|person| crate::game::spine::attitude::names(person.name.as_str(), text))
        .map(|person| (person.name.clone(), person.attitude))
        .collect();
    let journal = table
        .journal
        .entries()
        .iter()
        .filter(|entry| entry.kind == JournalKind::Person)
        .map(|entry| entry.name.clone());
    let noticed = log.events.iter().filter_map(|event| match event {
        TurnEvent::Noticed {
            change:
                JournalChange::Noticed {
                    kind: JournalKind::Person,
                    name,
                    ..
                },
        } => Some(name.clone()),
        _ => None,
    });
    for name in journal.chain(noticed) {
        if !people.iter().any(|(known, _)| known.eq_ignore_case(&name)) {
            let attitude = of_plan(&name);
            people.push((name, attitude));
        }
    }
    people
}

/// The rests this turn's tools took, in words.
fn rests(log: &EventLog<'_>) -> Vec<&'static str> {
    log.events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Changed { deltas, .. }),
                ..
            } => Some(deltas),
            _ => None,
        })
        .flatten()
        .filter_map(|delta| match delta {
            StateDelta::Rest {
                kind: RestKind::Short,
            } => Some("a short rest"),
            StateDelta::Rest {
                kind: RestKind::Long,
            } => Some("a long rest"),
            _ => None,
        })
        .collect()
}

/// Ends the chapter under way when its goal is met (the rules' own end, for a model without
/// tools).
fn end_the_chapter(table: &mut ToolTable, log: &mut EventLog<'_>) {
    let Some(plan) = &table.spine.plan else {
        return;
    };
    let Some(chapter) = plan.chapters().get(table.spine.chapter) else {
        return;
    };
    let world = World {
        map: &table.map,
        sheet: &table.sheet,
    };
    if table.spine.goal_met(&chapter.mark, world) {
        let chapter = u8::try_from(table.spine.chapter).unwrap_or(u8::MAX);
        emit(SpineEvent::ChapterEnded { chapter }, table, log);
    }
}
