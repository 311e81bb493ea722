//! The tools' tests: arguments parsed and coerced, the registry, and each kind of command run
//! through the rules.

use super::*;
use crate::campaign::proposal::Proposed;
use crate::game::combat::Combat;
use crate::game::map::WorldMap;
use crate::game::Journal;
use crate::gm::schema::tests::assert_tool_schema;
use rand::SeedableRng;
use serde_json::json;

/// The tools' table for the rogue of the creation rules, no fight under way.
fn rogue_table() -> ToolTable {
    ToolTable {
        sheet: crate::game::creation::tests_support::rogue(),
        journal: Journal::default(),
        map: WorldMap::default(),
        combat: Combat::default(),
        approval: false,
        proposals_made: 0,
        unspent_rolls: Vec::new(),
        spine: crate::game::spine::Spine::default(),
        turn: 2,
        party: Default::default(),
    }
}

fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
    ToolCall {
        id: "c1".into(),
        name: name.into(),
        arguments: arguments.to_string(),
    }
}

#[test]
fn arguments_are_coerced_where_the_meaning_is_clear() {
    let command = parse_call(&call(
        "update_character",
        json!({"hpChange": "-5", "minutesPassed": "10"}),
    ))
    .unwrap();
    assert_eq!(
        command,
        ToolCommand::Change(vec![
            StateDelta::AdvanceTime { minutes: 10 },
            StateDelta::ChangeHp { amount: -5 },
        ])
    );
}

#[test]
fn level_max_hp_and_scores_are_the_rules_to_set() {
    // Measured before: one call could set level 20 and 999 maximum HP at once.
    for arguments in [
        json!({"level": 20, "maxHp": 999}),
        json!({"stats": {"wisdom": 18}}),
        json!({"hpChange": 5, "level": 2}),
    ] {
        let refused = parse_call(&call("update_character", arguments)).unwrap_err();
        assert!(
            refused.reason.contains("award_experience"),
            "{}",
            refused.reason
        );
    }
    let award = parse_call(&call(
        "award_experience",
        json!({"amount": "300", "reason": "Drove off the wolves"}),
    ))
    .unwrap();
    assert_eq!(
        award,
        ToolCommand::Change(vec![StateDelta::GainExperience { amount: 300 }])
    );
    let too_much = parse_call(&call(
        "award_experience",
        json!({"amount": 1_000_000, "reason": "Everything"}),
    ))
    .unwrap_err();
    assert_eq!(too_much.reason, "amount must be 1 to 10000, not 1000000");
}

#[test]
fn a_poisoned_heros_check_is_two_d20s_the_lower_kept() {
    use crate::campaign::turn_event::ToolEffect;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut table = rogue_table();
    let mut run = |name: &str, arguments: serde_json::Value, table: &mut ToolTable| {
        let command = parse_call(&call(name, arguments)).unwrap();
        execute(command, table, &mut rng)
    };
    // Poisoned by the rules' update.
    run(
        "update_character",
        json!({"addConditions": [{"name": "poisoned", "duration": "1 hour"}]}),
        &mut table,
    )
    .unwrap();
    let poisoned = run(
        "request_check",
        json!({"attribute": "DEX", "dc": 12, "reason": "Climb the wall"}),
        &mut table,
    )
    .unwrap();
    let ToolEffect::Checked { check, .. } = poisoned.effect else {
        panic!("a check: {poisoned:?}")
    };
    assert_eq!(check.roll().notation(), "2d20kl1+2");
    let faces: Vec<u16> = check.roll().terms()[0]
        .dice()
        .iter()
        .map(|die| die.value())
        .collect();
    assert_eq!(check.roll().total(), i32::from(faces[0].min(faces[1])) + 2);
}

