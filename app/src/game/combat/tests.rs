//! A fight played through [`Combat`] with scripted dice: the order of turns, what each exchange
//! says, how fights end, and bad input refused without a change.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::roller::tests::Scripted;
use super::*;
use crate::game::bestiary::{ArmorClass, AttackName, Bestiary, DamageType};
use crate::game::dice::{Check, DiceExpr, DifficultyClass};

pub(super) fn creature(name: &str) -> Creature {
    Bestiary::srd().get(name).unwrap().clone()
}

pub(super) fn goblins(n: usize) -> Vec<Creature> {
    vec![creature("Goblin"); n]
}

/// AC 13, 20 HP, DEX +2.
pub(super) fn hero() -> Hero {
    Hero::new(ArmorClass::new(13).unwrap(), 20, 2)
}

pub(super) fn longsword() -> AttackProfile {
    AttackProfile::new(
        AttackName::new("longsword").unwrap(),
        5,
        DiceExpr::parse("1d8").unwrap(),
        3,
        DamageType::Slashing,
    )
    .unwrap()
}

pub(super) fn attack(target: &str) -> HeroAction {
    HeroAction::Attack {
        target: target.into(),
        weapon: longsword(),
    }
}

/// A fight against `foes` begun with the scripted faces (initiative first).
pub(super) fn begin(foes: Vec<Creature>, faces: &[u16]) -> (Combat, Exchange) {
    let mut combat = Combat::default();
    let exchange = combat
        .start_with(foes, &hero(), &mut Scripted::new(faces))
        .unwrap();
    (combat, exchange)
}

pub(super) fn lines(exchange: &Exchange) -> Vec<String> {
    exchange.describe().lines().map(String::from).collect()
}

#[test]
fn initiative_sets_the_order_and_the_hero_waits_for_a_move() {
    // Hero 15+2, Goblin 1 10+2, Goblin 2 5+2.
    let (combat, exchange) = begin(goblins(2), &[15, 10, 5]);
    assert_eq!(
        lines(&exchange),
        ["Initiative: you 17, Goblin 1 12, Goblin 2 7"]
    );
    assert_eq!(exchange.damage_to_hero, 0);
    let encounter = combat.current().unwrap();
    assert_eq!((encounter.round(), encounter.turn()), (1, 0));
    assert_eq!(
        encounter.describe(),
        "Round 1. Order: you, Goblin 1, Goblin 2. \
         Goblin 1 (AC 15): 7/7 HP; Goblin 2 (AC 15): 7/7 HP."
    );
}

#[test]
fn foes_ahead_of_the_hero_strike_when_the_fight_starts() {
    // Hero 2+2, goblin 15+2; its scimitar rolls 10 (14 vs AC 13) and 3 damage (+2).
    let (combat, exchange) = begin(goblins(1), &[2, 15, 10, 3]);
    assert_eq!(
        lines(&exchange),
        [
            "Initiative: Goblin 17, you 4",
            "Goblin's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing",
        ]
    );
    assert_eq!(exchange.damage_to_hero, 5);
    assert_eq!(combat.current().unwrap().turn(), 1);
}

#[test]
fn the_hero_strikes_then_the_foes_act_in_order_and_a_round_turns() {
    let (mut combat, _) = begin(goblins(2), &[15, 10, 5]);
    // The hero misses (2+5); Goblin 1 hits (10+4, 3+2); Goblin 2 rolls a natural 1.
    let exchange = combat
        .act_with(
            attack("Goblin 1"),
            &hero(),
            &mut Scripted::new(&[2, 10, 3, 1]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Your longsword at Goblin 1: 1d20+5 → [2]+5 = 7 vs AC 15, miss",
            "Goblin 1's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing",
            "Goblin 2's scimitar: 1d20+4 → [1]+4 = 5 vs AC 13, miss (natural 1)",
            "Round 2",
        ]
    );
    assert_eq!(exchange.damage_to_hero, 5);
    assert!(exchange.end.is_none());
    let encounter = combat.current().unwrap();
    assert_eq!((encounter.round(), encounter.turn()), (2, 0));
}

