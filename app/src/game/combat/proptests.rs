//! Property tests of the combat rules: attack arithmetic, hit points within their bounds,
//! initiative order, every fight ending within the round cap under random play (with allies
//! too, waiting only on a standing player and reporting the allies' hit points as they are),
//! experience summed from the defeated, and made foes growing with their rating.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::attack::{strike, Hit, Party, Swing};
use super::foe::{Foe, FoeLabel};
use super::initiative::{initiative_with, Combatant};
use super::roller::RngRoller;
use super::*;
use crate::game::bestiary::{
    ArmorClass, AttackName, Bestiary, ChallengeRating, Damage, DamageType,
};
use crate::game::dice::Edge;
use crate::game::dice::{Check, DiceExpr, DifficultyClass};

fn edge() -> impl Strategy<Value = Edge> {
    prop::sample::select(vec![Edge::Normal, Edge::Advantage, Edge::Disadvantage])
}

/// Damage dice like `3d8+2`.
fn damage() -> impl Strategy<Value = Damage> {
    (
        1..=10u8,
        prop::sample::select(vec![4u16, 6, 8, 10, 12]),
        -5..=10i32,
    )
        .prop_map(|(count, sides, modifier)| {
            format!("{count}d{sides}{modifier:+} slashing")
                .parse()
                .expect("generated damage is valid")
        })
}

/// Names of bestiary creatures.
fn creature_name() -> impl Strategy<Value = String> {
    let names: Vec<String> = Bestiary::srd()
        .creatures()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    prop::sample::select(names)
}

/// A hero action, aimed at one of `labels` or at a name that is in no fight.
fn action(labels: Vec<String>) -> impl Strategy<Value = HeroAction> {
    let target = prop_oneof![
        4 => prop::sample::select(labels),
        1 => Just("Nobody".to_string()),
    ];
    prop_oneof![
        6 => (target, -2..=12i8, damage()).prop_map(|(target, to_hit, damage)| {
            HeroAction::Attack {
                target,
                weapon: AttackProfile::new(
                    AttackName::new("blade").expect("valid"),
                    to_hit,
                    damage.dice().clone(),
                    0,
                    DamageType::Slashing,
                )
                .expect("in bounds"),
            }
        }),
        1 => Just(HeroAction::Dodge),
        1 => Just(HeroAction::Pass),
        1 => (1..=20u16).prop_map(|face| HeroAction::Flee {
            escape: Check::new(
                DiceExpr::d20().roll_faces(None, |_| face),
                DifficultyClass::new(19).expect("in range"),
            ),
        }),
    ]
}

/// Every invariant a running fight keeps, including a snapshot round trip.
fn assert_running(combat: &Combat) {
    let encounter = combat.current().expect("running");
    assert!((1..=MAX_ROUNDS).contains(&encounter.round()));
    assert_eq!(
        encounter.order()[encounter.turn()].combatant(),
        Combatant::Hero
    );
    assert!(encounter.standing().next().is_some());
    for foe in encounter.foes() {
        assert!(foe.hit_points() <= foe.max_hit_points());
        assert_eq!(foe.is_defeated(), foe.hit_points() == 0);
    }
    let json = serde_json::to_string(combat).expect("serialise");
    let back: Combat = serde_json::from_str(&json).expect("a stored fight reads back");
    assert_eq!(&back, combat);
}