#[test]
fn checks_oracle_and_asides_run_through_the_rules() {
    use crate::campaign::turn_event::ToolEffect;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut table = rogue_table();
    let mut run = |name: &str, arguments: serde_json::Value, table: &mut ToolTable| {
        let command = parse_call(&call(name, arguments)).unwrap();
        execute(command, table, &mut rng)
    };
    let checked = run(
        "request_check",
        json!({"attribute": "dex", "dc": 12, "reason": "Climb the wall"}),
        &mut table,
    )
    .unwrap();
    let ToolEffect::Checked { check, .. } = checked.effect else {
        panic!("a check: {checked:?}")
    };
    let die = check.roll().natural_d20().expect("one d20");
    // The rogue's DEX 15 gives +2.
    assert_eq!(check.roll().total(), i32::from(die) + 2);
    assert_eq!(check.is_success(), i32::from(die) + 2 >= 12);
    assert!(checked
        .result
        .starts_with("The player's Rolled 1d20+2 for Climb the wall (DEX +2)"));

    let asked = run(
        "ask_oracle",
        json!({"question": "Is the door locked?", "likelihood": "likely"}),
        &mut table,
    )
    .unwrap();
    let ToolEffect::Asked { reading } = asked.effect else {
        panic!("a reading")
    };
    assert_eq!(reading.answer.is_yes(), reading.roll.value() <= 75);
    let aside = run(
        "speak_to_player",
        json!({"message": "You have no rope."}),
        &mut table,
    )
    .unwrap();
    assert_eq!(
        aside.effect,
        ToolEffect::Aside {
            message: "You have no rope.".into()
        }
    );
    let bad = parse_call(&call(
        "ask_oracle",
        json!({"question": "Is it?", "likelihood": "certain"}),
    ))
    .unwrap_err();
    assert!(
        bad.reason.contains("likelihood") || bad.reason.contains("unknown variant"),
        "{}",
        bad.reason
    );

    StateDelta::SetHp { hp: 0 }.apply(&mut table.sheet).unwrap();
    let down = run(
        "request_check",
        json!({"attribute": "STR", "difficultyClass": 10, "reason": "Stand"}),
        &mut table,
    )
    .unwrap_err();
    assert!(matches!(down, RunError::CannotAct { .. }), "{down}");
    assert!(down.to_string().contains("cannot act"), "{down}");
}

#[test]
fn places_are_recorded_on_the_map_by_the_rules() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut table = rogue_table();
    let mut run = |arguments: serde_json::Value, table: &mut ToolTable| {
        let command = parse_call(&call("record_place", arguments)).map_err(|r| r.reason)?;
        execute(command, table, &mut rng).map_err(|error| error.to_string())
    };
    let done = run(
        json!({"place": "The square", "connectsTo": ["The bell tower"]}),
        &mut table,
    )
    .unwrap();
    assert_eq!(done.result, "Recorded on the map: The square.");
    assert_eq!(table.map.places().len(), 2);
    let refused = run(
        json!({"place": "The square", "connectsTo": ["the square"]}),
        &mut table,
    )
    .unwrap_err();
    assert!(refused.contains("cannot lead to itself"), "{refused}");
    let too_many = run(
        json!({"place": "Hub", "connectsTo": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}),
        &mut table,
    )
    .unwrap_err();
    assert_eq!(too_many, "give 0 to 8 places it leads to per call, not 9");
    assert_eq!(table.map.places().len(), 2, "refusals change nothing");
}

#[test]
fn advantage_is_read_leniently_and_becomes_keep_highest() {
    let command = parse_call(&call(
        "roll_dice",
        json!({"dice": "1d20+2", "reason": "Ogre smash", "advantage": "adv"}),
    ))
    .unwrap();
    let ToolCommand::RollDice { dice, .. } = command else {
        panic!("a roll")
    };
    assert_eq!(dice.to_string(), "2d20kh1+2");
    let refused = parse_call(&call(
        "roll_dice",
        json!({"dice": "2d6", "reason": "Fire", "advantage": "dis"}),
    ))
    .unwrap_err();
    assert!(refused.reason.contains("single d20"), "{refused}");
}

#[test]
fn still_invalid_arguments_are_refused_with_a_reason() {
    let both = parse_call(&call("update_character", json!({"hp": 3, "hpChange": -1}))).unwrap_err();
    assert_eq!(both.reason, "give either hp or hpChange, not both");
    let nothing = parse_call(&call("update_character", json!({}))).unwrap_err();
    assert!(nothing.reason.starts_with("nothing to update"));
    let minutes =
        parse_call(&call("update_character", json!({"minutesPassed": 100_000}))).unwrap_err();
    assert!(
        minutes.reason.contains("minutesPassed"),
        "{}",
        minutes.reason
    );
}

