//! Plans the rules build for a model that cannot write one: the premise picks a shape (a rescue,
//! a heist, a mystery, a hunt, an escape) by its words, and the shape's table gives the goal, the
//! chapters (whose goals are a person to meet or a place to reach, which any model's scenes can
//! bring about), the threats and the key people.

use super::attitude::Attitude;
use super::plan::{Chapter, ChapterMark, KeyPerson, PlanDraft, StoryPlan, Threat};
use crate::game::text::{JournalName, LocationName, PlanLine, PlanTitle};

/// The shape of a story.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Someone must be brought back.
    Rescue,
    /// Something must be taken.
    Heist,
    /// The truth must be found.
    Mystery,
    /// A beast must be tracked down.
    Hunt,
    /// The hero must get out.
    Escape,
}

/// Every shape, in the order a tie is settled.
pub const SHAPES: [Shape; 5] = [
    Shape::Rescue,
    Shape::Heist,
    Shape::Hunt,
    Shape::Escape,
    Shape::Mystery,
];

/// A chapter row: title, goal, the mark (a person to meet, or a place when it starts with
/// "The "… and is listed as a place), what a failure costs.
type ChapterRow = (&'static str, &'static str, Mark, &'static str);

/// What a chapter of a shape asks.
#[derive(Clone, Copy)]
enum Mark {
    Meet(&'static str),
    Reach(&'static str),
}

/// A threat row: name, segments, what fills it, what happens when full.
type ThreatRow = (&'static str, u8, &'static str, &'static str);

/// A person row: name, motive, what they know, their secret, their first attitude.
type PersonRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Attitude,
);

/// A shape's table.
struct Table {
    words: &'static [&'static str],
    goal: &'static str,
    chapters: [ChapterRow; 3],
    threats: [ThreatRow; 2],
    people: [PersonRow; 3],
}

impl Shape {
    /// The shape whose words the premise uses most (a mystery when it uses none).
    pub fn of(premise: &str) -> Self {
        let premise = premise.to_lowercase();
        let score = |shape: &Shape| {
            shape
                .table()
                .words
                .iter()
                .filter(|word| premise.contains(*word))
                .count()
        };
        SHAPES
            .iter()
            .copied()
            .rev()
            .max_by_key(score)
            .filter(|shape| score(shape) > 0)
            .unwrap_or(Shape::Mystery)
    }

    /// Its name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rescue => "rescue",
            Self::Heist => "heist",
            Self::Mystery => "mystery",
            Self::Hunt => "hunt",
            Self::Escape => "escape",
        }
    }

    /// The plan the rules build for this shape.
    pub fn plan(self) -> StoryPlan {
        let table = self.table();
        let draft = PlanDraft {
            goal: line(table.goal),
            chapters: table.chapters.iter().map(chapter).collect(),
            threats: table.threats.iter().map(threat).collect(),
            people: table.people.iter().map(person).collect(),
        };
        StoryPlan::try_from(draft).expect("every shape's plan is within bounds (tested)")
    }

    /// The places the plan asks the hero to reach, in chapter order.
    pub fn places(self) -> Vec<LocationName> {
        self.table()
            .chapters
            .iter()
            .filter_map(|(_, _, mark, _)| match mark {
                Mark::Reach(place) => Some(location(place)),
                Mark::Meet(_) => None,
            })
            .collect()
    }

    fn table(self) -> &'static Table {
        match self {
            Self::Rescue => &RESCUE,
            Self::Heist => &HEIST,
            Self::Mystery => &MYSTERY,
            Self::Hunt => &HUNT,
            Self::Escape => &ESCAPE,
        }
    }
}

fn line(text: &str) -> PlanLine {
    PlanLine::new(text).expect("shape lines are within bounds (tested)")
}

fn title(text: &str) -> PlanTitle {
    PlanTitle::new(text).expect("shape titles are within bounds (tested)")
}

fn name(text: &str) -> JournalName {
    JournalName::new(text).expect("shape names are within bounds (tested)")
}

fn location(text: &str) -> LocationName {
    LocationName::new(text).expect("shape places are within bounds (tested)")
}

fn chapter(&(title_text, goal, mark, if_failed): &ChapterRow) -> Chapter {
    Chapter {
        title: title(title_text),
        goal: line(goal),
        mark: match mark {
            Mark::Meet(person) => ChapterMark::Meet {
                person: name(person),
            },
            Mark::Reach(place) => ChapterMark::Reach {
                place: location(place),
            },
        },
        if_failed: line(if_failed),
    }
}