proptest! {
    #[test]
    fn attack_arithmetic(
        to_hit in -5..=20i8,
        armor in 1..=30i64,
        damage in damage(),
        edge in edge(),
        seed in any::<u64>(),
    ) {
        let weapon = AttackName::new("blade").expect("valid");
        let swing = Swing {
            attacker: Party::Hero,
            weapon: &weapon,
            to_hit,
            damage: vec![&damage],
            target: Party::Hero,
            armor_class: ArmorClass::new(armor).expect("in range"),
            edge,
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let attack = strike(swing, &mut RngRoller(&mut rng));
        let roll = attack.roll();
        let d20 = i32::from(roll.natural_d20().expect("one kept d20"));
        prop_assert_eq!(roll.total(), d20 + i32::from(to_hit));
        let expected = match d20 {
            20 => Hit::Critical,
            1 => Hit::Miss,
            _ if roll.total() >= i32::try_from(armor).expect("small") => Hit::Hit,
            _ => Hit::Miss,
        };
        prop_assert_eq!(attack.hit(), expected);
        if attack.hit() == Hit::Miss {
            prop_assert!(attack.damage().is_empty());
            prop_assert_eq!(attack.total_damage(), 0);
        } else {
            let [part] = attack.damage() else { panic!("one damage part") };
            let dice_per_term = if attack.hit() == Hit::Critical { 2 } else { 1 };
            let rolled = part.roll();
            let term = damage.dice().terms()[0];
            prop_assert_eq!(
                rolled.terms()[0].dice().len(),
                usize::from(term.count()) * dice_per_term
            );
            // The modifier is added once, critical or not.
            prop_assert_eq!(rolled.modifier(), damage.dice().modifier());
            prop_assert_eq!(attack.total_damage(), u32::try_from(rolled.total().max(0)).expect("non-negative"));
        }
    }

    #[test]
    fn hit_points_stay_within_their_bounds(
        name in creature_name(),
        blows in prop::collection::vec(prop_oneof![0..=20u32, any::<u32>()], 0..20),
    ) {
        let creature = Bestiary::srd().get(&name).expect("listed").clone();
        let mut foe = Foe::new(FoeLabel::new(&name).expect("valid"), creature);
        let max = foe.max_hit_points();
        for blow in blows {
            let change = foe.take_damage(blow);
            prop_assert!(change.to <= change.from && change.from <= max);
            prop_assert_eq!(u32::from(change.from - change.to), blow.min(u32::from(change.from)));
            prop_assert_eq!(foe.is_defeated(), foe.hit_points() == 0);
        }
    }

    #[test]
    fn initiative_is_sorted_and_complete(
        hero_dex in -5..=10i8,
        foe_dex in prop::collection::vec(-5..=10i8, 0..=MAX_FOES),
        seed in any::<u64>(),
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let order = initiative_with(hero_dex, &[], &foe_dex, &mut RngRoller(&mut rng));
        prop_assert_eq!(order.len(), foe_dex.len() + 1);
        for pair in order.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.total() >= b.total());
            if a.total() == b.total() {
                prop_assert!(a.dex() >= b.dex());
                if a.dex() == b.dex() {
                    // Ties keep the hero first, then the foes in the order they were listed.
                    match (a.combatant(), b.combatant()) {
                        (Combatant::Foe(i), Combatant::Foe(j)) => prop_assert!(i < j),
                        (Combatant::Foe(_), Combatant::Hero) => prop_assert!(false, "hero after a tied foe"),
                        _ => {}
                    }
                }
            }
        }
        let heroes = order.iter().filter(|e| e.combatant() == Combatant::Hero).count();
        prop_assert_eq!(heroes, 1);
        for i in 0..foe_dex.len() {
            prop_assert_eq!(order.iter().filter(|e| e.combatant() == Combatant::Foe(i)).count(), 1);
        }
    }

    #[test]
    fn every_fight_ends_within_the_cap_and_pays_for_the_defeated(
        names in prop::collection::vec(creature_name(), 1..=MAX_FOES),
        hero_hp in prop_oneof![1..=30u16, Just(u16::MAX)],
        armor in 10..=20i64,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<prop::sample::Index>(), usize::from(MAX_ROUNDS)),
        actions in prop::collection::vec(action(vec!["Goblin".into()]), usize::from(MAX_ROUNDS)),
    ) {
        let creatures: Vec<Creature> = names
            .iter()
            .map(|n| Bestiary::srd().get(n).expect("listed").clone())
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut hero = Hero::new(ArmorClass::new(armor).expect("in range"), hero_hp, 1);
        let mut combat = Combat::default();
        let opening = combat.start(creatures.clone(), &hero, &mut rng).expect("a valid fight");
        let mut end = opening.end.clone();
        hero.hit_points = hero.hit_points.saturating_sub(u16::try_from(opening.damage_to_hero).unwrap_or(u16::MAX));
        let labels: Vec<String> = combat
            .current()
            .map(|e| e.foes().iter().map(|f| f.label().to_string()).collect())
            .unwrap_or_default();
        for (action, choice) in actions.into_iter().zip(choices) {
            if end.is_some() {
                break;
            }
            assert_running(&combat);
            // Aim attacks at a random foe of this fight (standing or not), or at no one.
            let action = match action {
                HeroAction::Attack { target, weapon } if target != "Nobody" => HeroAction::Attack {
                    target: labels[choice.index(labels.len())].clone(),
                    weapon,
                },
                other => other,
            };
            let before = combat.clone();
            // A refused action changes nothing; the hero then spends the turn instead, so every
            // step plays one round.
            let exchange = match combat.act(action, &hero, &mut rng) {
                Ok(exchange) => exchange,
                Err(_) => {
                    prop_assert_eq!(&combat, &before);
                    combat.act(HeroAction::Pass, &hero, &mut rng).expect("a fight is on")
                }
            };
            hero.hit_points = hero
                .hit_points
                .saturating_sub(u16::try_from(exchange.damage_to_hero).unwrap_or(u16::MAX));
            for attack in exchange.attacks() {
                if let Some(hp) = attack.target_hp() {
                    prop_assert!(hp.to <= hp.from && hp.from <= hp.max);
                }
            }
            end = exchange.end;
        }
        let end = end.expect("the fight ended within the round cap");
        prop_assert!(!combat.is_running());
        prop_assert!(end.rounds <= MAX_ROUNDS);
        // The experience is the defeated foes' ratings', summed.
        let xp: u32 = end
            .defeated
            .iter()
            .map(|label| {
                let index = labels.iter().position(|l| l == label.as_str()).expect("a foe of this fight");
                creatures[index].xp()
            })
            .sum();
        prop_assert_eq!(end.xp, xp);
        if end.outcome == Outcome::Victory {
            prop_assert_eq!(end.defeated.len(), creatures.len());
        }
        if end.outcome == Outcome::HeroDown {
            prop_assert_eq!(hero.hit_points, 0);
        }
    }

    #[test]
    fn made_foes_grow_with_their_rating(a in 0..ChallengeRating::COUNT, b in 0..ChallengeRating::COUNT) {
        let rating = |i| ChallengeRating::all().nth(i).expect("in range");
        let (low, high) = (rating(a.min(b)), rating(a.max(b)));
        let weak = Creature::from_rating("Weak", low).expect("valid");
        let strong = Creature::from_rating("Strong", high).expect("valid");
        prop_assert!(weak.armor_class() <= strong.armor_class());
        prop_assert!(weak.hit_points() <= strong.hit_points());
        let (wa, sa) = (&weak.attacks()[0], &strong.attacks()[0]);
        prop_assert!(wa.to_hit() <= sa.to_hit());
        prop_assert!(wa.damage().average() <= sa.damage().average());
        prop_assert!(weak.xp() <= strong.xp());
        if a != b {
            prop_assert!(weak.xp() < strong.xp());
            prop_assert!(weak.hit_points() < strong.hit_points());
        }
    }
}