#[test]
fn the_registry_names_definitions_and_dispatch_agree() {
    let definitions = definitions();
    let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    let registered: Vec<&str> = TOOLS.iter().map(|tool| tool.name).collect();
    assert_eq!(names, registered, "definitions follow the registry's order");
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "names are unique: {names:?}");

    let unknown = parse_call(&call("summon_dragon", json!({}))).unwrap_err();
    assert!(unknown
        .reason
        .starts_with("there is no tool named \"summon_dragon\"; the tools are "));
    let last = names.last().expect("at least one tool");
    assert!(
        unknown.reason.ends_with(&format!(" and {last}")),
        "{}",
        unknown.reason
    );
    for definition in &definitions {
        // Not the strict form (issue 50): tools go with `strict` off, so the schema sent keeps
        // `required` for the arguments that cannot be null only and no `additionalProperties`
        // (about 2 KB of every narration's request).
        assert_tool_schema(&definition.parameters, &definition.name);
        assert_eq!(definition.parameters["type"], json!("object"));
        assert_eq!(
            find(&definition.name).map(|tool| tool.name),
            Some(definition.name.as_str())
        );
        assert!(
            unknown.reason.contains(&format!(" {}", definition.name)),
            "{}",
            unknown.reason
        );
        // Dispatch reaches the tool's own parser: at worst its arguments are refused.
        if let Err(refused) = parse_call(&call(&definition.name, json!({}))) {
            assert!(
                !refused.reason.contains("no tool named"),
                "{}",
                refused.reason
            );
        }
    }
}

#[test]
fn rolls_and_hit_point_changes_decide_an_outcome() {
    let decides = |name: &str, arguments: serde_json::Value| {
        parse_call(&call(name, arguments))
            .unwrap()
            .decides_an_outcome()
    };
    assert!(decides(
        "roll_dice",
        json!({"dice": "1d6", "reason": "Trap"})
    ));
    assert!(decides(
        "update_character",
        json!({"hpChange": "-3", "location": "Cellar"})
    ));
    assert!(decides("update_character", json!({"hp_change": -3})));
    assert!(decides("update_character", json!({"hp": 4})));
    assert!(!decides("update_character", json!({"location": "Cellar"})));
    assert!(decides(
        "request_check",
        json!({"attribute": "WIS", "difficultyClass": 12, "reason": "Spot"})
    ));
    assert!(!decides("speak_to_player", json!({"message": "No rope."})));
    assert!(!decides(
        "update_inventory",
        json!({"updates": [{"slug": "torch", "quantityChange": -1}]})
    ));
    assert!(!decides("get_character_stats", json!({})));
}

#[test]
fn an_outcome_table_is_checked_shown_and_rolled_by_the_rules() {
    let door = |outcomes: serde_json::Value| {
        call(
            "roll_on_table",
            json!({"name": "Who answers the door?", "die": "d6", "outcomes": outcomes}),
        )
    };
    let gap = parse_call(&door(json!([
        {"from": 1, "to": 2, "outcome": "nobody"},
        {"from": 5, "to": 6, "outcome": "a ghoul"}
    ])))
    .unwrap_err();
    assert_eq!(
        gap.to_string(),
        "roll_on_table refused: no outcome covers 3–4 of the d6; the ranges must cover every \
         face"
    );
    let d12 = call(
        "roll_on_table",
        json!({"name": "Door", "die": "d12", "outcomes": []}),
    );
    assert!(parse_call(&d12).unwrap_err().reason.contains("d20"));
    let command = parse_call(&door(json!([
        {"from": "4", "to": 6, "outcome": "a ghoul"},
        {"from": 1, "to": 3, "outcome": "nobody"}
    ])))
    .unwrap();
    assert!(command.decides_an_outcome());
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let outcome = execute(command, &mut rogue_table(), &mut rng).unwrap();
    let ToolEffect::TableRolled { roll } = &outcome.effect else {
        panic!("{:?}", outcome.effect);
    };
    let expected = if roll.face() <= 3 {
        "nobody"
    } else {
        "a ghoul"
    };
    assert_eq!(roll.outcome().outcome.as_ref(), expected);
    assert!(
        outcome.result.starts_with(&roll.describe()),
        "{}",
        outcome.result
    );
}

