//! Tests of the action list: the model's answers parsed leniently and validated, duplicates and
//! stray roll fields dropped with warnings, errors that name the action, and rolls resolved with
//! the sheet's modifiers.

use super::*;
use crate::game::attributes::{AttributeScore, Attributes};
use crate::game::sheet::tests::mira;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::json;
use serde_json::Value;

fn draft(id: &str, description: &str) -> ActionDraft {
    ActionDraft {
        id: id.to_owned(),
        description: description.to_owned(),
        ..ActionDraft::default()
    }
}

fn rolled(id: &str, dice: &str, dc: Option<i64>) -> ActionDraft {
    ActionDraft {
        dice_roll: Some(dice.to_owned()),
        difficulty_class: dc.map(Value::from),
        ..draft(id, &format!("Try {id}"))
    }
}

fn validate(actions: Vec<ActionDraft>) -> Result<ValidatedActions, ActionListError> {
    ActionListDraft { actions }.validate()
}

#[test]
fn the_stakes_of_a_roll_are_kept_and_those_of_no_roll_dropped() {
    let with = |mut draft: ActionDraft| {
        draft.on_success = Some("You are over the wall".into());
        draft.on_failure = Some("The guard hears you".into());
        draft
    };
    let validated = validate(vec![
        with(rolled("climb", "1d20", Some(12))),
        with(draft("wait", "Wait")),
    ])
    .unwrap();
    let actions = validated.actions.actions();
    let stakes = actions[0].stakes().expect("a roll keeps its stakes");
    assert_eq!(stakes.success.as_str(), "You are over the wall");
    assert_eq!(stakes.failure.as_str(), "The guard hears you");
    assert_eq!(actions[1].stakes(), None);
    let mut long = with(rolled("leap", "1d20", Some(12)));
    long.on_failure = Some("x".repeat(500));
    assert_eq!(
        validate(vec![long]).unwrap().actions.actions()[0].stakes(),
        None
    );
}

#[test]
fn parses_seed_001_answer() {
    let json = r#"{"actions":[{"id":"attack","description":"Attack the goblin",
        "diceRoll":"1d20+5","diceReason":"Attack Roll","difficultyClass":12}]}"#;
    let validated = ActionList::parse_json(json).unwrap();
    assert!(validated.warnings.is_empty());
    let action = &validated.actions.actions()[0];
    assert_eq!(action.id().as_str(), "attack");
    assert_eq!(action.description().as_str(), "Attack the goblin");
    assert_eq!(action.dice_roll().unwrap().to_string(), "1d20+5");
    assert_eq!(action.dice_reason().unwrap().as_str(), "Attack Roll");
    assert_eq!(action.difficulty_class().unwrap().value(), 12);
    assert_eq!(action.attribute(), None);
    assert_eq!(action.roll_reason(), "Attack Roll");
    let wire = serde_json::to_value(validated.actions.actions()).unwrap();
    assert_eq!(
        wire,
        json!([{"id":"attack","description":"Attack the goblin","diceRoll":"1d20+5",
                 "diceReason":"Attack Roll","difficultyClass":12}])
    );
}

#[test]
fn lenient_fields() {
    let json = r#"[{"id":"Sneak Past","description":" Sneak past the guard ","diceRoll":"",
        "diceReason":null,"difficultyClass":null,"attribute":"","extra":1},
        {"id":"climb","description":"Climb","diceRoll":"d20","difficultyClass":"DC 14",
        "attribute":"strength"},
        {"id":"jump","description":"Jump","diceRoll":"d20","difficultyClass":11.0}]"#;
    let validated = ActionList::parse_json(json).unwrap();
    let actions = validated.actions.actions();
    assert_eq!(actions[0].id().as_str(), "sneak-past");
    assert_eq!(actions[0].description().as_str(), "Sneak past the guard");
    assert_eq!(actions[0].dice_roll(), None);
    assert_eq!(actions[1].difficulty_class().unwrap().value(), 14);
    assert_eq!(actions[1].attribute(), Some(Attribute::Strength));
    assert_eq!(actions[2].difficulty_class().unwrap().value(), 11);
    assert_eq!(validated.actions.len(), 3);
    assert!(!validated.actions.is_empty());
    assert!(validated
        .actions
        .get(&Slug::new("climb").unwrap())
        .is_some());
}