fn threat(&(name_text, segments, fills, when_full): &ThreatRow) -> Threat {
    Threat {
        name: title(name_text),
        segments,
        fills: line(fills),
        when_full: line(when_full),
    }
}

fn person(&(who, motive, knows, secret, attitude): &PersonRow) -> KeyPerson {
    KeyPerson {
        name: name(who),
        motive: line(motive),
        knows: line(knows),
        secret: line(secret),
        attitude,
    }
}

static RESCUE: Table = Table {
    words: &[
        "rescue", "captive", "kidnap", "abduct", "hostage", "missing", "save ",
    ],
    goal: "Bring the captive home alive",
    chapters: [
        (
            "A cold trail",
            "Learn where the captive was taken",
            Mark::Meet("the witness"),
            "the trail goes cold and the captors gain a day",
        ),
        (
            "The hideout",
            "Find the place the captive is held",
            Mark::Reach("The hideout"),
            "the captive is moved somewhere worse",
        ),
        (
            "Out alive",
            "Free the captive and get them out",
            Mark::Meet("the captive"),
            "the captive is lost for good",
        ),
    ],
    threats: [
        (
            "The captors' deadline",
            6,
            "time passing and raised alarms",
            "the captors move the captive beyond reach",
        ),
        (
            "The pursuit",
            4,
            "failed attempts to stay unseen",
            "armed pursuers close the road home",
        ),
    ],
    people: [
        (
            "the witness",
            "to stay out of trouble",
            "which way the captors went",
            "was paid to look away",
            Attitude::Wary,
        ),
        (
            "the jailer",
            "his pay and his skin",
            "where the keys hang",
            "fears his own master more than you",
            Attitude::Hostile,
        ),
        (
            "the captive",
            "to go home",
            "who gave the order",
            "came here willingly at first",
            Attitude::Friendly,
        ),
    ],
};

static HEIST: Table = Table {
    words: &[
        "steal", "heist", "vault", "rob", "thief", "loot", "treasure",
    ],
    goal: "Take the prize and walk away unseen",
    chapters: [
        (
            "The inside line",
            "Win over someone who knows the vault",
            Mark::Meet("the steward"),
            "the guards learn someone is asking questions",
        ),
        (
            "The vault",
            "Get inside the vault",
            Mark::Reach("The vault"),
            "the vault's wards wake",
        ),
        (
            "Clean away",
            "Slip out with the prize by the back way",
            Mark::Reach("The back way"),
            "the doors are barred with you inside",
        ),
    ],
    threats: [
        (
            "The alarm",
            6,
            "noise, failed tricks and time",
            "the whole house wakes and the doors are barred",
        ),
        (
            "The rival crew",
            4,
            "time passing",
            "the rival crew strikes first and takes the prize",
        ),
    ],
    people: [
        (
            "the steward",
            "a debt paid off",
            "when the guard changes",
            "is stealing from the house himself",
            Attitude::Wary,
        ),
        (
            "the captain of the guard",
            "order in the house",
            "every patrol route",
            "can be bought",
            Attitude::Hostile,
        ),
        (
            "the fence",
            "a fair cut",
            "who wants the prize",
            "sold the plan to the rivals too",
            Attitude::Indifferent,
        ),
    ],
};

static MYSTERY: Table = Table {
    words: &[
        "murder",
        "mystery",
        "strange",
        "vanish",
        "secret",
        "investigat",
        "disappear",
    ],
    goal: "Find out the truth behind what happened",
    chapters: [
        (
            "First questions",
            "Find someone who saw something",
            Mark::Meet("the witness"),
            "the witness vanishes before they can talk",
        ),
        (
            "The scene",
            "Search the place where it happened",
            Mark::Reach("The scene of the crime"),
            "the evidence is cleared away",
        ),
        (
            "The culprit",
            "Confront whoever is behind it",
            Mark::Meet("the culprit"),
            "the culprit strikes again",
        ),
    ],
    threats: [
        (
            "The cover-up",
            6,
            "time passing and questions asked too loudly",
            "the last evidence burns and the witnesses fall silent",
        ),
        (
            "The next victim",
            4,
            "failed leads",
            "someone else is taken",
        ),
    ],
    people: [
        (
            "the witness",
            "to be believed",
            "a face seen that night",
            "was there for reasons of their own",
            Attitude::Wary,
        ),
        (
            "the culprit",
            "to keep the secret buried",
            "everything that happened",
            "acts for someone greater",
            Attitude::Indifferent,
        ),
        (
            "the grieving friend",
            "justice",
            "the victim's last words",
            "hid a letter that names the culprit",
            Attitude::Friendly,
        ),
    ],
};