/// An ally for a random fight: a seat or a companion (a healer or not), named by its place.
fn ally() -> impl Strategy<Value = (bool, u16, u16, i64, bool)> {
    (
        any::<bool>(),
        1..=30u16,
        0..=30u16,
        10..=20i64,
        any::<bool>(),
    )
}

/// The allies of a random fight from their strategies' values.
fn allies(made: &[(bool, u16, u16, i64, bool)]) -> Vec<Ally> {
    let mace = AttackProfile::new(
        AttackName::new("mace").expect("valid"),
        4,
        DiceExpr::parse("1d6").expect("valid"),
        2,
        DamageType::Bludgeoning,
    )
    .expect("in bounds");
    made.iter()
        .enumerate()
        .map(|(i, &(seat, max, hp, armor, healer))| {
            let kind = if seat {
                AllyKind::Seat(1)
            } else {
                AllyKind::Companion
            };
            let ally = Ally {
                max_hit_points: max,
                ..Ally::new(
                    crate::game::text::CharacterName::new(&format!("Ally {i}")).expect("valid"),
                    kind,
                    ArmorClass::new(armor).expect("in range"),
                    hp.min(max),
                    1,
                    mace.clone(),
                )
            };
            if healer {
                ally.with_healing(DiceExpr::parse("1d8+3").expect("valid"), 2)
            } else {
                ally
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fights_with_allies_wait_on_a_standing_player_and_end(
        names in prop::collection::vec(creature_name(), 1..=4),
        made in prop::collection::vec(ally(), 1..=MAX_ALLIES),
        hero_hp in 1..=30u16,
        seed in any::<u64>(),
    ) {
        let creatures: Vec<Creature> = names
            .iter()
            .map(|n| Bestiary::srd().get(n).expect("listed").clone())
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut hero = Hero::new(ArmorClass::new(14).expect("in range"), hero_hp, 1);
        let mut combat = Combat::default();
        let mut exchange = combat
            .start_with_allies(creatures, &hero, allies(&made), &mut rng)
            .expect("a valid fight");
        let mut calls = 0;
        while exchange.end.is_none() {
            calls += 1;
            prop_assert!(calls <= (MAX_ALLIES + 1) * usize::from(MAX_ROUNDS), "the fight never ends");
            hero.hit_points = exchange.hero_hit_points.unwrap_or_else(|| {
                let damage = u16::try_from(exchange.damage_to_hero).unwrap_or(u16::MAX);
                hero.hit_points.saturating_sub(damage)
            });
            let encounter = combat.current().expect("running");
            for change in &exchange.ally_changes {
                prop_assert_eq!(encounter.allies()[change.ally].hit_points(), change.to);
            }
            for ally in encounter.allies() {
                prop_assert!(ally.hit_points() <= ally.max_hit_points());
            }
            let json = serde_json::to_string(&combat).expect("serialise");
            prop_assert_eq!(&serde_json::from_str::<Combat>(&json).expect("reads back"), &combat);
            let target = encounter.standing().next().expect("a foe stands").label().to_string();
            exchange = match encounter.waiting_on() {
                Combatant::Hero => {
                    prop_assert!(hero.hit_points > 0, "waiting on a hero at 0 HP");
                    combat.act(HeroAction::Dodge, &hero, &mut rng)
                }
                Combatant::Ally(i) => {
                    let ally = &encounter.allies()[i];
                    prop_assert!(ally.is_seat() && ally.is_standing());
                    let weapon = ally.attack().clone();
                    combat.act_as_ally(i, HeroAction::Attack { target, weapon }, &hero, &mut rng)
                }
                Combatant::Foe(_) => panic!("waiting on a foe"),
            }
            .expect("the player's move");
        }
        prop_assert!(!combat.is_running());
    }
}