#[test]
fn duplicates_are_dropped_with_warnings() {
    let validated = validate(vec![
        draft("look", "Look around"),
        draft("look", "Look again"),
        draft("peek", "look AROUND"),
        draft("leave", "Leave"),
    ])
    .unwrap();
    let ids: Vec<&str> = validated
        .actions
        .actions()
        .iter()
        .map(|a| a.id().as_str())
        .collect();
    assert_eq!(ids, ["look", "leave"]);
    let warnings: Vec<String> = validated.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "action 2 (\"look\"): dropped as a duplicate of action 1",
            "action 3 (\"peek\"): dropped as a duplicate of action 1",
        ]
    );
}

#[test]
fn roll_fields_without_dice_are_ignored_with_warnings() {
    let mut action = draft("talk", "Talk to the guard");
    action.difficulty_class = Some(json!(0));
    action.attribute = Some("charm".to_owned());
    let mut plain = draft("wait", "Wait");
    plain.difficulty_class = Some(json!(null));
    plain.dice_reason = Some(String::new());
    let validated = validate(vec![action, plain]).unwrap();
    let action = &validated.actions.actions()[0];
    assert_eq!(
        (action.difficulty_class(), action.attribute()),
        (None, None)
    );
    let warnings: Vec<String> = validated.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "action 1 (\"talk\"): difficultyClass ignored because there is no diceRoll",
            "action 1 (\"talk\"): attribute ignored because there is no diceRoll",
        ]
    );
}