static HUNT: Table = Table {
    words: &[
        "hunt", "beast", "monster", "track", "creature", "wolf", "dragon",
    ],
    goal: "Track the beast down and end it",
    chapters: [
        (
            "Signs",
            "Find a hunter who knows its ways",
            Mark::Meet("the old hunter"),
            "the beast kills again",
        ),
        (
            "The lair",
            "Follow its tracks to the lair",
            Mark::Reach("The lair"),
            "the beast moves its hunting ground",
        ),
        (
            "The last stand",
            "Face the beast where it sleeps",
            Mark::Reach("The heart of the lair"),
            "the beast escapes and grows bolder",
        ),
    ],
    threats: [
        (
            "The beast's hunger",
            6,
            "time passing",
            "the beast raids the village in the night",
        ),
        (
            "The failing light",
            4,
            "time spent and failed tracking",
            "night falls and the hunter becomes the hunted",
        ),
    ],
    people: [
        (
            "the old hunter",
            "revenge for a lost son",
            "where the beast drinks",
            "once fed it to keep it away",
            Attitude::Wary,
        ),
        (
            "the reeve",
            "quiet in the village",
            "who was taken",
            "blames outsiders for the deaths",
            Attitude::Indifferent,
        ),
        (
            "the survivor",
            "to forget",
            "how the beast moves",
            "bears its mark and dreams of it",
            Attitude::Friendly,
        ),
    ],
};

static ESCAPE: Table = Table {
    words: &[
        "escape", "flee", "trapped", "prison", "flood", "collapse", "cell",
    ],
    goal: "Get out before it is too late",
    chapters: [
        (
            "Another way",
            "Find someone who knows another way out",
            Mark::Meet("the fellow prisoner"),
            "the guards double the watch",
        ),
        (
            "The passage",
            "Reach the hidden passage",
            Mark::Reach("The hidden passage"),
            "the passage floods",
        ),
        (
            "Open sky",
            "Reach the open sky",
            Mark::Reach("The way out"),
            "you are caught and dragged back",
        ),
    ],
    threats: [
        (
            "The rising danger",
            6,
            "time passing",
            "the way behind you closes for good",
        ),
        (
            "The search",
            4,
            "noise and failed attempts",
            "the hunters find your trail",
        ),
    ],
    people: [
        (
            "the fellow prisoner",
            "to get out too",
            "the guards' habits",
            "would trade you for freedom",
            Attitude::Wary,
        ),
        (
            "the warden",
            "that no one leaves",
            "every door",
            "is afraid of what lies below",
            Attitude::Hostile,
        ),
        (
            "the smuggler",
            "coin",
            "a boat waiting",
            "works for the warden",
            Attitude::Indifferent,
        ),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_premise_picks_the_shape_by_its_words() {
        let picked: Vec<Shape> = [
            "Rescue the mayor's daughter from the bandits",
            "Steal the crown from the duke's vault",
            "A beast stalks the moor; hunt it",
            "The mine floods and you are trapped below",
            "A strange silence in Hollowmere",
            "A quiet morning",
        ]
        .iter()
        .map(|premise| Shape::of(premise))
        .collect();
        assert_eq!(
            picked,
            [
                Shape::Rescue,
                Shape::Heist,
                Shape::Hunt,
                Shape::Escape,
                Shape::Mystery,
                Shape::Mystery
            ]
        );
    }

    #[test]
    fn every_shape_builds_a_plan_within_bounds_with_places_to_reach() {
        for shape in SHAPES {
            let plan = shape.plan();
            assert_eq!(plan.chapters().len(), 3, "{}", shape.name());
            assert_eq!(plan.threats().len(), 2);
            assert_eq!(plan.people().len(), 3);
            assert!(!shape.places().is_empty(), "{} has a place", shape.name());
            // Round trip through the stored form, checked again on the way in.
            let json = serde_json::to_string(&plan).unwrap();
            assert_eq!(serde_json::from_str::<StoryPlan>(&json).unwrap(), plan);
            assert!(plan.compact().len() < 1_500, "{}", plan.compact().len());
        }
    }
}