#[test]
fn felling_the_last_foe_ends_the_fight_with_its_experience() {
    let (mut combat, _) = begin(goblins(2), &[15, 10, 5]);
    // Goblin 1 takes 19+5 → 24 and 4+3 = 7 damage: down. Goblin 2 misses; round 2.
    let exchange = combat
        .act_with(
            attack("goblin 1"),
            &hero(),
            &mut Scripted::new(&[19, 4, 10, 1, 2]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange)[0],
        "Your longsword at Goblin 1: 1d20+5 → [19]+5 = 24 vs AC 15, hit, 7 slashing; Goblin 1 is down"
    );
    // With one goblin standing, its kind names it. A critical: 2d8+3.
    let exchange = combat
        .act_with(attack("GOBLIN"), &hero(), &mut Scripted::new(&[20, 1, 2]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Your longsword at Goblin 2: 1d20+5 → [20]+5 = 25 vs AC 15, critical hit, 6 slashing; \
             Goblin 2 has 1/7 HP",
            "Goblin 2's scimitar: 1d20+4 → [1]+4 = 5 vs AC 13, miss (natural 1)",
            "Round 3",
        ]
    );
    let exchange = combat
        .act_with(attack("Goblin 2"), &hero(), &mut Scripted::new(&[12, 1]))
        .unwrap();
    let end = exchange.end.clone().unwrap();
    assert_eq!(end.outcome, Outcome::Victory);
    assert_eq!(end.xp, 100);
    assert_eq!(end.rounds, 3);
    assert_eq!(
        lines(&exchange).last().unwrap(),
        "The fight is over after 3 rounds: every foe is down. Defeated: Goblin 1 and Goblin 2 (100 XP)."
    );
    assert!(!combat.is_running());
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let (mut combat, _) = begin(goblins(2), &[15, 10, 5]);
    let before = combat.clone();
    let mut dice = Scripted::new(&[20, 8, 8, 8]);
    let err = combat
        .act_with(attack("Orc"), &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no foe \"Orc\" in this fight; standing: Goblin 1, Goblin 2"
    );
    let err = combat
        .act_with(attack("goblin"), &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "\"goblin\" could be Goblin 1 or Goblin 2; name one"
    );
    let err = combat
        .start_with(goblins(1), &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "a fight is already on (against Goblin 1, Goblin 2); it must end before another starts"
    );
    let err = combat
        .set_condition("Wolf", FoeCondition::Prone, true)
        .unwrap_err();
    assert!(matches!(err, CombatError::NotInFight { .. }));
    assert_eq!(combat, before);
    assert_eq!(dice.0.len(), 4, "no dice were rolled");
    // Down foes cannot be attacked.
    combat
        .act_with(
            attack("Goblin 1"),
            &hero(),
            &mut Scripted::new(&[19, 8, 1, 1]),
        )
        .unwrap();
    let before = combat.clone();
    let err = combat
        .act_with(attack("Goblin 1"), &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(err.to_string(), "Goblin 1 is already down");
    assert_eq!(combat, before);
}

#[test]
fn no_fight_and_wrong_sizes_are_refused() {
    let mut combat = Combat::default();
    let mut dice = Scripted::new(&[]);
    assert_eq!(
        combat.act_with(HeroAction::Dodge, &hero(), &mut dice),
        Err(CombatError::NoEncounter)
    );
    assert_eq!(combat.stop(), Err(CombatError::NoEncounter));
    assert_eq!(
        combat.start_with(Vec::new(), &hero(), &mut dice),
        Err(CombatError::NoFoes)
    );
    assert_eq!(
        combat
            .start_with(goblins(13), &hero(), &mut dice)
            .unwrap_err()
            .to_string(),
        "a fight holds at most 12 foes (got 13)"
    );
    let down = Hero {
        hit_points: 0,
        ..hero()
    };
    assert_eq!(
        combat.start_with(goblins(1), &down, &mut dice),
        Err(CombatError::HeroDown)
    );
    assert_eq!(combat, Combat::default());
    assert!(combat.start_with(goblins(12), &hero(), &mut dice).is_ok());
}

#[test]
fn dodging_gives_the_foes_disadvantage_until_the_heros_next_turn() {
    let (mut combat, _) = begin(goblins(1), &[15, 10]);
    let exchange = combat
        .act_with(HeroAction::Dodge, &hero(), &mut Scripted::new(&[18, 4]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "You dodge: attacks against you have disadvantage until your next turn",
            "Goblin's scimitar: 2d20kl1+4 → [~18~, 4]+4 = 8 vs AC 13, miss",
            "Round 2",
        ]
    );
    assert!(combat.current().unwrap().is_hero_dodging());
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[18, 1]))
        .unwrap();
    assert_eq!(lines(&exchange)[0], "You spend your turn");
    assert!(lines(&exchange)[1].starts_with("Goblin's scimitar: 1d20+4 → [18]+4 = 22"));
    assert!(!combat.current().unwrap().is_hero_dodging());
}

