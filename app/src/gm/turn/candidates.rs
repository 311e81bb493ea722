//! Moves the rules propose from the scene, for a model too small to write its own: verbs ×
//! the things the last scene names ("Approach the drowned gate carefully"), each with the
//! check the rules attach to it. The model picks among them (its schema allows only these
//! descriptions) and the rules, not the model, decide which of them roll. The fallback actions
//! every model gets when its own are unusable are built the same way.

use super::spine_turn::social_skill;
use crate::campaign::state::CampaignState;
use crate::game::action::{ActionDraft, ActionListDraft};
use crate::game::spine::attitude::names;
use crate::game::spine::plan::ChapterMark;
use crate::game::spine::Spine;
use crate::game::{Action, ActionList, Attribute};
use crate::gm::prose::lexicon::PEOPLE;
use crate::gm::prose::scene::{last_scene, things_named};

/// How many moves a list has at least, when the rules have enough.
const TOPPED_UP: usize = 3;

/// The difficulty of every check the rules attach.
const DC: i64 = 12;

/// A move the rules propose, and its check (why, on which attribute), if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// What the player does.
    pub description: String,
    /// The check: its reason and attribute.
    pub check: Option<(&'static str, Attribute)>,
    /// What rides on its check (success, failure), when the rules say.
    pub stakes: Option<(String, String)>,
}

impl Candidate {
    fn new(description: String, check: Option<(&'static str, Attribute)>) -> Self {
        Self {
            description,
            check,
            stakes: None,
        }
    }

    /// Its verb, lower case (an id).
    fn verb(&self) -> String {
        self.description
            .split(' ')
            .next()
            .unwrap_or("move")
            .to_lowercase()
    }

    fn draft(&self, id: &str) -> ActionDraft {
        ActionDraft {
            id: id.to_owned(),
            description: self.description.clone(),
            dice_roll: self.check.map(|_| "1d20".to_owned()),
            dice_reason: self.check.map(|(reason, _)| reason.to_owned()),
            difficulty_class: self.check.map(|_| DC.into()),
            attribute: self
                .check
                .map(|(_, attribute)| attribute.abbreviation().to_owned()),
            skill: None,
            on_success: self.stakes.as_ref().map(|(success, _)| success.clone()),
            on_failure: self.stakes.as_ref().map(|(_, failure)| failure.clone()),
        }
    }
}

/// The moves for the scene that ends `state`, from the story's plan and the scene: the people
/// the scene brings in (a social check their attitude sets), the chapter's goal, the places the
/// map knows, the threats revealed (a failure ticks their clock), then the things the scene
/// names until there are enough; searching and waiting only when fewer than three name something.
/// The verbs change with the turn, so
/// the same thing is not offered in the same words every turn.
pub fn candidate_moves(state: &CampaignState) -> Vec<Candidate> {
    let scene = last_scene(state).unwrap_or(&state.premise);
    let turn = usize::try_from(state.turn).unwrap_or(0);
    let mut moves: Vec<Candidate> = Vec::new();
    for (n, person) in people_in(state, scene).into_iter().take(2).enumerate() {
        moves.push(person_move(&person, turn + n));
    }
    moves.extend(goal_move(state));
    moves.extend(
        places_to_go(state)
            .into_iter()
            .take(2)
            .map(|place| travel(&place)),
    );
    moves.extend(
        threats_known(state)
            .into_iter()
            .take(1)
            .map(|t| threat_move(&t, turn)),
    );
    for thing in things_in(state).into_iter().take(3) {
        if moves.len() >= ENOUGH {
            break;
        }
        if PEOPLE.contains(&thing.as_str()) || thing.split(' ').any(|w| PEOPLE.contains(&w)) {
            moves.push(person_move(&format!("the {thing}"), turn));
        }
        moves.push(examine(&thing, turn));
        moves.push(approach(&thing));
    }
    if moves.len() < TOPPED_UP {
        moves.extend(
            people_not_met(state)
                .into_iter()
                .take(TOPPED_UP - moves.len())
                .map(ask_about),
        );
    }
    // Moves that name nothing only when the story offers too few that do.
    if moves.len() < TOPPED_UP {
        moves.extend([search(), wait()]);
    }
    let mut seen = Vec::new();
    moves.retain(|m| {
        let new = !seen.contains(&m.description);
        seen.push(m.description.clone());
        new
    });
    moves
}

/// How many moves of the plan and the scene are enough before the scene's other things.
const ENOUGH: usize = 4;

/// The people the scene names: those met, then the plan's key people.
fn people_in(state: &CampaignState, scene: &str) -> Vec<String> {
    let spine = &state.spine;
    let met = spine
        .people
        .iter()
        .filter(|person| person.named_in(scene))
        .map(|person| person.name.to_string());
    let planned = spine
        .plan
        .iter()
        .flat_map(|plan| plan.people())
        .filter(|person| {
            names(person.name.as_str(), scene) && spine.person(&person.name).is_none()
        });
    met.chain(planned.map(|person| person.name.to_string()))
        .map(|name| lower_article(&name))
        .collect()
}

/// The plan's key people the hero has not met.
fn people_not_met(state: &CampaignState) -> Vec<String> {
    let spine = &state.spine;
    spine
        .plan
        .iter()
        .flat_map(|plan| plan.people())
        .filter(|person| spine.person(&person.name).is_none())
        .map(|person| lower_article(person.name.as_str()))
        .collect()
}

fn ask_about(person: String) -> Candidate {
    Candidate::new(
        format!("Ask around about {person}"),
        Some(("Investigation", Attribute::Intelligence)),
    )
}

/// The move towards the chapter's goal: looking for its person, travelling to its place,
/// searching for its item.
fn goal_move(state: &CampaignState) -> Option<Candidate> {
    let spine = &state.spine;
    let chapter = spine.plan.as_ref()?.chapters().get(spine.chapter)?;
    match &chapter.mark {
        ChapterMark::Meet { person } if spine.person(person).is_none() => Some(Candidate::new(
            format!("Look for {}", lower_article(person.as_str())),
            Some(("Investigation", Attribute::Intelligence)),
        )),
        ChapterMark::Reach { place } if !state.sheet.location().eq_ignore_case(place) => {
            Some(travel(place.as_str()))
        }
        ChapterMark::Find { item } => Some(Candidate::new(
            format!("Search for {}", lower_article(item.as_str())),
            Some(("Investigation", Attribute::Intelligence)),
        )),
        _ => None,
    }
}

/// The places the map knows that the hero can travel to: where here leads, places not yet
/// visited first.
fn places_to_go(state: &CampaignState) -> Vec<String> {
    let here = state.sheet.location();
    let places = state.map.places();
    let exits: Vec<&str> = places
        .iter()
        .find(|place| place.name.eq_ignore_case(here))
        .map(|place| place.exits.iter().map(|exit| exit.as_str()).collect())
        .unwrap_or_default();
    let mut known: Vec<(bool, String)> = places
        .iter()
        .filter(|place| {
            exits
                .iter()
                .any(|exit| place.name.as_str().eq_ignore_ascii_case(exit))
        })
        .map(|place| (place.visited, place.name.to_string()))
        .collect();
    known.sort_by_key(|(visited, _)| *visited);
    known.into_iter().map(|(_, name)| name).collect()
}

/// The threats the story has revealed whose clocks are not full.
fn threats_known(state: &CampaignState) -> Vec<String> {
    let spine = &state.spine;
    spine
        .plan
        .iter()
        .flat_map(|plan| plan.threats().iter().zip(&spine.clocks))
        .filter(|(_, clock)| clock.revealed && !clock.is_full())
        .map(|(threat, _)| lower_article(threat.name.as_str()))
        .collect()
}

/// `name` with a leading "The" in lower case, to sit inside a sentence.
fn lower_article(name: &str) -> String {
    match name.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => name.to_owned(),
    }
}

