//! Property tests: the dice parser never panics, every roll lies within its notation's range,
//! any sequence of deltas keeps every sheet invariant (items equipped and used included), and a
//! healing potion heals what its roll shows, never past the maximum.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::attributes::Attribute;
use super::conditions::Condition;
use super::creation::{point_cost, CharacterDraft, ScoreMethod, POINT_BUY_BUDGET, STANDARD_ARRAY};
use super::delta::{Change, RestKind, StateDelta};
use super::dice::{DiceExpr, Keep};
use super::inventory::{Inventory, NewItem, Quantity};
use super::item_kind::Slot;
use super::oracle::{answer, Likelihood, Percentile};
use super::progression;
use super::sheet::tests::mira;
use super::sheet::Level;
use super::sheet::{CharacterSheet, HitPoints, Sanity};
use super::stakes::{Stakes, Vitality};
use super::text::{ConditionName, ItemName, LocationName, Slug};

/// Checks every invariant a sheet must keep, including that it survives a serde round trip
/// (deserialisation re-validates every part).
fn assert_invariants(sheet: &CharacterSheet) {
    let hp = sheet.hit_points();
    assert!((1..=999).contains(&hp.max()), "max HP {}", hp.max());
    assert!(
        hp.current() <= hp.max(),
        "HP {} > max {}",
        hp.current(),
        hp.max()
    );
    assert!((1..=20).contains(&sheet.level().value()));
    for attribute in Attribute::ALL {
        assert!((1..=30).contains(&sheet.attributes().get(attribute).value()));
    }
    assert_eq!(
        hp.current() > 0,
        sheet.vitality() == Vitality::Up,
        "HP {} but {:?}",
        hp.current(),
        sheet.vitality()
    );
    assert!(sheet.level() >= progression::level_for(Level::default(), 0));
    if let Some(sanity) = sheet.sanity() {
        assert!(sanity.value() <= 100);
    }
    let items = sheet.inventory().items();
    assert!(items.len() <= Inventory::MAX_ITEMS);
    for (i, item) in items.iter().enumerate() {
        assert!((1..=999).contains(&item.quantity().value()));
        assert!(items[..i].iter().all(|other| other.slug() != item.slug()));
    }
    for slot in [Slot::Weapon, Slot::Armor, Slot::Shield] {
        let held = items
            .iter()
            .filter(|item| item.is_equipped() && item.kind().slot() == Some(slot));
        assert!(held.count() <= 1, "two in the {slot:?} slot");
    }
    assert!(items
        .iter()
        .all(|item| !item.is_equipped() || item.kind().slot().is_some()));
    assert!((5..=31).contains(&sheet.armor_class().value()));
    assert!(sheet.conditions().len() <= 20);
    let json = serde_json::to_string(sheet).expect("serialise");
    let back: CharacterSheet = serde_json::from_str(&json).expect("stored sheet re-validates");
    assert_eq!(&back, sheet);
}

/// Names from a small pool, so items stack, get used up and go missing; some are weapons,
/// armour, a shield and consumables.
const NAMES: [&str; 12] = [
    "Torch",
    "torch",
    "Rusty key",
    "Rope",
    "Gold coin",
    "Sandwich",
    "Longsword",
    "Dagger",
    "Chain mail",
    "Shield",
    "Healing potion",
    "Antitoxin",
];

/// Equipping, putting away and using items from the pool, with rolls that fit the healing
/// potion's dice or do not.
fn item_delta() -> impl Strategy<Value = StateDelta> {
    let slug = prop::sample::select(NAMES.as_slice())
        .prop_map(|name| Slug::new(name).expect("pool names slugify"));
    let roll =
        (prop::sample::select(vec!["2d4+2", "1d4"]), any::<u64>()).prop_map(|(dice, seed)| {
            let dice = DiceExpr::parse(dice).expect("valid");
            dice.roll(&mut StdRng::seed_from_u64(seed))
        });
    prop_oneof![
        slug.clone().prop_map(|slug| StateDelta::Equip { slug }),
        slug.clone().prop_map(|slug| StateDelta::Unequip { slug }),
        (slug, prop::option::of(roll)).prop_map(|(slug, roll)| StateDelta::UseItem { slug, roll }),
    ]
}