fn escape(face: u16) -> Check {
    let roll = DiceExpr::parse("1d20+2")
        .unwrap()
        .roll_faces(None, |_| face);
    Check::new(roll, DifficultyClass::new(12).unwrap())
}

#[test]
fn fleeing_ends_the_fight_on_a_success_only() {
    let (mut combat, _) = begin(goblins(1), &[15, 10]);
    let exchange = combat
        .act_with(
            HeroAction::Flee { escape: escape(3) },
            &hero(),
            &mut Scripted::new(&[2]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange)[0],
        "Rolled 1d20+2 for Flee: [3] + 2 = 5 vs DC 12: failure; you do not get away"
    );
    assert!(exchange.end.is_none());
    assert_eq!(exchange.attacks().count(), 1, "the goblin still strikes");
    let exchange = combat
        .act_with(
            HeroAction::Flee { escape: escape(15) },
            &hero(),
            &mut Scripted::new(&[]),
        )
        .unwrap();
    assert_eq!(exchange.attacks().count(), 0);
    assert_eq!(exchange.end.unwrap().outcome, Outcome::Escaped);
    assert!(!combat.is_running());
}

#[test]
fn conditions_change_the_dice_and_the_turns() {
    let (mut combat, _) = begin(vec![creature("Goblin"), creature("Wolf")], &[15, 10, 5]);
    assert!(combat
        .set_condition("goblin", FoeCondition::Prone, true)
        .unwrap());
    assert!(!combat
        .set_condition("Goblin", FoeCondition::Prone, true)
        .unwrap());
    combat
        .set_condition("Wolf", FoeCondition::Stunned, true)
        .unwrap();
    // Advantage against the prone goblin; it gets up and strikes normally; the wolf loses its turn.
    let exchange = combat
        .act_with(
            attack("Goblin"),
            &hero(),
            &mut Scripted::new(&[3, 6, 10, 2]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Your longsword at Goblin: 2d20kh1+5 → [~3~, 6]+5 = 11 vs AC 15, miss",
            "Goblin gets up",
            "Goblin's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 4 slashing",
            "Wolf is stunned and loses its turn",
            "Round 2",
        ]
    );
    combat
        .set_condition("wolf", FoeCondition::Stunned, false)
        .unwrap();
    combat
        .set_condition("wolf", FoeCondition::Poisoned, true)
        .unwrap();
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[1, 5, 9]))
        .unwrap();
    assert_eq!(
        lines(&exchange)[2],
        "Wolf's bite: 2d20kl1+4 → [5, ~9~]+4 = 9 vs AC 13, miss"
    );
}

#[test]
fn the_foes_stop_when_the_hero_drops() {
    let weak = Hero {
        hit_points: 3,
        ..hero()
    };
    let mut combat = Combat::default();
    // Both goblins act first; the first one's 5 damage drops the hero.
    let exchange = combat
        .start_with(goblins(2), &weak, &mut Scripted::new(&[1, 15, 14, 10, 3]))
        .unwrap();
    assert_eq!(exchange.attacks().count(), 1);
    assert_eq!(exchange.damage_to_hero, 5);
    let end = exchange.end.unwrap();
    assert_eq!((end.outcome, end.xp), (Outcome::HeroDown, 0));
    assert_eq!(
        lines(&Exchange {
            end: Some(end),
            ..Exchange::default()
        }),
        ["The fight is over after 1 round: you are down."]
    );
    assert!(!combat.is_running());
}