fn person_move(person: &str, turn: usize) -> Candidate {
    let words = [
        format!("Question {person}"),
        format!("Talk to {person}"),
        format!("Win over {person}"),
    ];
    Candidate::new(
        words[turn % words.len()].clone(),
        Some(("Persuasion", Attribute::Charisma)),
    )
}

fn travel(place: &str) -> Candidate {
    Candidate::new(format!("Travel to {}", lower_article(place)), None)
}

fn threat_move(threat: &str, turn: usize) -> Candidate {
    let words = [
        format!("Look for signs of {threat}"),
        format!("Find out what drives {threat}"),
    ];
    Candidate {
        description: words[turn % words.len()].clone(),
        check: Some(("Perception", Attribute::Wisdom)),
        stakes: Some((
            "you learn how to slow it".to_owned(),
            format!("{threat} draws closer"),
        )),
    }
}

/// The actions the rules offer when the model cannot produce valid ones (any model): looking
/// closer at the newest thing the last scene names, approaching the one before it, searching
/// and waiting.
pub fn fallback_actions(state: &CampaignState) -> ActionList {
    let mut things = things_in(state).into_iter();
    let mut moves: Vec<Candidate> = things
        .next()
        .map(|thing| examine(&thing, 0))
        .into_iter()
        .collect();
    moves.extend(things.next().map(|thing| approach(&thing)));
    moves.extend([search(), wait()]);
    let drafts = moves.iter().map(|m| m.draft(&m.verb())).collect();
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or_else(|_| {
            let safe = [
                Candidate::new("Look around carefully".to_owned(), None),
                Candidate::new("Wait and listen".to_owned(), None),
            ];
            ActionListDraft {
                actions: safe.iter().map(|m| m.draft(&m.verb())).collect(),
            }
            .validate()
            .map(|valid| valid.actions)
            .expect("the safe actions are valid (tested)")
        })
}