#[test]
fn errors_say_which_action_and_why() {
    let mut bad_attr = rolled("dance", "1d20", None);
    bad_attr.attribute = Some("luck".to_owned());
    let err = validate(vec![
        draft("ok", "Fine"),
        draft("!!!", ""),
        rolled("open-door", "0d6", Some(12)),
        rolled("pick-lock", "1d20", Some(35)),
        bad_attr,
        draft("long", &"x".repeat(201)),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n\
         - action 2 (\"!!!\"): bad id: slug \"!!!\" has no letters or digits\n\
         - action 2 (\"!!!\"): bad description: action description is empty\n\
         - action 3 (\"open-door\"): bad diceRoll \"0d6\": dice count must be 1..=100\n\
         - action 4 (\"pick-lock\"): bad difficultyClass: difficulty class must be a whole number 1..=30 (got 35)\n\
         - action 5 (\"dance\"): bad attribute: unknown attribute \"luck\"; expected one of STR, DEX, CON, INT, WIS, CHA\n\
         - action 6 (\"long\"): bad description: action description is 201 characters long; at most 200 are allowed"
    );
    assert_eq!(err.problems[0].index, Some(1));
}

#[test]
fn list_size_is_bounded() {
    let err = validate(vec![]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n- no actions; give 1 to 6"
    );
    let seven = (0..7)
        .map(|i| draft(&format!("a{i}"), &format!("Do {i}")))
        .collect();
    let err = validate(seven).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n- 7 actions; give at most 6"
    );
    // Duplicates are dropped before counting.
    let mut six: Vec<ActionDraft> = (0..6)
        .map(|i| draft(&format!("a{i}"), &format!("Do {i}")))
        .collect();
    six.push(draft("a0", "Again"));
    assert_eq!(validate(six).unwrap().actions.len(), 6);
}

#[test]
fn bad_json_is_an_error_for_the_model() {
    let err = ActionList::parse_json("not json").unwrap_err();
    assert!(err.to_string().starts_with(
        "The action list was rejected:\n- not a valid JSON action list: expected ident"
    ));
    let err = ActionList::parse_json(r#"{"choices": 3}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n- not a valid JSON action list: missing field `actions`"
    );
    let err = ActionList::parse_json(r#"[{"id": 5, "description": "Five"}]"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n- not a valid JSON action list: \
         invalid type: integer `5`, expected a string"
    );
    let err = ActionList::parse_json(r#"[{"description": "Nameless"}]"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The action list was rejected:\n- action 1: bad id: slug \"\" has no letters or digits"
    );
    let err = ActionList::parse_json(
        r#"{"actions":[{"id":"a","description":"A","difficultyClass":true,"diceRoll":"d20"}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().ends_with(
        "bad difficultyClass: difficulty class must be a whole number 1..=30 (got true)"
    ));
    let err = ActionList::parse_json(
        r#"{"actions":[{"id":"a","description":"A","difficultyClass":12.5,"diceRoll":"d20"}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().ends_with("(got 12.5)"));
}

#[test]
fn stored_lists_are_revalidated() {
    let json = json!([{"id":"a","description":"A"},{"id":"a","description":"B"}]);
    let err = serde_json::from_value::<ActionList>(json).unwrap_err();
    assert!(err.to_string().contains("id is used by an earlier action"));
    assert!(serde_json::from_value::<ActionList>(json!([])).is_err());
    let ok = json!([{"id":"a","description":"A","diceRoll":"2d20kh1","attribute":"DEX"}]);
    let list: ActionList = serde_json::from_value(ok.clone()).unwrap();
    assert_eq!(serde_json::to_value(&list).unwrap(), ok);
}

#[test]
fn a_conditions_edge_rolls_two_d20s_shows_in_the_badge_and_is_checked() {
    let mut climb = rolled("climb", "1d20", Some(12));
    climb.attribute = Some("STR".to_owned());
    let validated = validate(vec![climb, rolled("damage", "1d8+1", None)]).unwrap();
    let [climb, damage] = validated.actions.actions() else {
        panic!("two actions expected")
    };
    let sheet = mira().with_attributes(Attributes {
        strength: AttributeScore::new(16).unwrap(),
        ..Attributes::default()
    });
    assert_eq!(
        climb.badge(&sheet, Edge::Disadvantage).unwrap(),
        "2d20kl1+3 vs DC 12 (disadvantage)"
    );
    assert_eq!(
        climb.badge(&sheet, Edge::Advantage).unwrap(),
        "2d20kh1+3 vs DC 12 (advantage)"
    );
    // Only a d20 has an edge.
    assert_eq!(damage.badge(&sheet, Edge::Disadvantage).unwrap(), "1d8+1");
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..20 {
        let resolution = climb.resolve(&sheet, Edge::Disadvantage, &mut rng).unwrap();
        let roll = resolution.roll();
        assert_eq!(roll.notation(), "2d20kl1+3");
        let faces: Vec<u16> = roll.terms()[0].dice().iter().map(|d| d.value()).collect();
        assert_eq!(roll.total(), i32::from(*faces.iter().min().unwrap()) + 3);
        assert!(climb.explains(&sheet, Edge::Disadvantage, &resolution));
        assert!(!climb.explains(&sheet, Edge::Normal, &resolution));
        assert!(!climb.explains(&sheet, Edge::Advantage, &resolution));
    }
}

#[test]
fn resolve_adds_the_attribute_modifier_and_judges_the_dc() {
    let mut climb = rolled("climb", "1d20", Some(12));
    climb.attribute = Some("STR".to_owned());
    let validated = validate(vec![
        climb,
        rolled("damage", "1d8+1", None),
        draft("wait", "Wait"),
    ])
    .unwrap();
    let [climb, damage, wait] = validated.actions.actions() else {
        panic!("three actions expected")
    };
    let sheet = mira().with_attributes(Attributes {
        strength: AttributeScore::new(16).unwrap(),
        ..Attributes::default()
    });
    assert_eq!(
        climb.badge(&sheet, Edge::Normal).unwrap(),
        "1d20+3 vs DC 12"
    );
    assert_eq!(damage.badge(&sheet, Edge::Normal).unwrap(), "1d8+1");
    assert_eq!(wait.badge(&sheet, Edge::Normal), None);

    let mut rng = StdRng::seed_from_u64(5);
    let Some(Resolution::Check(check)) = climb.resolve(&sheet, Edge::Normal, &mut rng) else {
        panic!("a check expected")
    };
    assert_eq!(check.roll().notation(), "1d20+3");
    assert_eq!(check.roll().modifier(), 3);
    assert_eq!(check.is_success(), check.roll().total() >= 12);
    let resolution = Resolution::Check(check);
    assert!(resolution
        .describe("Climb")
        .starts_with("Rolled 1d20+3 for Climb (STR +3): ["));
    let Some(Resolution::Roll(roll)) = damage.resolve(&sheet, Edge::Normal, &mut rng) else {
        panic!("a plain roll expected")
    };
    assert!((2..=9).contains(&roll.total()));
    assert_eq!(Resolution::Roll(roll.clone()).roll(), &roll);
    assert!(wait.resolve(&sheet, Edge::Normal, &mut rng).is_none());
}

#[test]
fn a_skill_named_or_read_from_the_reason_adds_proficiency_where_the_hero_has_it() {
    let mut sneak = rolled("sneak", "1d20", Some(13));
    sneak.skill = Some("stealth".to_owned());
    let mut listen = rolled("listen", "1d20", Some(10));
    listen.dice_reason = Some("Perception".to_owned());
    let mut lift = rolled("lift", "1d20", Some(10));
    lift.skill = Some("Athletics".to_owned());
    lift.attribute = Some("CON".to_owned());
    let validated = validate(vec![sneak, listen, lift]).unwrap();
    let [sneak, listen, lift] = validated.actions.actions() else {
        panic!("three actions expected")
    };
    assert_eq!(
        (sneak.skill(), sneak.attribute()),
        (Some(Skill::Stealth), Some(Attribute::Dexterity))
    );
    assert_eq!(
        (listen.skill(), listen.attribute()),
        (Some(Skill::Perception), Some(Attribute::Wisdom))
    );
    // A named attribute stays: the skill only adds its proficiency.
    assert_eq!(lift.attribute(), Some(Attribute::Constitution));
    let sheet = mira()
        .with_attributes(Attributes {
            dexterity: AttributeScore::new(14).unwrap(),
            ..Attributes::default()
        })
        .with_proficiencies(crate::game::proficiency::Proficiencies::new(
            vec![Skill::Stealth],
            vec![],
        ));
    assert_eq!(
        sneak.badge(&sheet, Edge::Normal).unwrap(),
        "1d20+4 vs DC 13"
    );
    assert_eq!(listen.badge(&sheet, Edge::Normal).unwrap(), "1d20 vs DC 10");
    // The chance counts the same bonus: 9 or more on the d20 (60%), 10 or more (55%), and
    // with disadvantage the lower of two (36%).
    let percent = |action: &Action, edge| action.chance(&sheet, edge).unwrap().percent();
    assert_eq!(percent(sneak, Edge::Normal), 60);
    assert_eq!(percent(listen, Edge::Normal), 55);
    assert_eq!(percent(sneak, Edge::Disadvantage), 36);
    let mut rng = StdRng::seed_from_u64(3);
    let resolution = sneak.resolve(&sheet, Edge::Normal, &mut rng).unwrap();
    assert_eq!(resolution.roll().modifier(), 4);
    assert!(resolution
        .describe("Stealth")
        .contains("(DEX +2, proficiency +2)"));
    assert!(sneak.explains(&sheet, Edge::Normal, &resolution));
    // The same roll does not fit a hero without the proficiency.
    let untrained = sheet.clone().before_proficiencies();
    assert!(!sneak.explains(&untrained, Edge::Normal, &resolution));
    let bad = ActionDraft {
        skill: Some("Lockpicking".to_owned()),
        ..rolled("pick", "1d20", Some(12))
    };
    let error = validate(vec![bad]).unwrap_err();
    assert!(error
        .to_string()
        .contains("bad skill: unknown skill \"Lockpicking\""));
}