#[test]
fn hit_points_change_only_by_a_roll_of_the_turn_and_at_most_its_total() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut table = rogue_table();
    let full = table.sheet.hit_points().current();
    let mut run = |arguments: serde_json::Value, table: &mut ToolTable| {
        let command = parse_call(&call("update_character", arguments)).unwrap();
        execute(command, table, &mut rng)
    };
    // No roll this turn: neither damage nor healing nor an exact value lands.
    for arguments in [
        json!({"hpChange": -20}),
        json!({"hpChange": 2}),
        json!({"hp": 1}),
    ] {
        let refused = run(arguments, &mut table).unwrap_err();
        assert!(matches!(refused, RunError::Unbacked { .. }), "{refused}");
        assert!(refused.to_string().contains("start_encounter"), "{refused}");
    }
    assert_eq!(table.sheet.hit_points().current(), full);
    // A roll of 5 backs 5 or less, once; the other roll backs the next change.
    table.unspent_rolls = vec![5, 2];
    assert!(run(json!({"hpChange": -6}), &mut table).is_err());
    assert_eq!(
        table.unspent_rolls,
        [5, 2],
        "a refused change spends nothing"
    );
    run(json!({"hpChange": -4}), &mut table).unwrap();
    assert_eq!(table.unspent_rolls, [2]);
    assert!(run(json!({"hpChange": -4}), &mut table).is_err());
    run(json!({"hp": full - 6}), &mut table).unwrap();
    assert!(table.unspent_rolls.is_empty());
    assert_eq!(table.sheet.hit_points().current(), full - 6);
    // Rest and conditions are not hit points: nothing to back.
    run(json!({"minutesPassed": 10}), &mut table).unwrap();
}

#[test]
fn a_hazard_is_rolled_by_the_rules_and_refused_in_a_fight() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    let mut table = rogue_table();
    let full = table.sheet.hit_points().current();
    let trap = json!({"what": "Falling rocks", "severity": "setback", "save": null});
    let command = parse_call(&call("hazard", trap.clone())).unwrap();
    let outcome = execute(command, &mut table, &mut rng).unwrap();
    let ToolEffect::Hazard { hazard, .. } = &outcome.effect else {
        panic!("{:?}", outcome.effect);
    };
    assert_eq!(hazard.damage.notation(), "1d10");
    assert!(outcome
        .result
        .starts_with("Hazard (setback: Falling rocks): 1d10 ["));
    let dealt = u16::try_from(hazard.dealt).unwrap();
    assert_eq!(
        table.sheet.hit_points().current(),
        full.saturating_sub(dealt)
    );
    let mut table = rogue_table();
    let foes = json!({"foes": ["Goblin"]});
    let start = parse_call(&call("start_encounter", foes)).unwrap();
    execute(start, &mut table, &mut rng).unwrap();
    let command = parse_call(&call("hazard", trap)).unwrap();
    let refused = execute(command, &mut table, &mut rng).unwrap_err();
    assert!(matches!(refused, RunError::InAFight));
}

#[test]
fn in_approval_mode_a_change_is_proposed_and_the_sheet_stays_as_it_was() {
    let mut table = rogue_table();
    table.approval = true;
    // A roll of this turn backs the change (see below).
    table.unspent_rolls = vec![3];
    let before = table.clone();
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let hurt = parse_call(&call("update_character", json!({"hpChange": -3}))).unwrap();
    let outcome = execute(hurt, &mut table, &mut rng).unwrap();
    let ToolEffect::Proposed { id: 1, proposed } = &outcome.effect else {
        panic!("{:?}", outcome.effect);
    };
    assert!(matches!(proposed, Proposed::Sheet { changes, .. } if changes.labels() == ["−3 HP"]));
    assert!(outcome.result.starts_with("Proposed to the player: −3 HP."));
    let note = json!({"action": "note", "kind": "person", "name": "Oda", "note": "A smith."});
    let noted = parse_call(&call("keep_journal", note)).unwrap();
    let outcome = execute(noted, &mut table, &mut rng).unwrap();
    assert!(matches!(outcome.effect, ToolEffect::Proposed { id: 2, .. }));
    assert_eq!(
        table.sheet, before.sheet,
        "nothing applies before acceptance"
    );
    assert_eq!(table.journal, before.journal);
    // A change the rules refuse is refused as ever, and rolls are never proposals.
    let gone = json!({"updates": [{"slug": "no-such-thing", "quantityChange": -1}]});
    let missing = parse_call(&call("update_inventory", gone)).unwrap();
    assert!(execute(missing, &mut table, &mut rng).is_err());
    let roll = parse_call(&call("roll_dice", json!({"dice": "1d6", "reason": "Trap"}))).unwrap();
    let outcome = execute(roll, &mut table, &mut rng).unwrap();
    assert!(matches!(outcome.effect, ToolEffect::Rolled { .. }));
    assert_eq!(table.proposals_made, 2);
}