/// The things the last scene (else the premise) names, newest first.
fn things_in(state: &CampaignState) -> Vec<String> {
    let scene = last_scene(state).unwrap_or(&state.premise);
    things_named(scene).into_iter().rev().collect()
}

fn examine(thing: &str, turn: usize) -> Candidate {
    let words = [
        format!("Examine the {thing} closely"),
        format!("Take a closer look at the {thing}"),
    ];
    Candidate::new(words[turn % words.len()].clone(), None)
}

fn approach(thing: &str) -> Candidate {
    let check = Some(("Stealth", Attribute::Dexterity));
    Candidate::new(format!("Approach the {thing} carefully"), check)
}

fn search() -> Candidate {
    let check = Some(("Perception", Attribute::Wisdom));
    Candidate::new("Search the area for anything useful".to_owned(), check)
}

fn wait() -> Candidate {
    Candidate::new("Wait and listen for a moment".to_owned(), None)
}

/// The list with the rules' checks on every proposed move (whatever dice the model chose); if
/// none of them rolls, the first proposed move with a check added; topped up to three moves.
pub fn with_rules_checks(actions: &ActionList, candidates: &[Candidate]) -> ActionList {
    let mut drafts: Vec<ActionDraft> = actions
        .actions()
        .iter()
        .map(|action| match proposed(action, candidates) {
            Some(candidate) => candidate.draft(action.id().as_str()),
            None => as_draft(action),
        })
        .collect();
    let rolls = drafts.iter().any(|draft| draft.dice_roll.is_some());
    let unused = candidates.iter().find(|candidate| {
        candidate.check.is_some()
            && !drafts
                .iter()
                .any(|d| d.description == candidate.description)
    });
    if let (false, Some(candidate)) = (rolls, unused) {
        if drafts.len() < ActionList::MAX_ACTIONS {
            drafts.push(candidate.draft("check"));
        }
    }
    // A small model often picks one move twice: the list is topped up to three.
    for (n, candidate) in candidates.iter().enumerate() {
        if drafts.len() >= TOPPED_UP {
            break;
        }
        if !drafts
            .iter()
            .any(|d| d.description == candidate.description)
        {
            drafts.push(candidate.draft(&format!("more-{n}")));
        }
    }
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or_else(|_| actions.clone())
}

/// The list with every social check (Persuasion, Deception, Intimidation) asked of a person the
/// story knows made against the DC that person's attitude sets, whatever DC the model chose.
pub fn with_attitude_dcs(actions: ActionList, spine: &Spine) -> ActionList {
    let drafts: Vec<ActionDraft> = actions
        .actions()
        .iter()
        .map(|action| {
            let mut draft = as_draft(action);
            let person = spine.person_in(action.description().as_str());
            if let (Some(_), Some((_, attitude)), Some(_)) =
                (social_skill(action), person, action.difficulty_class())
            {
                draft.difficulty_class = Some(attitude.dc().into());
            }
            draft
        })
        .collect();
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or(actions)
}

/// The candidate `action` is, if any.
fn proposed<'c>(action: &Action, candidates: &'c [Candidate]) -> Option<&'c Candidate> {
    candidates
        .iter()
        .find(|candidate| candidate.description == action.description().as_str())
}