fn amount() -> impl Strategy<Value = i32> {
    prop_oneof![-30..=30i32, any::<i32>(), Just(i32::MIN), Just(i32::MAX)]
}

fn delta() -> impl Strategy<Value = StateDelta> {
    let name = prop::sample::select(NAMES.as_slice());
    prop_oneof![
        amount().prop_map(|amount| StateDelta::ChangeHp { amount }),
        amount().prop_map(|hp| StateDelta::SetHp { hp }),
        amount().prop_map(|max_hp| StateDelta::SetMaxHp { max_hp }),
        amount().prop_map(|level| StateDelta::SetLevel { level }),
        (0..6usize, amount()).prop_map(|(i, score)| StateDelta::SetAttribute {
            attribute: Attribute::ALL[i],
            score,
        }),
        amount().prop_map(|amount| StateDelta::ChangeSanity { amount }),
        (name.clone(), 1..=999i64).prop_map(|(name, quantity)| StateDelta::AddItem {
            item: NewItem::new(
                ItemName::new(name).expect("pool names are valid"),
                None,
                Quantity::new(quantity).expect("in range"),
            )
            .expect("pool names slugify"),
        }),
        (name, amount()).prop_map(|(name, change)| StateDelta::ChangeItemQuantity {
            slug: Slug::new(name).expect("pool names slugify"),
            change,
        }),
        prop::sample::select(vec!["Poisoned", "poisoned", "Blessed", "Tired"]).prop_map(|name| {
            StateDelta::AddCondition {
                condition: Condition::named(ConditionName::new(name).expect("valid")),
            }
        }),
        prop::sample::select(vec!["Poisoned", "Blessed", "Tired"]).prop_map(|name| {
            StateDelta::RemoveCondition {
                name: ConditionName::new(name).expect("valid"),
            }
        }),
        prop::sample::select(vec!["Level 0", "Level 1", "The crypt"]).prop_map(|location| {
            StateDelta::MoveTo {
                location: LocationName::new(location).expect("valid"),
            }
        }),
        any::<u32>().prop_map(|minutes| StateDelta::AdvanceTime { minutes }),
        prop_oneof![0..=2_000u32, any::<u32>()]
            .prop_map(|amount| StateDelta::GainExperience { amount }),
        (1..=20u8).prop_map(|die| StateDelta::DeathSave { die }),
        any::<bool>().prop_map(|long| StateDelta::Rest {
            kind: if long {
                RestKind::Long
            } else {
                RestKind::Short
            },
        }),
        item_delta(),
    ]
}

fn sheet() -> impl Strategy<Value = CharacterSheet> {
    (any::<bool>(), any::<bool>()).prop_map(|(sane, gritty)| {
        let stakes = if gritty {
            Stakes::Gritty
        } else {
            Stakes::Heroic
        };
        if sane {
            mira()
                .with_sanity(Sanity::new(50).expect("in range"))
                .with_stakes(stakes)
        } else {
            mira().with_stakes(stakes)
        }
    })
}

/// A valid dice term as text, with its expected shape.
fn term() -> impl Strategy<Value = String> {
    (any::<bool>(), 1..=100u8, 2..=1000u16, 0..3u8, any::<u8>()).prop_map(
        |(negative, count, sides, keep, n)| {
            let sign = if negative { "-" } else { "+" };
            let keep_n = n % count + 1;
            let keep = match keep {
                0 => String::new(),
                1 => format!("kh{keep_n}"),
                _ => format!("kl{keep_n}"),
            };
            format!("{sign}{count}d{sides}{keep}")
        },
    )
}

fn notation() -> impl Strategy<Value = String> {
    (prop::collection::vec(term(), 1..=4), -1000..=1000i32)
        .prop_map(|(terms, modifier)| format!("{}{modifier:+}", terms.concat()))
}