/// A plan for `write_plan`, its first threat's clock `segments` long.
fn plan_arguments(segments: u8) -> serde_json::Value {
    json!({
        "goal": "Reach the chapel before the flood",
        "chapters": [
            {"title": "The gate", "goal": "Get past the gate", "meet": "the guard", "ifFailed": "the gate stays shut"},
            {"title": "The mill", "goal": "Find the key", "find": "Miller's key", "ifFailed": "the sluices stay shut"},
            {"title": "The chapel", "goal": "Ring the bell", "reach": "The chapel", "ifFailed": "the town drowns"}
        ],
        "threats": [
            {"name": "The flood", "segments": segments, "fills": "rising water", "whenFull": "the gates burst"},
            {"name": "The cult", "segments": 6, "fills": "chanting", "whenFull": "the chapel is sealed"}
        ],
        "people": [{"name": "the guard", "motive": "his post", "knows": "the back door", "secret": "a bribe", "attitude": "wary"}]
    })
}

#[test]
fn the_plan_is_written_once_within_its_bounds() {
    let mut table = rogue_table();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let too_long = parse_call(&call("write_plan", plan_arguments(9))).unwrap_err();
    assert_eq!(
        too_long.reason,
        "the clock of \"The flood\" must have 4 to 8 segments"
    );
    let mut two_goals = plan_arguments(4);
    two_goals["chapters"][0]["reach"] = json!("The gate");
    let refused = parse_call(&call("write_plan", two_goals)).unwrap_err();
    assert!(
        refused
            .reason
            .contains("exactly one of reach, meet or find"),
        "{}",
        refused.reason
    );
    let mut smitten = plan_arguments(4);
    smitten["people"][0]["attitude"] = json!("smitten");
    assert!(parse_call(&call("write_plan", smitten)).is_err());

    let command = parse_call(&call("write_plan", plan_arguments(4))).unwrap();
    let outcome = execute(command.clone(), &mut table, &mut rng).unwrap();
    assert!(
        outcome
            .result
            .starts_with("Kept. The chapter under way is The gate"),
        "{}",
        outcome.result
    );
    assert_eq!(table.spine.clocks.len(), 2);
    assert_eq!(
        execute(command, &mut table, &mut rng)
            .unwrap_err()
            .to_string(),
        "the story already has a plan"
    );
}

#[test]
fn a_chapter_ends_only_once_its_goal_is_met() {
    use crate::game::spine::attitude::Attitude;
    use crate::game::spine::{SpineEvent, World};
    let mut table = rogue_table();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let plan = parse_call(&call("write_plan", plan_arguments(4))).unwrap();
    execute(plan, &mut table, &mut rng).unwrap();
    let end = parse_call(&call("end_chapter", json!({}))).unwrap();
    let refused = execute(end.clone(), &mut table, &mut rng).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the chapter's goal is not met: the hero has yet to meet the guard"
    );
    let met = SpineEvent::Met {
        person: crate::game::JournalName::new("The guard").unwrap(),
        attitude: Attitude::Wary,
    };
    let world = World {
        map: &table.map,
        sheet: &table.sheet,
    };
    table.spine.apply(&met, 2, world).unwrap();
    let ended = execute(end, &mut table, &mut rng).unwrap();
    assert!(ended.result.contains("The mill"), "{}", ended.result);
    assert_eq!(table.spine.chapter, 1);
}

#[test]
fn change_inventory_gains_and_loses_as_the_two_former_tools_did_and_they_still_parse() {
    let parsed = |name: &str, arguments: serde_json::Value| parse_call(&call(name, arguments));
    let gained = parsed(
        "change_inventory",
        json!({"items": [{"item": "Rope", "change": 2}]}),
    );
    let added = parsed(
        "add_inventory",
        json!({"items": [{"name": "Rope", "description": null, "quantity": 2}]}),
    );
    assert_eq!(gained.unwrap(), added.unwrap());
    // A loss names the item by its name or its slug: both are the same key.
    let by_name = parsed(
        "change_inventory",
        json!({"items": [{"item": "Healing potion", "change": -1}]}),
    );
    let by_slug = parsed(
        "change_inventory",
        json!({"items": [{"item": "healing-potion", "change": -1}]}),
    );
    let updated = parsed(
        "update_inventory",
        json!({"updates": [{"slug": "healing-potion", "quantityChange": -1}]}),
    );
    let updated = updated.unwrap();
    assert_eq!(by_name.unwrap(), updated);
    assert_eq!(by_slug.unwrap(), updated);
    let nothing = parsed(
        "change_inventory",
        json!({"items": [{"item": "Rope", "change": 0}]}),
    )
    .unwrap_err();
    assert_eq!(
        nothing.to_string(),
        "change_inventory refused: give a change other than 0"
    );
    let sent: Vec<String> = definitions().into_iter().map(|d| d.name).collect();
    assert!(!sent
        .iter()
        .any(|name| name.ends_with("_inventory") && name != "change_inventory"));
}