/// An action as a draft again.
fn as_draft(action: &Action) -> ActionDraft {
    ActionDraft {
        id: action.id().as_str().to_owned(),
        description: action.description().as_str().to_owned(),
        dice_roll: action.dice_roll().map(ToString::to_string),
        dice_reason: action
            .dice_reason()
            .map(|reason| reason.as_str().to_owned()),
        difficulty_class: action.difficulty_class().map(|dc| dc.value().into()),
        attribute: action
            .attribute()
            .map(|attribute| attribute.abbreviation().to_owned()),
        skill: action.skill().map(|skill| skill.name().to_owned()),
        on_success: action.stakes().map(|s| s.success.as_str().to_owned()),
        on_failure: action.stakes().map(|s| s.failure.as_str().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::ContextTurn;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::CharacterSheet;
    use crate::gm::llm::Message;

    fn state(scene: &str) -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Mira").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("Crypt").unwrap(),
        );
        let mut state = CampaignState::start("A flooded crypt", sheet);
        state.context.push(ContextTurn {
            turn: 1,
            messages: vec![Message::user("Begin"), Message::assistant(scene)],
        });
        state
    }

    #[test]
    fn the_moves_come_from_the_things_the_scene_names() {
        let moves = candidate_moves(&state("A guard dozes by the drowned gate."));
        let descriptions: Vec<&str> = moves.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            descriptions,
            [
                "Examine the drowned gate closely",
                "Approach the drowned gate carefully",
                "Question the guard",
                "Examine the guard closely",
                "Approach the guard carefully",
            ]
        );
    }

    /// The thing a move examines or approaches: "Examine the torches closely" names "torches".
    fn thing_of(description: &str) -> Option<&str> {
        let rest = description
            .strip_prefix("Examine the ")
            .or_else(|| description.strip_prefix("Approach the "))?;
        rest.strip_suffix(" closely")
            .or_else(|| rest.strip_suffix(" carefully"))
    }

    #[test]
    fn the_moves_name_nouns_not_adjectives_quantities_or_vague_words() {
        let scene = "A massive door looms ahead, lit by a few torches. Several goblins crouch \
                     over the strange things they found.";
        let moves = candidate_moves(&state(scene));
        let things: Vec<&str> = moves
            .iter()
            .filter_map(|m| thing_of(&m.description))
            .collect();
        for word in ["massive", "few", "several", "things", "strange things"] {
            assert!(!things.contains(&word), "a move names {word:?}: {things:?}");
        }
        assert_eq!(things, ["goblins", "goblins", "torches", "torches"]);
        let fallback = fallback_actions(&state(scene));
        let descriptions: Vec<&str> = fallback
            .actions()
            .iter()
            .map(|a| a.description().as_str())
            .collect();
        assert_eq!(
            descriptions[..2],
            [
                "Examine the goblins closely",
                "Approach the torches carefully"
            ]
        );
    }

    #[test]
    fn leftover_adjectives_and_gestures_are_not_things() {
        let scene = "The old woman gives a nod. The gentle rain falls on a very rare sight, \
                     and the gentle is all she says.";
        let moves = candidate_moves(&state(scene));
        for word in ["nod", "gentle", "very rare"] {
            assert!(
                !moves.iter().any(|m| thing_of(&m.description) == Some(word)),
                "a move names {word:?}: {moves:?}"
            );
        }
    }

    /// A state of the rules' rescue plan, the hero at the gate, the map as the plan put it.
    fn planned(scene: &str, turn: u32) -> CampaignState {
        use crate::campaign::event::StoredEvent;
        use crate::campaign::turn_event::TurnEvent;
        use crate::game::spine::shapes::Shape;
        use crate::game::spine::SpineEvent;
        let mut state = state(scene);
        let planned = SpineEvent::Planned {
            plan: Shape::Rescue.plan(),
            by_rules: true,
            on_the_map: true,
        };
        state
            .apply(&StoredEvent {
                turn: 1,
                event: crate::campaign::event::CampaignEvent::Turn(TurnEvent::Spine {
                    change: planned,
                }),
            })
            .unwrap();
        state.turn = turn;
        state
    }

    #[test]
    fn the_moves_name_the_plans_people_goal_and_places_in_words_that_change() {
        let scene = "The witness wrings her hands by the well.";
        let first: Vec<String> = candidate_moves(&planned(scene, 1))
            .into_iter()
            .map(|m| m.description)
            .collect();
        assert_eq!(
            first[..3],
            [
                "Talk to the witness",
                "Look for the witness",
                "Travel to the hideout"
            ]
        );
        let next: Vec<String> = candidate_moves(&planned(scene, 2))
            .into_iter()
            .map(|m| m.description)
            .collect();
        assert_eq!(
            next[0], "Win over the witness",
            "the verb changes with the turn"
        );
        let talk = &candidate_moves(&planned(scene, 1))[0];
        assert_eq!(talk.check.map(|(skill, _)| skill), Some("Persuasion"));
    }

    #[test]
    fn the_rules_decide_the_checks_and_add_one_when_none_rolls() {
        let candidates = candidate_moves(&state("A guard dozes by the drowned gate."));
        let picked = ActionList::parse_json(
            r#"{"actions": [
                {"id": "look", "description": "Examine the drowned gate closely", "diceRoll": "2d20kh1", "difficultyClass": 25, "attribute": "STR"},
                {"id": "wait", "description": "Wait and listen for a moment"}]}"#,
        )
        .unwrap()
        .actions;

        let checked = with_rules_checks(&picked, &candidates);

        let actions = checked.actions();
        assert_eq!(actions.len(), 3);
        assert!(
            actions[0].dice_roll().is_none(),
            "looking closer does not roll"
        );
        let added = &actions[2];
        assert_eq!(
            added.description().as_str(),
            "Approach the drowned gate carefully"
        );
        assert_eq!(added.difficulty_class().map(|dc| dc.value()), Some(12));
        assert_eq!(added.attribute(), Some(Attribute::Dexterity));
    }
}