proptest! {
    #[test]
    fn parser_never_panics_on_any_string(input in any::<String>()) {
        let _ = DiceExpr::parse(&input);
    }

    #[test]
    fn parser_never_panics_on_dice_like_strings(input in "[0-9dDkKhHlL%+\\- −]{0,40}") {
        if let Ok(expr) = DiceExpr::parse(&input) {
            // Whatever parses has a canonical form that parses back to itself.
            let again = DiceExpr::parse(&expr.to_string()).expect("canonical form parses");
            prop_assert_eq!(again, expr);
        }
    }

    #[test]
    fn every_roll_lies_within_its_range(notation in notation(), seed in any::<u64>()) {
        let expr = DiceExpr::parse(&notation).expect("generated notation is valid");
        let roll = expr.roll(&mut StdRng::seed_from_u64(seed));
        prop_assert!(expr.min_total() <= roll.total() && roll.total() <= expr.max_total(),
            "{} rolled {} outside {}..={}", notation, roll.total(), expr.min_total(), expr.max_total());
        prop_assert_eq!(roll.terms().len(), expr.terms().len());
        for (term, rolled) in expr.terms().iter().zip(roll.terms()) {
            prop_assert_eq!(rolled.dice().len(), usize::from(term.count()));
            let kept = rolled.dice().iter().filter(|d| d.is_kept()).count();
            prop_assert_eq!(kept, usize::from(term.kept_count()));
            for die in rolled.dice() {
                prop_assert!((1..=term.sides()).contains(&die.value()));
            }
            if let Some(Keep::Highest(_)) = term.keep() {
                let lowest_kept = rolled.dice().iter().filter(|d| d.is_kept()).map(|d| d.value()).min();
                let highest_dropped = rolled.dice().iter().filter(|d| !d.is_kept()).map(|d| d.value()).max();
                if let (Some(kept), Some(dropped)) = (lowest_kept, highest_dropped) {
                    prop_assert!(kept >= dropped);
                }
            }
        }
        let sum: i32 = roll.terms().iter().map(|t| t.subtotal()).sum();
        prop_assert_eq!(roll.total(), sum + roll.modifier());
    }

    #[test]
    fn random_deltas_keep_every_invariant(
        mut sheet in sheet(),
        deltas in prop::collection::vec(delta(), 0..40),
    ) {
        for delta in &deltas {
            let before = sheet.clone();
            match delta.apply(&mut sheet) {
                Ok(changes) => {
                    for change in changes.changes() {
                        prop_assert!(!change.label().is_empty());
                        if let Change::Hp { to, .. } = change {
                            prop_assert!(*to <= sheet.hit_points().max());
                        }
                    }
                    if changes.is_empty() {
                        prop_assert_eq!(&sheet, &before);
                    }
                }
                Err(_) => prop_assert_eq!(&sheet, &before),
            }
            assert_invariants(&sheet);
        }
    }

    #[test]
    fn apply_all_is_all_or_nothing(
        sheet in sheet(),
        deltas in prop::collection::vec(delta(), 0..20),
    ) {
        let mut all = sheet.clone();
        let mut one_by_one = sheet.clone();
        let expected = deltas.iter().try_for_each(|d| d.apply(&mut one_by_one).map(drop));
        match StateDelta::apply_all(&deltas, &mut all) {
            Ok(_) => {
                prop_assert!(expected.is_ok());
                prop_assert_eq!(&all, &one_by_one);
            }
            Err(_) => {
                prop_assert!(expected.is_err());
                prop_assert_eq!(&all, &sheet);
            }
        }
        assert_invariants(&all);
    }

    #[test]
    fn a_healing_potion_heals_its_roll_up_to_the_maximum_and_is_used_up(
        max in 1..=60i64,
        wound in 0..=60i64,
        potions in 1..=5i64,
        seed in any::<u64>(),
    ) {
        let potion = NewItem::new(
            ItemName::new("Healing potion").expect("valid"),
            None,
            Quantity::new(potions).expect("in range"),
        )
        .expect("slugifies");
        let mut sheet = mira().with_hit_points(HitPoints::new((max - wound).max(0), max).expect("in range"));
        StateDelta::AddItem { item: potion }.apply(&mut sheet).expect("carried");
        let slug = Slug::new("healing-potion").expect("valid");
        let before = sheet.clone();
        let mut rng = StdRng::seed_from_u64(seed);
        let delta = match StateDelta::use_item(&sheet, &slug, &mut rng) {
            Ok(delta) => delta,
            Err(error) => {
                // Only at full hit points, and then nothing is used up.
                prop_assert_eq!(before.hit_points().current(), before.hit_points().max());
                prop_assert!(error.to_string().contains("full hit points"));
                return Ok(());
            }
        };
        let roll = delta.roll().expect("healing is rolled").clone();
        prop_assert!(DiceExpr::parse("2d4+2").expect("valid").explains(&roll));
        delta.apply(&mut sheet).expect("a potion carried by a hurt character");
        let hp = sheet.hit_points();
        let expected = (i64::from(before.hit_points().current()) + i64::from(roll.total())).min(max);
        prop_assert_eq!(i64::from(hp.current()), expected);
        prop_assert!(hp.current() <= hp.max() && hp.current() > before.hit_points().current());
        prop_assert_eq!(sheet.vitality(), Vitality::Up);
        let left = sheet.inventory().get(&slug).map_or(0, |item| i64::from(item.quantity().value()));
        prop_assert_eq!(left, potions - 1);
        assert_invariants(&sheet);
    }

    #[test]
    fn point_buy_accepts_exactly_the_affordable_scores(
        scores in prop::collection::vec(6..=17i64, 6),
        class in prop::sample::select(vec!["Rogue", "Wizard", "Lamplighter"]),
    ) {
        let draft = CharacterDraft {
            name: "Vex".into(),
            class: class.into(),
            method: ScoreMethod::PointBuy,
            scores: Some(scores.clone()),
            ..CharacterDraft::default()
        };
        let costs: Option<Vec<u32>> = scores.iter().map(|s| point_cost(*s)).collect();
        let affordable = costs.is_some_and(|c| c.iter().sum::<u32>() <= POINT_BUY_BUDGET);
        match draft.create(LocationName::new("Gate").expect("valid")) {
            Ok(sheet) => {
                prop_assert!(affordable);
                for (attribute, score) in Attribute::ALL.into_iter().zip(&scores) {
                    prop_assert_eq!(i64::from(sheet.attributes().get(attribute).value()), *score);
                }
                let hp = sheet.hit_points();
                prop_assert_eq!(hp.current(), hp.max());
                prop_assert!(hp.max() >= 1 && hp.max() <= 14);
                assert_invariants(&sheet);
            }
            Err(_) => prop_assert!(!affordable),
        }
    }

    #[test]
    fn the_standard_array_may_be_arranged_in_any_order(
        order in Just(STANDARD_ARRAY.to_vec()).prop_shuffle(),
        swap in 0..6usize,
    ) {
        let mut draft = CharacterDraft {
            name: "Vex".into(),
            class: "Fighter".into(),
            scores: Some(order.iter().map(|s| i64::from(*s)).collect()),
            ..CharacterDraft::default()
        };
        let start = LocationName::new("Gate").expect("valid");
        prop_assert!(draft.create(start.clone()).is_ok());
        if let Some(scores) = draft.scores.as_mut() {
            scores[swap] += 1;
        }
        prop_assert!(draft.create(start).is_err());
    }

    #[test]
    fn the_oracle_says_yes_exactly_at_or_under_the_threshold(roll in 1..=100u8) {
        let die = Percentile::try_from(roll).expect("1..=100");
        let mut was_yes = false;
        for likelihood in Likelihood::ALL {
            let yes = answer(likelihood, die).is_yes();
            prop_assert_eq!(yes, roll <= likelihood.threshold());
            // A likelier question never turns a yes into a no.
            prop_assert!(yes || !was_yes);
            was_yes = yes;
        }
    }
}