#[test]
fn a_hero_at_zero_ends_the_fight_when_acting() {
    let (mut combat, _) = begin(goblins(1), &[15, 10]);
    let down = Hero {
        hit_points: 0,
        ..hero()
    };
    let exchange = combat
        .act_with(attack("Goblin"), &down, &mut Scripted::new(&[]))
        .unwrap();
    assert!(exchange.events.is_empty());
    assert_eq!(exchange.end.unwrap().outcome, Outcome::HeroDown);
    assert!(!combat.is_running());
}

#[test]
fn after_the_last_round_the_foes_run() {
    let fortress = Hero {
        armor_class: ArmorClass::new(30).unwrap(),
        hit_points: u16::MAX,
        ..hero()
    };
    let mut combat = Combat::default();
    let mut rng = StdRng::seed_from_u64(11);
    combat.start(goblins(2), &fortress, &mut rng).unwrap();
    let mut end = None;
    for _ in 0..MAX_ROUNDS {
        assert!(end.is_none(), "ended early");
        end = combat
            .act(HeroAction::Pass, &fortress, &mut rng)
            .unwrap()
            .end;
    }
    let end = end.expect("the fight ends at the cap");
    assert_eq!(
        (end.outcome, end.rounds, end.xp),
        (Outcome::FoesFled, MAX_ROUNDS, 0)
    );
    assert!(!combat.is_running());
}

#[test]
fn stopping_counts_the_defeated() {
    let (mut combat, _) = begin(vec![creature("Goblin"), creature("Orc")], &[15, 10, 5]);
    combat
        .act_with(attack("Goblin"), &hero(), &mut Scripted::new(&[19, 8, 1]))
        .unwrap();
    let end = combat.stop().unwrap();
    assert_eq!(end.outcome, Outcome::Stopped);
    assert_eq!(end.defeated, [FoeLabel::new("Goblin").unwrap()]);
    assert_eq!(end.xp, 50);
    assert!(!combat.is_running());
}

#[test]
fn the_snapshot_round_trips_and_tampering_is_refused() {
    let (mut combat, _) = begin(vec![creature("Goblin"), creature("Orc")], &[15, 10, 5]);
    combat
        .act_with(attack("Orc"), &hero(), &mut Scripted::new(&[15, 4, 1, 1]))
        .unwrap();
    let json = serde_json::to_value(&combat).unwrap();
    assert_eq!(
        serde_json::from_value::<Combat>(json.clone()).unwrap(),
        combat
    );
    assert_eq!(
        serde_json::from_value::<Combat>(serde_json::Value::Null).unwrap(),
        Combat::default()
    );
    let tamper = |path: &[&str], value: serde_json::Value| {
        let mut bad = json.clone();
        let mut slot = &mut bad;
        for key in path {
            slot = match key.parse::<usize>() {
                Ok(i) => &mut slot[i],
                Err(_) => &mut slot[*key],
            };
        }
        *slot = value;
        serde_json::from_value::<Combat>(bad)
            .unwrap_err()
            .to_string()
    };
    assert!(tamper(&["foes", "1", "hp"], 99.into()).contains("Orc: 99 HP is outside 0..=15"));
    assert!(tamper(&["turn"], 1.into()).contains("it must wait on the hero's turn"));
    assert!(tamper(&["round"], 101.into()).contains("the round must be 1..=100"));
    assert!(tamper(&["order", "0", "roll", "total"], 30.into())
        .contains("an initiative roll is not a d20 plus DEX"));
    assert!(tamper(&["foes", "1", "label"], "Goblin".into()).contains("two foes share a label"));
    assert!(tamper(&["order", "2", "combatant"], "hero".into())
        .contains("the order must hold the hero and each foe once"));
    assert!(tamper(&["foes", "0", "creature", "hp"], 99.into())
        .contains("Goblin: 99 HP is not the average of 2d6 (7)"));
}
